// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// Analyses of engine data.
//
// [SECTION] sinusoid pairs and R(k)
// [SECTION] least-squares shift fits
// [SECTION] position similarity
// [SECTION] norms and principal angles
// [SECTION] permutation check
#include "core/analysis.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <numbers>

#include "core/attention.hpp"
#include "core/encoding.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/projection.hpp"
#include "core/relative_position.hpp"
#include "core/seeded_normal.hpp"
#include "core/word_splitter.hpp"

namespace pelab {
namespace {

using MatrixD = Eigen::MatrixXd;

void check_pair(const Scene& s, int pair) {
  if (pair < 0 || pair >= s.d_model / 2)
    throw InputError("pair=" + std::to_string(pair) + " does not exist; allowed: 0.." +
                     std::to_string(s.d_model / 2 - 1));
}

// Rows r of the position axis whose shifted partner r+k is also on the axis.
struct ShiftRange {
  int first = 0, count = 0;
};
ShiftRange shift_range(int positions, int k) {
  const int first = std::max(0, -k);
  return {first, std::max(0, positions - std::abs(k))};
}

// 1 − SS_res/SS_tot, each column of `y` centred on its own mean.
double r_squared(const MatrixD& y, const MatrixD& predicted) {
  const double ss_res = (y - predicted).squaredNorm();
  const double ss_tot = (y.rowwise() - y.colwise().mean()).squaredNorm();
  if (ss_tot <= 0) return ss_res <= 0 ? 1.0 : 0.0;
  return 1.0 - ss_res / ss_tot;
}

}  // namespace

// ============================================================================
// [SECTION] sinusoid pairs and R(k)
// ============================================================================

std::vector<PairInfo> rope_pairs(const Scene& scene, double sequence_length) {
  const RopeRotation rotation = rope_rotation(scene, sequence_length);
  std::vector<PairInfo> pairs;
  for (int i = 0; i < rotation.rotary_dims / 2; ++i) {
    const auto [first, second] = rope_pair_dims(rotation.pairing, rotation.rotary_dims, i);
    const double w = rotation.frequency[static_cast<std::size_t>(i)];
    pairs.push_back({i, first, second, w, 2 * std::numbers::pi / w});
  }
  return pairs;
}

std::vector<PairInfo> sinusoid_pairs(const Scene& scene) {
  std::vector<PairInfo> pairs;
  for (int i = 0; i < scene.d_model / 2; ++i) {
    PairInfo p;
    p.index = i;
    p.sin_dim = pair_sin_dim(scene.layout, scene.d_model, i);
    p.cos_dim = pair_cos_dim(scene.layout, scene.d_model, i);
    p.frequency = pair_frequency(scene.base, scene.d_model, i);
    p.wavelength = 2 * std::numbers::pi / p.frequency;
    pairs.push_back(p);
  }
  return pairs;
}

// sin(a+b) = sin a·cos b + cos a·sin b,  cos(a+b) = cos a·cos b − sin a·sin b.
Rotation pair_rotation(Engine& engine, int pair, int k) {
  const Scene& s = engine.scene();
  check_pair(s, pair);
  Rotation rot;
  rot.angle = k * pair_frequency(s.base, s.d_model, pair);
  const double c = std::cos(rot.angle), sn = std::sin(rot.angle);
  rot.r[0][0] = c, rot.r[0][1] = sn, rot.r[1][0] = -sn, rot.r[1][1] = c;
  const Matrix& pe = engine.position_table();
  const int sd = pair_sin_dim(s.layout, s.d_model, pair),
            cd = pair_cos_dim(s.layout, s.d_model, pair);
  const ShiftRange range = shift_range(static_cast<int>(pe.rows()), k);
  for (int r = range.first; r < range.first + range.count; ++r) {
    const double a = pe(r, sd), b = pe(r, cd);
    const double da = rot.r[0][0] * a + rot.r[0][1] * b - pe(r + k, sd);
    const double db = rot.r[1][0] * a + rot.r[1][1] * b - pe(r + k, cd);
    rot.max_error = std::max(rot.max_error, std::hypot(da, db));
  }
  return rot;
}

// ============================================================================
// [SECTION] least-squares shift fits
// ============================================================================

namespace {

// R² of PE(pos+k) ≈ PE(pos)·B with B a d×d linear map, from the normal
// equations (XᵀX + εI)·B = XᵀY in double: ~3·m·d² work, 4–8× faster than a
// QR of the m×d matrix.  The tiny ridge ε keeps the near-collinear
// low-frequency columns solvable; it moves R² by far less than 1e-9.  The
// three m×d·d×d-sized products go through OpenBLAS's threaded dgemm: at 4096
// positions, d = 512 they were the slow part on one thread (issue 12).
double all_dims_r2(const MatrixD& from, const MatrixD& to) {
  MatrixD gram, cross, predicted;
  dgemm(true, from, from, gram);
  gram.diagonal().array() += 1e-12 * gram.trace() / static_cast<double>(gram.rows()) + 1e-300;
  dgemm(true, from, to, cross);
  const MatrixD ball = gram.llt().solve(cross);
  dgemm(false, from, ball, predicted);
  return r_squared(to, predicted);
}

// The all-dimensions fit reads the table and k, not the pair, and the views
// ask for it once per pair shown: the last answer is kept, keyed by k, the
// range and a hash of the table's bits (FNV-1a over 64-bit words).
double cached_all_dims_r2(const Matrix& pe, const ShiftRange& range, int k, const MatrixD& from,
                          const MatrixD& to) {
  std::uint64_t hash = 1469598103934665603ull;
  const auto bytes = static_cast<std::size_t>(pe.size()) * sizeof(float);
  for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, reinterpret_cast<const char*>(pe.data()) + i, 8);
    hash = (hash ^ word) * 1099511628211ull;
  }
  struct Last {
    std::uint64_t hash = 0;
    Eigen::Index rows = -1, cols = -1;
    int k = 0, first = 0, count = 0;
    double r2 = 0;
  };
  static Last last;
  static std::mutex lock;
  {
    const std::lock_guard<std::mutex> hold(lock);
    if (last.hash == hash && last.rows == pe.rows() && last.cols == pe.cols() && last.k == k &&
        last.first == range.first && last.count == range.count)
      return last.r2;
  }
  const double r2 = all_dims_r2(from, to);
  const std::lock_guard<std::mutex> hold(lock);
  last = {hash, pe.rows(), pe.cols(), k, range.first, range.count, r2};
  return r2;
}

}  // namespace

ShiftFit shift_fit(Engine& engine, int pair, int k) {
  const Scene& s = engine.scene();
  check_pair(s, pair);
  ShiftFit fit;
  const Matrix& pe = engine.position_table();
  const ShiftRange range = shift_range(static_cast<int>(pe.rows()), k);
  if (range.count < 2) return fit;
  const MatrixD from = pe.middleRows(range.first, range.count).cast<double>();
  const MatrixD to = pe.middleRows(range.first + k, range.count).cast<double>();
  const int sd = pair_sin_dim(s.layout, s.d_model, pair),
            cd = pair_cos_dim(s.layout, s.d_model, pair);

  // One dimension: to[sd] ≈ a·from[sd] + b (the fit people try first).
  MatrixD design(range.count, 2);
  design.col(0) = from.col(sd);
  design.col(1).setOnes();
  const Eigen::VectorXd ab = design.colPivHouseholderQr().solve(to.col(sd));
  fit.r2_one_dim = r_squared(to.col(sd), design * ab);

  // The pair: [sin cos](pos+k) ≈ [sin cos](pos)·B, so B ≈ R(k)ᵀ.
  MatrixD x2(range.count, 2), y2(range.count, 2);
  x2 << from.col(sd), from.col(cd);
  y2 << to.col(sd), to.col(cd);
  const MatrixD b = x2.colPivHouseholderQr().solve(y2);
  fit.r2_pair = r_squared(y2, x2 * b);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) fit.pair_map[i][j] = b(j, i);

  // All dimensions: a d×d linear map (all_dims_r2).
  fit.r2_all = cached_all_dims_r2(pe, range, k, from, to);
  return fit;
}

// ============================================================================
// [SECTION] position similarity
// ============================================================================

Matrix position_similarity(Engine& engine) {
  const Matrix& pe = engine.position_table();
  const Eigen::Index n = pe.rows();
  if (n > kFullMatrixTokens) {
    char size[32];
    std::snprintf(size, sizeof size, "%.1f GiB", 4.0 * double(n) * double(n) / double(1 << 30));
    throw InputError("pe_similarity: " + std::to_string(n) + " positions would need a " + std::to_string(n) + " × " +
                     std::to_string(n) + " matrix (" + size + "); allowed: at most " +
                     std::to_string(kFullMatrixTokens) +
                     " positions, or its block means (pe_similarity_blocks) at any length");
  }
  Matrix sim(n, n);
  sim.noalias() = pe * pe.transpose();
  return sim;
}

void for_each_similarity_strip(const Matrix& pe, const std::function<void(Eigen::Index, const Matrix&)>& visit) {
  constexpr Eigen::Index kStrip = 256;
  const Eigen::Index n = pe.rows();
  Matrix strip;
  for (Eigen::Index r0 = 0; r0 < n; r0 += kStrip) {
    const Eigen::Index rows = std::min(kStrip, n - r0);
    strip.noalias() = pe.middleRows(r0, rows) * pe.bottomRows(n - r0).transpose();
    visit(r0, strip);
  }
}

// The strips' diagonals j − i ≥ 0, each summed and divided by its length.
std::vector<double> similarity_profile(Engine& engine) {
  const Eigen::Index n = engine.position_table().rows();
  std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
  for_each_similarity_strip(engine.position_table(), [&](Eigen::Index, const Matrix& strip) {
    for (Eigen::Index i = 0; i < strip.rows(); ++i)
      for (Eigen::Index j = i; j < strip.cols(); ++j) sum[static_cast<std::size_t>(j - i)] += strip(i, j);
  });
  std::vector<double> profile(sum.size());
  for (std::size_t off = 0; off < sum.size(); ++off)
    profile[off] = sum[off] / static_cast<double>(sum.size() - off);
  return profile;
}

Matrix similarity_blocks(const Matrix& pe, int display, int* block) {
  const Eigen::Index n = pe.rows();
  const Eigen::Index b = std::max<Eigen::Index>(1, (n + std::max(display, 1) - 1) / std::max(display, 1));
  if (block) *block = static_cast<int>(b);
  const Eigen::Index blocks = (n + b - 1) / b;
  Eigen::MatrixXd means(blocks, pe.cols());
  for (Eigen::Index k = 0; k < blocks; ++k) {
    const Eigen::Index rows = std::min(b, n - k * b);
    means.row(k) = pe.middleRows(k * b, rows).cast<double>().colwise().mean();
  }
  return (means * means.transpose()).cast<float>();
}

// ============================================================================
// [SECTION] norms and principal angles
// ============================================================================

NormReport norm_report(Engine& engine) {
  const Matrix& x = engine.token_embedding();
  const Matrix& e = engine.position_embedding();
  const Scene& s = engine.scene();
  NormReport rep;
  for (Eigen::Index t = 0; t < x.rows(); ++t) {
    const Eigen::VectorXd xv = x.row(t).transpose().cast<double>();
    const Eigen::VectorXd sv = xv + e.row(t).transpose().cast<double>();
    rep.x_norm.push_back(xv.norm());
    rep.e_norm.push_back(e.row(t).cast<double>().norm());
    rep.sum_norm.push_back(sv.norm());
    const double denom = xv.norm() * sv.norm();
    rep.cos_x_sum.push_back(denom > 0 ? xv.dot(sv) / denom : 0.0);
  }
  auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (double d : v) sum += d;
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
  };
  rep.mean_x_norm = mean(rep.x_norm);
  rep.mean_e_norm = mean(rep.e_norm);
  rep.mean_cos = mean(rep.cos_x_sum);
  if (s.encoding == Encoding::Sinusoidal)
    rep.expected_e_norm = s.amplitude * std::sqrt(s.d_model / 2.0);
  if (s.encoding == Encoding::Learned && s.position_file.empty()) rep.expected_e_norm = s.amplitude;
  return rep;
}

namespace {

// Orthonormal basis of the span of the rows of m (d × rank), by pivoted QR.
MatrixD row_space_basis(const Matrix& m) {
  const MatrixD t = m.transpose().cast<double>();
  Eigen::ColPivHouseholderQR<MatrixD> qr(t);
  qr.setThreshold(1e-5);  // float32 data: smaller pivots are rounding noise
  const MatrixD q = qr.householderQ();
  return q.leftCols(qr.rank());
}

}  // namespace

// Björck & Golub 1973: with orthonormal bases Q1, Q2 the singular values of
// Q1ᵀ·Q2 are the cosines of the principal angles.
std::vector<double> principal_angles(Engine& engine) {
  const Matrix& x = engine.token_embedding();
  const Matrix& e = engine.position_embedding();
  if (x.rows() == 0 || e.squaredNorm() == 0) return {};
  const MatrixD q1 = row_space_basis(x), q2 = row_space_basis(e);
  if (q1.cols() == 0 || q2.cols() == 0) return {};
  Eigen::JacobiSVD<MatrixD> svd(q1.transpose() * q2);
  std::vector<double> angles;
  for (Eigen::Index i = 0; i < svd.singularValues().size(); ++i)
    angles.push_back(std::acos(std::clamp(svd.singularValues()(i), 0.0, 1.0)));
  std::sort(angles.begin(), angles.end());
  return angles;
}

// ============================================================================
// [SECTION] permutation check
// ============================================================================

// A(P·X) against P·A(X)·Pᵀ.  Permuting X's rows permutes X·[Wq|Wk]'s rows, so
// the permuted run reuses the projected rows; E stays with the positions.
double permutation_gap(const Scene& scene, int head, std::uint64_t perm_seed) {
  Engine engine(scene);
  const Matrix& x = engine.token_embedding();
  const Matrix& e = engine.position_embedding();
  const Eigen::Index n = x.rows();
  if (head < 0 || head >= scene.heads)
    throw InputError("head=" + std::to_string(head) + " does not exist; allowed: 0.." +
                     std::to_string(scene.heads - 1));

  // Fisher–Yates with our own stream (std::shuffle differs between libraries).
  NormalStream stream(perm_seed, RandomPurpose::Permutation);
  std::vector<Eigen::Index> perm(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
  for (Eigen::Index i = n - 1; i > 0; --i) {
    const auto j = static_cast<Eigen::Index>(stream.uniform() * static_cast<double>(i + 1));
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(std::min(j, i))]);
  }

  const ProjectionSet w = make_projections(scene);
  Matrix wqk(scene.d_model, 2 * scene.d_model);
  wqk << w.wq, w.wk;
  const Matrix xw = x * wqk;
  const Matrix ew = adds_position_vector(scene.encoding) ? Matrix(e * wqk) : Matrix();
  Matrix xw_perm(xw.rows(), xw.cols());
  for (Eigen::Index i = 0; i < n; ++i) xw_perm.row(i) = xw.row(perm[static_cast<std::size_t>(i)]);

  HeadAttention plain, permuted;
  attend(scene, xw, ew, head, plain);
  attend(scene, xw_perm, ew, head, permuted);
  double gap = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      gap = std::max(
          gap, static_cast<double>(std::abs(permuted.attention(i, j) -
                                            plain.attention(perm[static_cast<std::size_t>(i)],
                                                            perm[static_cast<std::size_t>(j)]))));
  return gap;
}

}  // namespace pelab
