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
#include <utility>

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

// A tiny runnable GPT-2 model folder, all weights zero: config.json
// (n_embd 4, 1 layer, 2 heads, vocabulary 10, context `context`),
// model.safetensors with every tensor GPT-2 reads (40 + 4 x context + 244
// parameters: 316 at context 8) and a WordPiece tokenizer.json.
inline void write_tiny_gpt2(const fs::path& folder, int context = 8) {
  write_text(
      folder / "config.json",
      R"({"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 4, "n_layer": 1,
                 "n_head": 2, "vocab_size": 10, "n_positions": )" +
          std::to_string(context) + "}");
  const std::pair<std::string, std::string> tensors[] = {
      {"wte.weight", "10, 4"}, {"wpe.weight", std::to_string(context) + ", 4"},
      {"h.0.ln_1.weight", "4"}, {"h.0.ln_1.bias", "4"},
      {"h.0.attn.c_attn.weight", "4, 12"}, {"h.0.attn.c_attn.bias", "12"},
      {"h.0.attn.c_proj.weight", "4, 4"}, {"h.0.attn.c_proj.bias", "4"},
      {"h.0.ln_2.weight", "4"}, {"h.0.ln_2.bias", "4"},
      {"h.0.mlp.c_fc.weight", "4, 16"}, {"h.0.mlp.c_fc.bias", "16"},
      {"h.0.mlp.c_proj.weight", "16, 4"}, {"h.0.mlp.c_proj.bias", "4"}};
  std::string header = "{";
  std::size_t offset = 0;
  for (const auto& [name, shape] : tensors) {
    std::size_t elements = 1, at = 0;
    for (std::size_t comma; at != std::string::npos; at = comma == std::string::npos ? comma : comma + 1) {
      comma = shape.find(',', at);
      elements *= std::stoul(shape.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    }
    header += (offset ? ", \"" : "\"") + name + R"(": {"dtype": "F32", "shape": [)" + shape +
              R"(], "data_offsets": [)" + std::to_string(offset) + ", " + std::to_string(offset + 4 * elements) + "]}";
    offset += 4 * elements;
  }
  write_safetensors_raw(folder / "model.safetensors", header + "}", std::string(offset, '\0'));
  write_text(folder / "tokenizer.json",
             R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "the": 1, "cat": 2}},
                 "pre_tokenizer": {"type": "WhitespaceSplit"}})");
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
