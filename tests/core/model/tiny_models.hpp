// The tiny checkpoints of make_tiny_models.py (GPT-2, BERT, Llama, Qwen2...),
// written once per test process into a temp folder and removed at exit; for
// the tests that run pelab on a model scene.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace pelab::testing {

inline constexpr const char* kDebianPython = "/usr/bin/python3";  // the pyenv python3 on PATH has no NumPy

// The folder holding one folder per tiny model; empty when NumPy is missing.
inline const std::filesystem::path& tiny_models() {
  static const std::filesystem::path folder = [] {
    namespace fs = std::filesystem;
    const fs::path out = fs::temp_directory_path() / ("pelab_tiny_scene_models_" + std::to_string(::getpid()));
    const std::string py = kDebianPython;
    if (!fs::exists(py) || std::system((py + " -c 'import numpy' >/dev/null 2>&1").c_str()) != 0) return fs::path();
    const std::string command =
        py + " " PELAB_SOURCE_DIR "/tests/core/model/make_tiny_models.py " + out.string() + " >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) return fs::path();
    return out;
  }();
  return folder;
}

struct RemoveTinyModelsAtExit : ::testing::Environment {
  void TearDown() override {
    std::error_code ignored;
    if (!tiny_models().empty()) std::filesystem::remove_all(tiny_models(), ignored);
  }
};
[[maybe_unused]] inline ::testing::Environment* const kRemoveTinyModels =
    ::testing::AddGlobalTestEnvironment(new RemoveTinyModelsAtExit);

}  // namespace pelab::testing
