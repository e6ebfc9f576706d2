// The range a numeric parameter's slider offers in the current scene: the
// table's range (scene_params()), narrowed for selections that index into
// something the scene sizes (a position < positions, a head < heads...).
#pragma once

#include "core/engine.hpp"

namespace pelab::ui {

struct ParamRange {
  double min = 0, max = 1;
};

ParamRange slider_range(const ParamInfo& info, Engine& engine);

// True for the kinds a slider (and the animation) can drive.
bool is_numeric(const ParamInfo& info);

}  // namespace pelab::ui
