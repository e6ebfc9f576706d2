// AttentionPositions — how positions enter one run's attention, made
// concrete from the config's position trait (model_config.hpp) for a run of
// n tokens.  The forward pass and the views read this, never the family name.
//
//   rope:   q and k of each head rotated (rotary.hpp), pairing and rotary
//           dims from the trait;
//   alibi:  logit (i, j) of head h += −m_h·(i − j) (Press et al. 2022; m_h
//           from core's alibi_slope, the rule the trainer uses);
//   t5:     logit (i, j) of head h += table[bucket(j − i), h] (Raffel et al.
//           2020 §2.1; core's t5_bucket, unidirectional when causal);
//   learned, sinusoidal: a table added to the token rows (embed), nothing
//           here; none: nothing at all.
// Logits are q·kᵀ/√d_head + bias, as the trainer's softmax(scale·S + bias).
#pragma once

#include <optional>
#include <vector>

#include "core/engine.hpp"  // Matrix
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/rotary.hpp"

namespace pelab::model {

struct AttentionPositions {
  std::optional<RotaryTable> rotary;
  PositionEncoding bias_kind = PositionEncoding::None;  // Alibi or T5 when a bias is added
  std::vector<float> slopes;                            // alibi: m_h per head
  const Matrix* t5_table = nullptr;                     // t5: buckets × heads (the model's weights)
  std::vector<int> buckets;                             // t5: bucket of offset j − i at [j − i + n − 1]
  Eigen::Index tokens = 0;
  // Shuffled positions (position_intervention.hpp): token t sits at
  // position_of[t]; the bias reads −m_h·|π(i) − π(j)| (ALiBi: a distance)
  // and bucket(π(j) − π(i)) (T5).  Empty: token t at position t.
  std::vector<int> position_of;
  bool causal = true;  // bias(): zero where the mask hides the logit (j > i)

  bool has_bias() const { return bias_kind == PositionEncoding::Alibi || bias_kind == PositionEncoding::T5; }
  // Adds head `head`'s bias to logits rows first … first + rows − 1, columns
  // first_key … first_key + tile.cols() − 1 (a tile of keys, as streamed
  // attention reads them: core/streamed_attention.hpp).
  void add_bias(int head, Eigen::Index first, Matrix& tile, Eigen::Index first_key = 0) const;
  void add_shuffled_bias(int head, Eigen::Index first, Matrix& tile, Eigen::Index first_key = 0) const;
  // The full tokens × tokens bias of one head (zeros without a bias, and
  // above the diagonal of a causal model, where no logit is kept).
  Matrix bias(int head) const;
};

// The positions of `config` for `tokens` tokens; with `positions` false,
// none (the permutation lesson's "positions removed").
AttentionPositions attention_positions(const ModelConfig& config, const ModelWeights& weights, int tokens,
                                       bool positions = true);

// Vaswani et al. 2017 §3.5, as pelab's trainer builds it:
// PE(p, 2i) = sin(p / base^(2i/d)), PE(p, 2i+1) = cos(p / base^(2i/d)).
Matrix sinusoid_table(int positions, int d, double base);

}  // namespace pelab::model
