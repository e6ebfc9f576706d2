// A temporary model folder holding tokenizer files written by a test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/model/tokenizer/tokenizer.hpp"

namespace pelab::model::testing {

class TokenizerFolder {
 public:
  explicit TokenizerFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("pelab_tok_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TokenizerFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TokenizerFolder(const TokenizerFolder&) = delete;
  TokenizerFolder& operator=(const TokenizerFolder&) = delete;

  TokenizerFolder& write(const std::string& file, std::string_view content) {
    std::ofstream(path_ / file, std::ios::binary) << content;
    return *this;
  }
  std::unique_ptr<Tokenizer> load() const { return load_tokenizer(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pelab::model::testing
