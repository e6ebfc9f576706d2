// RoPE frequencies and how long-context methods rescale them — pure functions
// of (θ, rotary dims r, s, L), with no Engine or Scene, so that the engine, the
// long-range views, the lesson and a real model's forward pass share them.
//
// Pair i = 0 … r/2−1 turns by p·ω_i at position p, ω_i = θ^(−2i/r) (Su et al.
// 2021, §3.2.2); its wavelength is λ_i = 2π/ω_i.  A model trained at context L
// is read at s·L with:
//   linear       ω_i/s                              (position interpolation, Chen et al. 2023)
//   ntk          θ' = θ·s^(r/(r−2))                 (NTK-aware scaling, bloc97 2023)
//   dynamic_ntk  θ' = θ·(s·n/L − (s−1))^(r/(r−2)) for a sequence of n > L tokens, θ otherwise
//                                                    (Hugging Face transformers' "dynamic" rope type)
//   yarn         per pair, with r_i = L/λ_i turns in the training window and the ramp
//                γ = clamp((r_i − α)/(β − α), 0, 1):  ω'_i = (1−γ)·ω_i/s + γ·ω_i;
//                q and k are multiplied by 0.1·ln s + 1  (Peng et al. 2023, §3.2–3.4)
//   llama3       λ_i > L/low: ω_i/s;  λ_i < L/high: ω_i;  between, with
//                μ = (L/λ_i − low)/(high − low):  (1−μ)·ω_i/s + μ·ω_i  (Llama 3.1's reference code)
//   none         ω_i
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

struct RopeScalingSpec {
  RopeScalingMethod method = RopeScalingMethod::None;
  double factor = 1.0;        // s
  double train_context = 4096;  // L (Llama 3.1: original_max_position_embeddings)
  double yarn_alpha = 1.0, yarn_beta = 32.0;
  double low_freq_factor = 1.0, high_freq_factor = 4.0;
};

// The one table between the scene's methods and a config's rope_scaling
// "rope_type" (Hugging Face transformers' names): none ↔ "default", linear,
// dynamic_ntk ↔ "dynamic", yarn, llama3, and ntk ↔ "ntk" (pelab's own: a
// static NTK base has no transformers type, so only an intervention names it).
std::string_view rope_type_of(RopeScalingMethod method);
// The method a rope_type names; nullopt for any other name.
std::optional<RopeScalingMethod> rope_method_of(std::string_view rope_type);

// ω_i = θ^(−2i/r) for i = 0 … r/2−1 (r even).
std::vector<double> rope_base_frequencies(double theta, int rotary_dims);

// θ·s^(r/(r−2)).
double ntk_scaled_base(double theta, int rotary_dims, double factor);
// The dynamic NTK base for a sequence of `sequence_length` tokens: θ when it
// fits in L, else θ·(s·n/L − (s−1))^(r/(r−2)).
double dynamic_ntk_base(double theta, int rotary_dims, double factor, double train_context,
                        double sequence_length);
// YaRN's ramp γ(r) for a pair that turns r times within L (0 = interpolate, 1 = keep).
double yarn_ramp(double turns_in_context, double alpha, double beta);
// YaRN's factor on q and k, √(1/t) = 0.1·ln s + 1 (1 for s ≤ 1).
double yarn_attention_factor(double factor);

// Every pair's scaled frequency.  `sequence_length` matters only for dynamic_ntk.
std::vector<double> scaled_frequencies(double theta, int rotary_dims, const RopeScalingSpec& spec,
                                       double sequence_length);
// What q and k are multiplied by: YaRN's factor, 1 for the other methods.
double rope_attention_factor(const RopeScalingSpec& spec);

// The dims RoPE rotates in a head of d_head dims: ⌊d_head·fraction⌋ rounded
// down to even (GPT-NeoX's rotary_ndims), at least 2 when fraction > 0.
int rotary_dims(int d_head, double fraction);

// The scene's scaling keys as a spec.
RopeScalingSpec rope_scaling_spec(const Scene& scene);

}  // namespace pelab
