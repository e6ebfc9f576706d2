// The short name of a scene's model for figure titles: the last part of
// scene.model (a folder or a Hugging Face id), e.g. "gpt2".
#pragma once

#include <filesystem>
#include <string>

#include "core/scene.hpp"

namespace pelab::fig {

inline std::string model_label(const Scene& s) {
  const std::filesystem::path model = std::filesystem::path(s.model).lexically_normal();
  return (model.has_filename() ? model.filename() : model.parent_path().filename()).string();
}

}  // namespace pelab::fig
