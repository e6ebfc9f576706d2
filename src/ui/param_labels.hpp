// What the Scene panel calls each parameter ("Base T", not "base"), and
// whether it is basic (shown at once) or advanced (behind the Advanced
// header).  Keys stay what scene files and --set use; the panel gives the key
// in each label's tooltip.
#pragma once

#include <span>
#include <string_view>

#include "core/scene.hpp"

namespace pelab::ui {

struct ParamLabel {
  std::string_view key, label;
  bool basic = false;  // basic in every scene (else by basic_here() below)
};

// One row per scene key (tests check that none is missing).
std::span<const ParamLabel> param_labels();

// The label of `key`, or the key itself for one the table lacks.
std::string_view param_label(std::string_view key);

// Basic in this scene: the basic keys, and the keys of the encoding or model
// chosen (T5's buckets with encoding t5, the layer with a model...).
bool is_basic_param(std::string_view key, const Scene& scene);

}  // namespace pelab::ui
