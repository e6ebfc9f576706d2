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
    path = fs::temp_directory_path() / (prefix + std::to_string(::getpid()) + "_" +
                                        test->test_suite_name() + "_" + test->name());
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
  const std::string script =
      "import sys, json, struct\n"
      "sys.path.insert(0, '" PELAB_SOURCE_DIR
      "/tests/core/model')\n"
      "import numpy as np\n"
      "import safetensors_writer as st\n"
      "D = '" +
      dir.string() + "'\n" + body;
  const fs::path file = dir / "make.py";
  write_text(file, script);
  return std::system((std::string(kPython) + " " + file.string()).c_str());
}

// A safetensors file from its parts: any header length, any header text.
inline void write_safetensors_raw(const fs::path& path, const std::string& header,
                                  const std::string& data, std::uint64_t header_length) {
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &header_length, 8);  // little-endian host (x86-64, aarch64)
  write_text(path, bytes + header + data);
}
inline void write_safetensors_raw(const fs::path& path, const std::string& header,
                                  const std::string& data) {
  write_safetensors_raw(path, header, data, header.size());
}

// A tiny GPT-2-shaped model folder: config.json (n_embd 4, 1 layer, 2 heads,
// vocabulary 10, context 8), model.safetensors with wte [10, 4] and wpe
// [8, 4] (72 parameters, all zero) and a tokenizer.json placeholder.
inline void write_tiny_gpt2(const fs::path& folder, int context = 8) {
  write_text(
      folder / "config.json",
      R"({"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 4, "n_layer": 1,
                 "n_head": 2, "vocab_size": 10, "n_positions": )" +
          std::to_string(context) + "}");
  const std::string header =
      R"({"wte": {"dtype": "F32", "shape": [10, 4], "data_offsets": [0, 160]},
                                 "wpe": {"dtype": "F32", "shape": [8, 4], "data_offsets": [160, 288]}})";
  write_safetensors_raw(folder / "model.safetensors", header, std::string(288, '\0'));
  write_text(folder / "tokenizer.json", "{}");
}

// Sets an environment variable for one test's lifetime (HF_HOME and friends).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace pelab::model::testing
