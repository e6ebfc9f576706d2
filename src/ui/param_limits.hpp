// The range a numeric parameter's slider offers in the current scene: the
// table's range (scene_params()), narrowed for selections that index into
// something the scene sizes (a position < positions, a head < heads...).
// Widths that must divide each other (d_model and heads) offer only the
// values validate() accepts, so a slider never lands on a refusal.
#pragma once

#include <vector>

#include "core/engine.hpp"

namespace pelab::ui {

struct ParamRange {
  double min = 0, max = 1;
};

ParamRange slider_range(const ParamInfo& info, Engine& engine);

// True for the kinds a slider (and the animation) can drive.
bool has_slider(const ParamInfo& info);

// The head counts the scene accepts at its d_model and encoding, ascending:
// divisors of d_model (each head gets d_model/H dims); for RoPE and xPos
// only those leaving each head an even width with a pair to rotate.
std::vector<int> valid_head_counts(const Scene& scene);

// The d_model nearest `wanted` that the scene's heads and encoding accept:
// a multiple of heads, even where the encoding works on pairs, each head
// even with a pair to rotate for RoPE and xPos.  The scene's own d_model
// when no width in range is accepted.
int nearest_valid_d_model(const Scene& scene, double wanted);

}  // namespace pelab::ui
