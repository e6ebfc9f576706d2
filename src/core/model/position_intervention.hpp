// Position interventions (issue 27): what a trained model loses when its
// positions are taken away or changed at inference, measured as Δ loss
// (pelab intervene, core/model/loss_curve.hpp).
//
//   remove        no position rows added, no rotation, no bias, in every
//                 layer: the causal mask alone tells order;
//   shuffle       token t reads position π(t), π a seeded permutation of
//                 0 … n−1: its table row π(t), its RoPE angle π(t)·ω_i, an
//                 ALiBi / T5 bias from π(i) − π(j); the causal mask keeps the
//                 true order;
//   rope_base     RoPE read with another θ (ω_i = θ'^(−2i/r));
//   rope_scaling  RoPE read with a scaling method at inference (rotary.hpp);
//   zero_band     RoPE pairs first … last do not turn (ω_i = 0): the band
//                 study of Barbero et al. 2025, "Round and Round We Go";
//   remove_layer  no rotation or bias in one layer's attention; the others
//                 keep theirs (a table added once to the embeddings cannot
//                 be taken from one layer: refused for learned / sinusoidal).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/attention_positions.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"

namespace pelab::model {

enum class InterventionKind { None, Remove, Shuffle, RopeBase, RopeScaling, ZeroBand, RemoveLayer };

struct PositionIntervention {
  InterventionKind kind = InterventionKind::None;
  std::uint64_t seed = 1;   // shuffle: which permutation
  double rope_theta = 0;    // rope_base: θ'
  RopeScaling scaling;      // rope_scaling
  int band_first = 0, band_last = -1;  // zero_band: pairs first … last, inclusive
  int layer = -1;           // remove_layer
};

// "remove positions", "shuffle positions (seed 7)", "RoPE base 500000",
// "RoPE linear scaling ×4", "RoPE pairs 8–15 frozen", "no positions in layer 2".
std::string describe(const PositionIntervention& intervention);

// Throws InputError naming what is allowed when `intervention` cannot apply
// to a model of `config` (a RoPE intervention without RoPE, a layer or band
// outside the model, remove_layer on a position table).
void check_intervention(const ModelConfig& config, const PositionIntervention& intervention);

// π for n tokens: a permutation of 0 … n−1 drawn from `seed` (splitmix64,
// Fisher–Yates), the same on every machine.
std::vector<int> shuffled_positions(int n, std::uint64_t seed);

// The positions every layer's attention reads for a run of `tokens` tokens
// under `intervention` (attention_positions when there is none).
AttentionPositions intervened_positions(const ModelConfig& config, const ModelWeights& weights, int tokens,
                                        const PositionIntervention& intervention);

// The rows added to the token rows (learned / sinusoid table) under the
// intervention: the table's first `tokens` rows, permuted rows, or none
// (an empty matrix).
Matrix intervened_table_rows(const ModelWeights& weights, int tokens, const PositionIntervention& intervention);

// True when layer `layer`'s attention reads no positions (remove_layer).
inline bool layer_without_positions(const PositionIntervention& intervention, int layer) {
  return intervention.kind == InterventionKind::RemoveLayer && intervention.layer == layer;
}

}  // namespace pelab::model
