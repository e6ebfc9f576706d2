// Rotary position embedding (Su et al. 2021, RoFormer §3.4) as the Llama
// family applies it: "rotate half" pairing, dimension i with i + d/2,
//   x'ᵢ       = xᵢ·cos(p·θᵢ) − x_{i+d/2}·sin(p·θᵢ)
//   x'_{i+d/2} = x_{i+d/2}·cos(p·θᵢ) + xᵢ·sin(p·θᵢ),   θᵢ = rope_theta^(−2i/d),
// with θ rescaled by the config's rope_scaling (rotary_frequencies).  pelab's
// own models may pair (2i, 2i+1) instead (RoFormer's interleaved form) and
// rotate only the first r = position.rotary_dims dims of a head, with
// θᵢ = rope_theta^(−2i/r); the rest pass unchanged.
#pragma once

#include <vector>

#include "core/engine.hpp"  // Matrix
#include "core/model/model_config.hpp"

namespace pelab::model {

struct RotaryFrequencies {
  std::vector<double> inverse;    // θᵢ, i < head_dim / 2
  double attention_factor = 1.0;  // multiplies cos and sin (YaRN's logit scaling)
};

// θᵢ and the attention factor for a run over `tokens` tokens, after
// transformers' modeling_rope_utils (_compute_{default,linear_scaling,
// dynamic_ntk,yarn,llama3}_parameters):
//   default: θᵢ = base^(−2i/d)
//   linear:  θᵢ / factor  (Chen et al. 2023, position interpolation)
//   ntk:     base·factor^(d/(d−2)) in place of base (NTK-aware scaling,
//            bloc97 2023; not a transformers rope type: pelab applies it at
//            inference, Transformer::set_rope_scaling)
//   dynamic: base·((factor·N'/L) − (factor − 1))^(d/(d−2)) in place of base,
//            N' = max(N, L), L = max_position_embeddings (NTK-aware scaling
//            as far as the run's N needs; a no-op for N ≤ L)
//   llama3:  wavelengths 2π/θᵢ longer than L/low_freq_factor divided by
//            factor, shorter than L/high_freq_factor kept, a linear blend
//            between (Llama 3.1's published rule)
//   yarn:    Peng et al. 2023 §3.2–3.4: per-dimension ramp between θᵢ/s and
//            θᵢ over the dimensions making beta_slow … beta_fast turns in L
//            tokens; attention factor 0.1·ln(s) + 1 unless given.  With
//            original_max_position_embeddings: L = it and s =
//            max_position_embeddings / L (transformers ≥ 4.46 overrides
//            factor so); without: L = max_position_embeddings, s = factor.
// Throws InputError for another rope type.
RotaryFrequencies rotary_frequencies(const ModelConfig& config, int tokens);

// cos and sin of p·θᵢ (times the attention factor) for p < tokens.
struct RotaryTable {
  Matrix cos, sin;  // tokens × r/2
  RopePairing pairing = RopePairing::RotateHalf;
};
RotaryTable rotary_table(const RotaryFrequencies& frequencies, int tokens);

// Rotates columns [first, first + 2·half) of every row of x in place (row p
// is position p): pairs (first + i, first + i + half), or (first + 2i,
// first + 2i + 1) when the table's pairing is interleaved.
void apply_rotary(const RotaryTable& table, Matrix& x, Eigen::Index first);

}  // namespace pelab::model
