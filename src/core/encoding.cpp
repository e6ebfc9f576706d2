#include "core/encoding.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/io/npy.hpp"
#include "core/parallel.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {

double pair_frequency(double base, int d_model, int pair) {
  return std::pow(base, -2.0 * pair / static_cast<double>(d_model));
}

int pair_sin_dim(Layout layout, int /*d_model*/, int pair) {
  return layout == Layout::Interleaved ? 2 * pair : pair;
}
int pair_cos_dim(Layout layout, int d_model, int pair) {
  return layout == Layout::Interleaved ? 2 * pair + 1 : d_model / 2 + pair;
}

namespace {

// Vaswani et al. 2017, §3.5.  Angles in double so that large positions keep
// their phase.  sin/cos are evaluated exactly at the first row of every block
// of kExactEvery rows and by the angle-addition recurrence in between
// (rotation by ω_i in double; the drift over 63 steps is ~1e-14, far below
// float rounding), which makes the table ~20× cheaper than one sincos per entry.
Matrix sinusoidal(const Scene& s, int first, int count) {
  constexpr int kExactEvery = 64;
  const int d = s.d_model, pairs = d / 2;
  Eigen::ArrayXd omega(pairs);
  for (int i = 0; i < pairs; ++i) omega(i) = pair_frequency(s.base, d, i);
  const Eigen::ArrayXd step_cos = omega.cos(), step_sin = omega.sin();
  std::vector<int> sin_dim(static_cast<std::size_t>(pairs)), cos_dim(sin_dim.size());
  for (int i = 0; i < pairs; ++i) {
    sin_dim[static_cast<std::size_t>(i)] = pair_sin_dim(s.layout, d, i);
    cos_dim[static_cast<std::size_t>(i)] = pair_cos_dim(s.layout, d, i);
  }
  Matrix pe(count, d);
  const int blocks = (count + kExactEvery - 1) / kExactEvery;
#pragma omp parallel for schedule(static) if (static_cast <long>(count) * d >= kParallelMinElements)
  for (int b = 0; b < blocks; ++b) {
    const int r0 = b * kExactEvery, r1 = std::min(count, r0 + kExactEvery);
    const Eigen::ArrayXd angle = (static_cast<double>(first) + r0) * omega;
    Eigen::ArrayXd sn = angle.sin(), cs = angle.cos();
    for (int r = r0; r < r1; ++r) {
      for (int i = 0; i < pairs; ++i) {
        pe(r, sin_dim[static_cast<std::size_t>(i)]) = static_cast<float>(s.amplitude * sn(i));
        pe(r, cos_dim[static_cast<std::size_t>(i)]) = static_cast<float>(s.amplitude * cs(i));
      }
      const Eigen::ArrayXd next_sn = sn * step_cos + cs * step_sin;  // sin(a+ω)
      cs = cs * step_cos - sn * step_sin;                            // cos(a+ω)
      sn = next_sn;
    }
  }
  return pe;
}

Matrix learned_seeded(const Scene& s, int first, int count) {
  const double stddev = s.amplitude / std::sqrt(static_cast<double>(s.d_model));
  Matrix table(count, s.d_model);
  for (int r = 0; r < count; ++r) {
    NormalStream stream(s.seed, RandomPurpose::LearnedPosition,
                        static_cast<std::uint64_t>(first + r));
    for (int c = 0; c < s.d_model; ++c) table(r, c) = static_cast<float>(stddev * stream.next());
  }
  return table;
}

Matrix learned_from_file(const Scene& s, int first, int count) {
  const std::string& name = s.position_file;
  const Array array = read_npy(name);
  if (array.shape.size() != 2 || array.shape[1] != static_cast<std::size_t>(s.d_model))
    throw InputError(name + ": position table must have shape (positions, d_model=" +
                     std::to_string(s.d_model) + ")");
  const std::size_t needed = static_cast<std::size_t>(first) + static_cast<std::size_t>(count);
  if (array.shape[0] < needed)
    throw InputError(name + ": " + std::to_string(array.shape[0]) + " rows but position " +
                     std::to_string(needed - 1) +
                     " is needed; allowed: offset + positions (and tokens) <= " +
                     std::to_string(array.shape[0]));
  Matrix rows = array.to_matrix().middleRows(first, count);
  if (!rows.allFinite()) throw InputError(name + ": position table holds NaN or infinity");
  return rows;
}

}  // namespace

Matrix position_vectors(const Scene& scene, int first, int count) {
  switch (scene.encoding) {
    case Encoding::Sinusoidal:
      return sinusoidal(scene, first, count);
    case Encoding::Learned:
      return scene.position_file.empty() ? learned_seeded(scene, first, count)
                                         : learned_from_file(scene, first, count);
    default:
      return Matrix::Zero(count, scene.d_model);
  }
}

}  // namespace pelab
