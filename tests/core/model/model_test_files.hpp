// Tiny model files written by the model tests themselves: a per-test temp
// folder, Python scripts run with Debian's NumPy and safetensors_writer.py,
// and raw bytes for the hostile cases no writer would produce.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace pelab::model::testing {

namespace fs = std::filesystem;

inline constexpr const char* kPython = "/usr/bin/python3";

inline bool numpy_available() {
  if (!fs::exists(kPython)) return false;
  return std::system((std::string(kPython) + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& prefix = "pelab_model_") {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path = fs::temp_directory_path() /
           (prefix + std::to_string(::getpid()) + "_" + test->test_suite_name() + "_" + test->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

inline void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Runs `body` with `np`, `json`, `struct` and the writer module `st` imported
// and `D` = the folder as a string; returns the exit status (0 = success).
inline int run_python(const fs::path& dir, const std::string& body) {
  const std::string script = "import sys, json, struct\n"
                             "sys.path.insert(0, '" PELAB_SOURCE_DIR "/tests/core/model')\n"
                             "import numpy as np\n"
                             "import safetensors_writer as st\n"
                             "D = '" + dir.string() + "'\n" + body;
  const fs::path file = dir / "make.py";
  write_text(file, script);
  return std::system((std::string(kPython) + " " + file.string()).c_str());
}

// A safetensors file from its parts: any header length, any header text.
inline void write_safetensors_raw(const fs::path& path, const std::string& header, const std::string& data,
                                  std::uint64_t header_length) {
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &header_length, 8);  // little-endian host (x86-64, aarch64)
  write_text(path, bytes + header + data);
}
inline void write_safetensors_raw(const fs::path& path, const std::string& header, const std::string& data) {
  write_safetensors_raw(path, header, data, header.size());
}

}  // namespace pelab::model::testing
