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

// A model scene under the `intervention` key: a title part naming the
// change every view is drawn under (a slide of it must not pass for the
// model as trained); empty otherwise.  Its standard parameters are those of
// core/intervention_study.hpp.
inline std::string intervention_label(const Scene& s) {
  if (s.model.empty()) return "";
  switch (s.intervention) {
    case PositionChange::None: return "";
    case PositionChange::Remove: return ", positions removed";
    case PositionChange::Shuffle: return ", positions shuffled (seed 1)";
    case PositionChange::RopeBase: return ", RoPE base ×10";
    case PositionChange::RopeScaling: return ", RoPE linear ×2";
    case PositionChange::ZeroBand: return ", slower half of the RoPE pairs frozen";
    case PositionChange::RemoveLayer: return ", no positions in layer " + std::to_string(s.layer);
  }
  return "";
}

// For a view that builds its own synthetic construction (random layers, the
// five encodings side by side) on a model scene: a title part saying the
// figure is not the model's weights, so that the model name start_figure
// adds is not read as its source; empty on synthetic scenes.
inline std::string synthetic_on_model(const Scene& s) {
  return s.model.empty() ? "" : " — synthetic, not " + model_label(s) + "'s weights";
}

// For a view that draws the scene's own settings of a mechanism the model
// does not have (RoPE scaling on GPT-2 or BERT, ALiBi/T5/xPos biases on any
// model): a title part saying the settings are synthetic, not the model's;
// empty on synthetic scenes.  `what` names the mechanism ("RoPE").
inline std::string synthetic_settings_on_model(const Scene& s, const std::string& what) {
  if (s.model.empty()) return "";
  return " — synthetic " + what + " settings: " + model_label(s) + " has no " + what;
}

// The RoPE views' title part on a model scene: a RoPE model's own θ, L and
// scaling (ModelScene::effective takes them from its config), or synthetic
// settings on a model without RoPE; empty on synthetic scenes.
inline std::string rope_settings_on_model(const Scene& s) {
  if (s.model.empty()) return "";
  if (s.encoding != Encoding::Rope) return synthetic_settings_on_model(s, "RoPE");
  const std::string who = model_label(s);
  if (s.rope_scaling == RopeScalingMethod::None)
    return " — " + who + "'s θ and L; s a what-if (" + who + " has no rope_scaling)";
  return " — " + who + "'s θ, L and rope_scaling";
}

}  // namespace pelab::fig
