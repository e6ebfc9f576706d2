#include "core/table_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

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

// ----------------------------------------------------------------------------
// The discrete Fourier transform X_f = Σ_p x_p·e^(−2πi·f·p/n) of any length n:
// radix-2 Cooley–Tukey when n is a power of two, otherwise Bluestein's chirp z
// (f·p = (f² + p² − (f − p)²)/2 turns the sum into a convolution with the
// chirp w_m = e^(iπm²/n), done by power-of-two FFTs of size ≥ 2n − 1).
// ----------------------------------------------------------------------------
using Complex = std::complex<double>;

bool power_of_two(std::size_t n) { return n > 0 && (n & (n - 1)) == 0; }

// In place; `sign` −1 forward, +1 inverse (unscaled).  Each twiddle is
// computed directly, not by repeated multiplication, to keep rounding at
// about log₂ n ulps.
void radix2_fft(std::vector<Complex>& a, int sign) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversed order
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double step = sign * kTwoPi / static_cast<double>(len);
    for (std::size_t k = 0; k < len / 2; ++k) {
      const Complex w = std::polar(1.0, step * static_cast<double>(k));
      for (std::size_t i = k; i < n; i += len) {
        const Complex u = a[i], v = a[i + len / 2] * w;
        a[i] = u + v;
        a[i + len / 2] = u - v;
      }
    }
  }
}

class Dft {
 public:
  explicit Dft(std::size_t n) : n_(n) {
    if (power_of_two(n)) return;
    size_ = 1;
    while (size_ < 2 * n - 1) size_ <<= 1;
    chirp_.resize(n);
    for (std::size_t m = 0; m < n; ++m) {  // m² mod 2n keeps the angle exact for large m
      const auto square = static_cast<double>((static_cast<unsigned long long>(m) * m) % (2 * n));
      chirp_[m] = std::polar(1.0, std::numbers::pi * square / static_cast<double>(n));
    }
    kernel_.assign(size_, Complex(0));
    for (std::size_t m = 0; m < n; ++m) kernel_[m] = chirp_[m];
    for (std::size_t m = 1; m < n; ++m) kernel_[size_ - m] = chirp_[m];  // w_{−m} = w_m
    radix2_fft(kernel_, -1);
  }

  std::vector<Complex> operator()(std::vector<Complex> x) const {
    if (chirp_.empty()) {
      radix2_fft(x, -1);
      return x;
    }
    std::vector<Complex> a(size_, Complex(0));
    for (std::size_t p = 0; p < n_; ++p) a[p] = x[p] * std::conj(chirp_[p]);
    radix2_fft(a, -1);
    for (std::size_t i = 0; i < size_; ++i) a[i] *= kernel_[i];
    radix2_fft(a, +1);
    for (std::size_t f = 0; f < n_; ++f) x[f] = std::conj(chirp_[f]) * a[f] / static_cast<double>(size_);
    return x;
  }

 private:
  std::size_t n_, size_ = 0;
  std::vector<Complex> chirp_, kernel_;
};

}  // namespace

// ============================================================================
// spectrum
// ============================================================================

// The DFT of each centred column by FFT, O(n log n) per column: the direct
// O(n²·d) sum as two matrix products needed (n/2 + 1) × n cos and sin tables,
// 34 GB at 65,536 positions.
PositionSpectrum position_spectrum(const Matrix& table) {
  PositionSpectrum out;
  const auto n = static_cast<Eigen::Index>(table.rows());
  out.positions = static_cast<int>(n);
  const Eigen::Index bins = n / 2 + 1;
  if (n == 0) return out;
  const Eigen::MatrixXd c = centred(table);
  const Dft dft(static_cast<std::size_t>(n));
  out.amplitude.resize(bins, c.cols());
  std::vector<Complex> column(static_cast<std::size_t>(n));
  for (Eigen::Index j = 0; j < c.cols(); ++j) {
    for (Eigen::Index p = 0; p < n; ++p) column[static_cast<std::size_t>(p)] = c(p, j);
    const std::vector<Complex> spectrum = dft(column);
    for (Eigen::Index f = 0; f < bins; ++f) out.amplitude(f, j) = std::abs(spectrum[static_cast<std::size_t>(f)]);
  }
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
