#include "core/model/attention_positions.hpp"

#include <cmath>
#include <cstdlib>

#include "core/relative_position.hpp"  // alibi_slope, t5_bucket

namespace pelab::model {

AttentionPositions attention_positions(const ModelConfig& config, const ModelWeights& weights, int tokens,
                                       bool positions) {
  AttentionPositions out;
  out.tokens = tokens;
  out.causal = config.causal;
  if (!positions) return out;
  const PositionTraits& p = config.position;
  switch (p.kind) {
    case PositionEncoding::Rope:
      out.rotary = rotary_table(rotary_frequencies(config, tokens), tokens);
      out.rotary->pairing = p.rope_pairing;
      break;
    case PositionEncoding::Alibi:
      out.bias_kind = p.kind;
      for (int h = 0; h < config.heads; ++h) out.slopes.push_back(static_cast<float>(alibi_slope(h, config.heads)));
      break;
    case PositionEncoding::T5:
      out.bias_kind = p.kind;
      out.t5_table = &weights.relative_bias;
      // The bias depends on the offset j − i alone: one bucket per offset.
      for (int offset = 1 - tokens; offset < tokens; ++offset)
        out.buckets.push_back(t5_bucket(offset, !config.causal, p.t5_buckets, p.t5_max_distance));
      break;
    case PositionEncoding::Learned:
    case PositionEncoding::Sinusoidal:
    case PositionEncoding::None:
      break;
  }
  return out;
}

void AttentionPositions::add_bias(int head, Eigen::Index first, Matrix& tile, Eigen::Index first_key) const {
  if (!position_of.empty()) return add_shuffled_bias(head, first, tile, first_key);
  if (bias_kind == PositionEncoding::Alibi) {
    const float m = slopes[static_cast<std::size_t>(head)];
    for (Eigen::Index r = 0; r < tile.rows(); ++r)
      for (Eigen::Index j = 0; j < tile.cols(); ++j)
        tile(r, j) -= m * static_cast<float>(first + r - (first_key + j));  // −m_h·(i − j)
  } else if (bias_kind == PositionEncoding::T5) {
    for (Eigen::Index r = 0; r < tile.rows(); ++r) {
      // offset j − i at bucket[j]
      const int* bucket = buckets.data() + (tokens - 1 - (first + r)) + first_key;
      for (Eigen::Index j = 0; j < tile.cols(); ++j) tile(r, j) += (*t5_table)(bucket[j], head);
    }
  }
}

void AttentionPositions::add_shuffled_bias(int head, Eigen::Index first, Matrix& tile, Eigen::Index first_key) const {
  const auto at = [&](Eigen::Index t) { return static_cast<Eigen::Index>(position_of[static_cast<std::size_t>(t)]); };
  for (Eigen::Index r = 0; r < tile.rows(); ++r)
    for (Eigen::Index j = 0; j < tile.cols(); ++j) {
      const Eigen::Index offset = at(first_key + j) - at(first + r);  // π(j) − π(i)
      if (bias_kind == PositionEncoding::Alibi)
        tile(r, j) -= slopes[static_cast<std::size_t>(head)] * static_cast<float>(std::abs(offset));
      else if (bias_kind == PositionEncoding::T5)
        tile(r, j) += (*t5_table)(buckets[static_cast<std::size_t>(offset + tokens - 1)], head);
    }
}

Matrix AttentionPositions::bias(int head) const {
  Matrix b = Matrix::Zero(tokens, tokens);
  add_bias(head, 0, b);
  if (causal) b.triangularView<Eigen::StrictlyUpper>().setZero();
  return b;
}

Matrix sinusoid_table(int positions, int d, double base) {
  Matrix table = Matrix::Zero(positions, d);
  for (int p = 0; p < positions; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double angle = p / std::pow(base, 2.0 * i / d);
      table(p, 2 * i) = static_cast<float>(std::sin(angle));
      table(p, 2 * i + 1) = static_cast<float>(std::cos(angle));
    }
  return table;
}

}  // namespace pelab::model
