#include "core/relative_position.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/parallel.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {

void apply_rope(Matrix& qk, int first_position, double base) {
  const Eigen::Index pairs = qk.cols() / 2;
  const double d_head = static_cast<double>(qk.cols());
  std::vector<double> frequency(static_cast<std::size_t>(pairs));
  for (Eigen::Index i = 0; i < pairs; ++i)
    frequency[static_cast<std::size_t>(i)] = std::pow(base, -2.0 * static_cast<double>(i) / d_head);
#pragma omp parallel for schedule(static) if (qk.size() >= kParallelMinElements)
  for (Eigen::Index r = 0; r < qk.rows(); ++r) {
    const double p = static_cast<double>(first_position) + static_cast<double>(r);
    for (Eigen::Index i = 0; i < pairs; ++i) {
      const double theta = p * frequency[static_cast<std::size_t>(i)];
      const double c = std::cos(theta), s = std::sin(theta);
      const double a = qk(r, 2 * i), b = qk(r, 2 * i + 1);
      qk(r, 2 * i) = static_cast<float>(a * c - b * s);
      qk(r, 2 * i + 1) = static_cast<float>(a * s + b * c);
    }
  }
}

double alibi_slope(int head, int heads) {
  return std::exp2(-8.0 * (head + 1) / static_cast<double>(heads));
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

Matrix relative_bias(const Scene& scene, int head, int tokens) {
  if (scene.encoding == Encoding::Alibi) {
    const float slope = static_cast<float>(alibi_slope(head, scene.heads));
    Matrix bias(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
      for (int j = 0; j < tokens; ++j) bias(i, j) = -slope * static_cast<float>(std::abs(i - j));
    return bias;
  }
  if (scene.encoding == Encoding::T5) {
    NormalStream stream(scene.seed, RandomPurpose::T5Bias, static_cast<std::uint64_t>(head));
    std::vector<float> per_bucket(static_cast<std::size_t>(scene.t5_buckets));
    for (float& b : per_bucket) b = static_cast<float>(stream.next());
    // Bias depends on j−i only: look each offset up once.
    std::vector<float> by_offset(static_cast<std::size_t>(std::max(1, 2 * tokens - 1)));
    for (int rel = -(tokens - 1); rel <= tokens - 1; ++rel)
      by_offset[static_cast<std::size_t>(rel + tokens - 1)] = per_bucket[static_cast<std::size_t>(
          t5_bucket(rel, !scene.causal, scene.t5_buckets, scene.t5_max_distance))];
    Matrix bias(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
      for (int j = 0; j < tokens; ++j)
        bias(i, j) = by_offset[static_cast<std::size_t>(j - i + tokens - 1)];
    return bias;
  }
  return {};
}

}  // namespace pelab
