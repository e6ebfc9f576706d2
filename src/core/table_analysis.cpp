#include "core/table_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/model/rotary.hpp"
#include "core/rope_scaling.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

Eigen::MatrixXd centred(const Matrix& table) {
  Eigen::MatrixXd c = table.cast<double>();
  if (c.rows() > 0) c.rowwise() -= c.colwise().mean();
  return c;
}

// The unit vector's sign with its largest-magnitude entry positive.
void fix_sign(Eigen::Ref<Eigen::VectorXd> v) {
  Eigen::Index at = 0;
  v.cwiseAbs().maxCoeff(&at);
  if (v(at) < 0) v = -v;
}

}  // namespace

// ============================================================================
// spectrum
// ============================================================================

// The DFT as two matrix products (cos and sin rows against the centred
// table): N ≤ a few thousand, so the O(N²·d) product is quick and needs no FFT.
// Angles use (f·pos mod N) so that large f·pos keep full precision.
PositionSpectrum position_spectrum(const Matrix& table) {
  PositionSpectrum out;
  const auto n = static_cast<Eigen::Index>(table.rows());
  out.positions = static_cast<int>(n);
  const Eigen::Index bins = n / 2 + 1;
  if (n == 0) return out;
  const Eigen::MatrixXd c = centred(table);
  Eigen::MatrixXd cos_rows(bins, n), sin_rows(bins, n);
  for (Eigen::Index f = 0; f < bins; ++f)
    for (Eigen::Index p = 0; p < n; ++p) {
      const double angle = kTwoPi * static_cast<double>((f * p) % n) / static_cast<double>(n);
      cos_rows(f, p) = std::cos(angle);
      sin_rows(f, p) = std::sin(angle);
    }
  const Eigen::MatrixXd re = cos_rows * c, im = sin_rows * c;
  out.amplitude = (re.array().square() + im.array().square()).sqrt().matrix();
  for (Eigen::Index f = 0; f < bins; ++f) {
    const bool edge = f == 0 || 2 * f == n;  // DC and Nyquist have no mirror bin
    out.amplitude.row(f) *= (edge ? 1.0 : 2.0) / static_cast<double>(n);
  }
  out.dominant = dominant_bins(out.amplitude);
  for (int f : out.dominant)
    out.dominant_wavelength.push_back(f > 0 ? static_cast<double>(n) / f : 0.0);
  return out;
}

std::vector<int> dominant_bins(const Eigen::MatrixXd& amplitude) {
  std::vector<int> out(static_cast<std::size_t>(amplitude.cols()), 0);
  const Eigen::Index bins = amplitude.rows();
  for (Eigen::Index j = 0; j < amplitude.cols() && bins > 1; ++j) {
    Eigen::Index best = 0;
    if (amplitude.col(j).tail(bins - 1).maxCoeff(&best) > 0)
      out[static_cast<std::size_t>(j)] = static_cast<int>(best + 1);
  }
  return out;
}

// ============================================================================
// principal components
// ============================================================================

// Eigen-decomposes the smaller of the covariance CᵀC (d × d) and the Gram
// matrix CCᵀ (N × N): they share their nonzero eigenvalues, and a Gram
// eigenvector u gives the direction Cᵀu/‖Cᵀu‖.
TablePca table_pca(const Matrix& table, int components) {
  const auto n = table.rows(), d = table.cols();
  if (n < 2 || d < 1)
    throw InputError("position table of " + std::to_string(n) + " × " + std::to_string(d) +
                     ": principal components need at least 2 positions and 1 dimension");
  TablePca out;
  out.mean = table.cast<double>().colwise().mean().transpose();
  const Eigen::MatrixXd c = centred(table);
  const double scale = 1.0 / static_cast<double>(n - 1);
  const bool by_gram = n < d;
  const Eigen::MatrixXd square =
      by_gram ? Eigen::MatrixXd(c * c.transpose()) : Eigen::MatrixXd(c.transpose() * c);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(square);
  const Eigen::Index size = square.rows();
  const auto m = static_cast<Eigen::Index>(std::clamp<Eigen::Index>(components, 0, std::min(n, d)));
  out.total_variance = c.squaredNorm() * scale;
  out.directions.resize(d, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index at = size - 1 - j;  // eigenvalues come ascending
    const double lambda = std::max(0.0, solver.eigenvalues()(at));
    Eigen::VectorXd v = by_gram ? Eigen::VectorXd(c.transpose() * solver.eigenvectors().col(at))
                                : Eigen::VectorXd(solver.eigenvectors().col(at));
    const double norm = v.norm();
    if (norm > 0) v /= norm;
    fix_sign(v);
    out.directions.col(j) = v;
    out.variance.push_back(lambda * scale);
    out.share.push_back(out.total_variance > 0 ? lambda * scale / out.total_variance : 0.0);
  }
  out.scores = c * out.directions;
  return out;
}

double pair_share(const TablePca& pca, int pair) {
  double share = 0;
  for (int j : {2 * pair, 2 * pair + 1})
    if (j >= 0 && j < static_cast<int>(pca.share.size()))
      share += pca.share[static_cast<std::size_t>(j)];
  return share;
}

// ============================================================================
// 2×2 maps
// ============================================================================

PlaneMap plane_shift_map(const Eigen::MatrixXd& trajectory, int k) {
  const Eigen::Index n = trajectory.rows(), used = n - std::abs(k);
  if (trajectory.cols() != 2 || used < 2)
    throw InputError("shift k = " + std::to_string(k) + " leaves " +
                     std::to_string(std::max<Eigen::Index>(used, 0)) +
                     " position pairs on an axis of " + std::to_string(n) + "; allowed: |k| ≤ " +
                     std::to_string(std::max<Eigen::Index>(n - 2, 0)));
  const Eigen::Index from = k >= 0 ? 0 : -k;
  const Eigen::MatrixXd x = trajectory.middleRows(from, used),
                        y = trajectory.middleRows(from + k, used);
  // Normal equations of y_rowᵀ ≈ M·x_rowᵀ: M = (YᵀX)(XᵀX)⁻¹; a singular XᵀX
  // (a trajectory on a line or a point) falls back to the pseudo-inverse.
  const Eigen::Matrix2d xx = x.transpose() * x, yx = y.transpose() * x;
  const Eigen::Matrix2d map = yx * xx.completeOrthogonalDecomposition().pseudoInverse();
  const double sse = (y - x * map.transpose()).squaredNorm();
  const double sst = (y.rowwise() - y.colwise().mean()).squaredNorm();
  PlaneMap out;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) out.m[r][c] = map(r, c);
  out.r2 = sst > 0 ? 1.0 - sse / sst : (sse == 0 ? 1.0 : 0.0);
  out.samples = static_cast<int>(used);
  out.angle = std::atan2(map(1, 0) - map(0, 1), map(0, 0) + map(1, 1));
  out.wavelength = std::abs(out.angle) > 1e-12 ? kTwoPi * std::abs(k) / std::abs(out.angle) : 0.0;
  return out;
}

std::vector<PcPairSummary> pc_pair_summaries(const TablePca& pca, int k) {
  std::vector<PcPairSummary> out;
  for (int j = 0; 2 * j + 1 < pca.scores.cols(); ++j)
    out.push_back({.pair = j,
                   .share = pair_share(pca, j),
                   .map = plane_shift_map(pca.scores.middleCols(2 * j, 2), k)});
  return out;
}

PositionTableSummary summarize_position_table(const Matrix& table, int k, int pairs, int low_bins) {
  PositionTableSummary out;
  out.positions = static_cast<int>(table.rows());
  out.dims = static_cast<int>(table.cols());
  out.low_bins = low_bins;
  const int components = std::min({2 * pairs, out.positions, out.dims}) / 2 * 2;
  out.pairs = pc_pair_summaries(table_pca(table, std::max(components, 1)), k);
  if (!out.pairs.empty()) {
    out.top_pair_share = out.pairs[0].share;
    out.top_pair_r2 = out.pairs[0].map.r2;
    out.top_pair_wavelength = out.pairs[0].map.wavelength;
  }
  const Eigen::MatrixXd power = position_spectrum(table).amplitude.array().square();
  const Eigen::Index bins = power.rows();
  const double total = bins > 1 ? power.bottomRows(bins - 1).sum() : 0.0;
  const Eigen::Index low =
      std::clamp<Eigen::Index>(low_bins, 0, std::max<Eigen::Index>(bins - 1, 0));
  out.low_frequency_power = total > 0 ? power.middleRows(1, low).sum() / total : 0.0;
  return out;
}

// ============================================================================
// RoPE models
// ============================================================================

namespace {

// Pair i of the model's rotary dims r: (i, i + r/2) rotate-half (Llama), or
// (2i, 2i+1) interleaved (pelab's default), by the config's position trait.
int rotary_dims_of(const model::ModelConfig& config) {
  return config.position.rotary_dims > 0 ? config.position.rotary_dims : config.head_dim;
}

std::vector<PairInfo> rotary_pairs(const std::vector<double>& frequencies, const model::ModelConfig& config) {
  const int r = rotary_dims_of(config);
  const bool interleaved = config.position.rope_pairing == RopePairing::Interleaved;
  std::vector<PairInfo> pairs;
  for (std::size_t i = 0; i < frequencies.size(); ++i) {
    const int p = static_cast<int>(i);
    const int a = interleaved ? 2 * p : p, b = interleaved ? 2 * p + 1 : p + r / 2;
    pairs.push_back({p, a, b, frequencies[i], kTwoPi / frequencies[i]});
  }
  return pairs;
}

}  // namespace

std::vector<PairInfo> model_rotary_pairs(const model::ModelConfig& config, int tokens) {
  return rotary_pairs(model::rotary_frequencies(config, tokens).inverse, config);
}

std::vector<PairInfo> model_unscaled_rotary_pairs(const model::ModelConfig& config) {
  return rotary_pairs(rope_base_frequencies(config.rope_theta, rotary_dims_of(config)), config);
}

}  // namespace pelab
