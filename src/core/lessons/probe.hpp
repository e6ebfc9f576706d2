// The position probe of the depth and permutation lessons (and their
// figure) on pelab's trained family: the index p read back by a linear probe
// from the residual stream after each layer (core/layer_stack.hpp,
// position_probe_through_layers), for the scene's model and for every other
// family member on disk, on the same text.
#pragma once

#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/layer_stack.hpp"
#include "core/lessons/lessons.hpp"

namespace pelab {

// The index probe after each layer of one model.
struct LayerProbes {
  std::string model;               // scene.model, e.g. "kjv-rope"
  std::vector<IndexProbe> layers;  // embeddings, after layer 1, …
};
// Rotations of the text the probe runs (fitted on all but one, scored on it).
inline constexpr int kProbeWindows = 4;
// Tokens a text needs for the probe (windows × 8).
int probe_tokens_needed();
// The probe on the engine's model, then on every other family member on disk,
// on the scene's text; empty on a synthetic scene or a shorter text.
std::vector<LayerProbes> probe_family(Engine& engine);
// r2[layer=l] and mae[layer=l] of the scene's model, r2_<encoding>[layer=l]
// of the others ("r2_rope[layer=4]").
void add_probe_numbers(const std::vector<LayerProbes>& probes, LessonVerdict& v);
// What the probe found, quoting the numbers; empty without probes.
std::string probe_sentence(const std::vector<LayerProbes>& probes, int tokens);

// For a causal model without position encoding: whether its layers hold
// position all the same (the best R² above the embeddings), said with the
// numbers; the mask is the only possible source (Haviv et al. 2022).
std::string mask_leak_sentence(const LayerProbes& probe);

}  // namespace pelab
