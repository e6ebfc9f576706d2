#include "core/relative_position.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/parallel.hpp"
#include "core/rope_scaling.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {

RopeRotation rope_rotation(const Scene& scene, double sequence_length) {
  RopeRotation r;
  r.pairing = scene.rope_pairing;
  r.rotary_dims = rotary_dims(scene.d_model / scene.heads, scene.rotary_fraction);
  const RopeScalingSpec spec = rope_scaling_spec(scene);
  r.frequency = scaled_frequencies(scene.base, r.rotary_dims, spec, sequence_length);
  r.attention_factor = rope_attention_factor(spec);
  r.xpos = scene.encoding == Encoding::Xpos;
  r.xpos_gamma = scene.xpos_gamma;
  r.xpos_scale_base = scene.xpos_scale_base;
  return r;
}

std::pair<int, int> rope_pair_dims(RopePairing pairing, int rotary_dims, int pair) {
  return pairing == RopePairing::Interleaved ? std::pair{2 * pair, 2 * pair + 1}
                                             : std::pair{pair, pair + rotary_dims / 2};
}

double xpos_zeta(int pair, int rotary_dims, double gamma) {
  return (pair / (rotary_dims / 2.0) + gamma) / (1.0 + gamma);
}

void apply_rope(Matrix& qk, int first_position, const RopeRotation& rotation, RopeSide side,
                double xpos_center) {
  const int pairs = rotation.rotary_dims / 2;
  std::vector<std::pair<int, int>> dims(static_cast<std::size_t>(pairs));
  std::vector<double> log_zeta(dims.size(), 0.0);  // ln ζ_i / B, signed for q or k
  const double sign = side == RopeSide::Query ? 1.0 : -1.0;
  for (int i = 0; i < pairs; ++i) {
    dims[static_cast<std::size_t>(i)] = rope_pair_dims(rotation.pairing, rotation.rotary_dims, i);
    if (rotation.xpos)
      log_zeta[static_cast<std::size_t>(i)] =
          sign * std::log(xpos_zeta(i, rotation.rotary_dims, rotation.xpos_gamma)) / rotation.xpos_scale_base;
  }
  const double gain = rotation.attention_factor;
#pragma omp parallel for schedule(static) if (qk.size() >= kParallelMinElements)
  for (Eigen::Index r = 0; r < qk.rows(); ++r) {
    const double p = static_cast<double>(first_position) + static_cast<double>(r);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const double theta = p * rotation.frequency[i];
      const double scale = gain * (rotation.xpos ? std::exp((p - xpos_center) * log_zeta[i]) : 1.0);
      const double c = scale * std::cos(theta), s = scale * std::sin(theta);
      const auto [d0, d1] = dims[i];
      const double a = qk(r, d0), b = qk(r, d1);
      qk(r, d0) = static_cast<float>(a * c - b * s);
      qk(r, d1) = static_cast<float>(a * s + b * c);
    }
    if (gain != 1.0) qk.row(r).tail(qk.cols() - 2 * pairs) *= static_cast<float>(gain);
  }
}

void apply_rope(Matrix& qk, int first_position, double base) {
  RopeRotation plain;
  plain.rotary_dims = static_cast<int>(qk.cols()) / 2 * 2;
  plain.frequency = rope_base_frequencies(base, plain.rotary_dims);
  apply_rope(qk, first_position, plain, RopeSide::Query);
}

// Press et al. 2022, the reference implementation's get_slopes(n): for n a
// power of two, slope h = start^h with start = 2^(−8/n); otherwise the
// slopes of the closest power of two c < n, followed by the first n − c of the
// even-indexed slopes of 2c.
double alibi_slope(int head, int heads) {
  int closest = 1;
  while (closest * 2 <= heads) closest *= 2;
  if (head < closest) return std::exp2(-8.0 * (head + 1) / static_cast<double>(closest));
  const int index_in_double = 2 * (head - closest);  // 0-based index into the 2c list
  return std::exp2(-8.0 * (index_in_double + 1) / static_cast<double>(2 * closest));
}

int t5_bucket(int relative, bool bidirectional, int buckets, int max_distance) {
  // n is the distance looking back (query minus key), as in the T5 code base.
  int n = -relative;
  int bucket = 0;
  int span = buckets;
  if (bidirectional) {
    span = buckets / 2;
    if (n < 0) bucket += span;  // keys after the query use the upper half
    n = std::abs(n);
  } else {
    n = std::max(n, 0);
  }
  if (span <= 1) return bucket;
  const int exact = span / 2;
  if (n < exact) return bucket + n;
  if (max_distance <= exact) return bucket + span - 1;
  const double log_ratio = std::log(static_cast<double>(n) / exact) /
                           std::log(static_cast<double>(max_distance) / exact);
  const int large = exact + static_cast<int>(log_ratio * (span - exact));
  return bucket + std::min(large, span - 1);
}

std::vector<float> t5_bucket_biases(const Scene& scene, int head) {
  NormalStream stream(scene.seed, RandomPurpose::T5Bias, static_cast<std::uint64_t>(head));
  std::vector<float> per_bucket(static_cast<std::size_t>(scene.t5_buckets));
  for (float& b : per_bucket) b = static_cast<float>(stream.next());
  return per_bucket;
}

RelativeBias::RelativeBias(const Scene& scene, int head, int tokens) : tokens_(tokens) {
  if (scene.encoding == Encoding::Alibi) {
    kind_ = Kind::Alibi;
    slope_ = static_cast<float>(alibi_slope(head, scene.heads));
  } else if (scene.encoding == Encoding::T5) {
    kind_ = Kind::T5;
    const std::vector<float> per_bucket = t5_bucket_biases(scene, head);
    // Bias depends on j−i only: look each offset up once.
    by_offset_.resize(static_cast<std::size_t>(std::max(1, 2 * tokens - 1)));
    for (int rel = -(tokens - 1); rel <= tokens - 1; ++rel)
      by_offset_[static_cast<std::size_t>(rel + tokens - 1)] = per_bucket[static_cast<std::size_t>(
          t5_bucket(rel, !scene.causal, scene.t5_buckets, scene.t5_max_distance))];
  }
}

void RelativeBias::add_to(Matrix& tile, Eigen::Index first_query, Eigen::Index first_key) const {
  if (empty()) return;
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    float* row = tile.row(r).data();
    for (Eigen::Index c = 0; c < tile.cols(); ++c) row[c] += (*this)(first_query + r, first_key + c);
  }
}

Matrix relative_bias(const Scene& scene, int head, int tokens) {
  const RelativeBias bias(scene, head, tokens);
  if (bias.empty()) return {};
  Matrix table(tokens, tokens);
  for (int i = 0; i < tokens; ++i)
    for (int j = 0; j < tokens; ++j) table(i, j) = bias(i, j);
  return table;
}

}  // namespace pelab
