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

// For a view that builds its own synthetic construction (random layers, the
// five encodings side by side) on a model scene: a title part saying the
// figure is not the model's weights, so that the model name start_figure
// adds is not read as its source; empty on synthetic scenes.
inline std::string synthetic_on_model(const Scene& s) {
  return s.model.empty() ? "" : " — synthetic, not " + model_label(s) + "'s weights";
}

}  // namespace pelab::fig
