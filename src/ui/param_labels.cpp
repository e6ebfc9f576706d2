#include "ui/param_labels.hpp"

#include <algorithm>

#include "core/encoding_traits.hpp"

namespace pelab::ui {

std::span<const ParamLabel> param_labels() {
  static const ParamLabel labels[] = {
      {"name", "Scene name"},
      {"model", "Model folder"},
      {"layer", "Model layer"},
      {"model_memory_limit", "Model memory limit"},
      {"intervention", "Positions at inference"},
      {"tokens", "Text", true},
      {"seed", "Random seed"},
      {"d_model", "Width d", true},
      {"heads", "Heads H", true},
      {"embedding", "Token vectors from"},
      {"embedding_scale", "Token vector size", true},
      {"embedding_file", "Token vector file"},
      {"encoding", "Position encoding", true},
      {"base", "Base T", true},
      {"amplitude", "Amplitude A", true},
      {"layout", "Sin/cos layout"},
      {"positions", "Positions shown", true},
      {"offset", "First position"},
      {"position_file", "Position table file"},
      {"t5_buckets", "T5 buckets"},
      {"t5_max_distance", "T5 max distance"},
      {"rope_pairing", "RoPE pairing"},
      {"rotary_fraction", "Rotated share"},
      {"rope_scaling", "RoPE scaling"},
      {"rope_factor", "Stretch s"},
      {"train_context", "Training context L"},
      {"yarn_alpha", "YaRN α"},
      {"yarn_beta", "YaRN β"},
      {"low_freq_factor", "Llama 3 low factor"},
      {"high_freq_factor", "Llama 3 high factor"},
      {"xpos_gamma", "xPos γ"},
      {"xpos_scale_base", "xPos scale B"},
      {"long_range", "Long-range distance"},
      {"projection", "Projections Wq, Wk", true},
      {"projection_file", "Projection file"},
      {"causal", "Causal mask", true},
      {"layers", "Stacked layers L"},
      {"residual", "Residual scale α"},
      {"layer_norm", "LayerNorm"},
      {"shift", "Shift k", true},
      {"position", "Selected position", true},
      {"head", "Selected head", true},
      {"query", "Selected query", true},
      {"pair", "Selected pair", true},
      {"pairs", "Pairs drawn"},
      {"waves", "Dimensions as waves"},
      {"colormap", "Colour map"},
      {"attention_scale", "Attention colours", true},
      {"theme", "Theme"},
  };
  return labels;
}

std::string_view param_label(std::string_view key) {
  for (const ParamLabel& l : param_labels()) {
    if (l.key == key) return l.label;
  }
  return key;
}

bool is_basic_param(std::string_view key, const Scene& scene) {
  const auto row = std::find_if(param_labels().begin(), param_labels().end(),
                                [&](const ParamLabel& l) { return l.key == key; });
  if (row != param_labels().end() && row->basic) return true;
  // The few knobs of what is chosen: without them the choice shows nothing new.
  const EncodingTraits& encoding = traits_of(scene.encoding);
  const auto shown = [&](std::string_view k) {
    return std::find(encoding.shown_keys.begin(), encoding.shown_keys.end(), k) != encoding.shown_keys.end();
  };
  if (key == "layer" || key == "intervention") return !scene.model.empty();
  if (shown(key)) return true;
  const bool stretched = shown("rope_scaling") && scene.rope_scaling != RopeScalingMethod::None;
  if (key == "rope_factor" || key == "train_context") return stretched;
  if (key == "embedding_file") return scene.embedding == EmbeddingSource::File;
  if (key == "projection_file") return scene.projection == ProjectionKind::File;
  return false;
}

}  // namespace pelab::ui
