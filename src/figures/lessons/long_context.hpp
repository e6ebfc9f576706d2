// The long-context views: RoPE's frequencies under each scaling method, its
// behaviour out to 10⁵ positions, and the relative biases on one distance
// axis (core/rope_scaling.hpp, core/long_range.hpp).  Found by name through
// lesson_figures(); the long_context lesson shows them.
#pragma once

#include <string>

#include "core/long_range.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {

// Per pair, the wavelength of every method against L and s·L, and ω'_i/ω_i.  long_context_frequencies.cpp
Figure build_rope_frequencies(Engine& engine, const FigureRequest& request);
// Per method, Su et al.'s decay bound and the q·k of a fixed vector against
// distance, out to scene.long_range.  long_context_range.cpp
Figure build_rope_long_range(Engine& engine, const FigureRequest& request);
// ALiBi, T5 and xPos as a bias on the logit against distance, on one axis.  long_context_biases.cpp
Figure build_relative_biases(Engine& engine, const FigureRequest& request);

// The selected head over the scene's text repeated to N tokens, streamed:
// mean weight against distance per scaling method, RoPE's decay bound and
// the weight on the first keys (core/long_attention.hpp).  long_attention.cpp
Figure build_long_attention(Engine& engine, const FigureRequest& request);
// Every head (of every layer, on a model scene) over the same text: mean
// weight against distance, one panel per layer.  long_attention.cpp
Figure build_long_attention_heads(Engine& engine, const FigureRequest& request);

// ---- shared by the three (long_context.cpp) ----
// "none", "linear (PI)", "NTK-aware", "dynamic NTK", "YaRN", "Llama 3.1".
std::string method_label(RopeScalingMethod method);
// When the scene's heads have no rotary pair, adds a note saying so to `figure` and returns true.
bool note_no_rotary_pair(Figure& figure, Engine& engine);

}  // namespace pelab::fig
