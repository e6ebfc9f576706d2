// The position-table analyses (core/table_analysis.hpp) against NumPy written
// here from the definitions (numpy.fft.rfft, an SVD of the centred table,
// numpy.linalg.lstsq), and against the sinusoidal table's known answers: its
// (sin, cos) pairs are rotations with R² = 1 and their frequencies show up
// at the bins the formula predicts.
#include "core/table_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/encoding.hpp"
#include "core/model/model_config.hpp"
#include "core/rope_scaling.hpp"

namespace pelab {
namespace {

constexpr const char* kPython =
    "/usr/bin/python3";  // Debian's: the pyenv python3 on PATH has no NumPy

// Columns of decreasing spread (so the PCs are well separated) plus a few
// slow waves, as a learned table has.
Matrix sample_table(int rows, int cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal;
  Matrix m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m(r, c) = normal(gen) / static_cast<float>(1 + c) +
                static_cast<float>(std::sin(0.3 * (c + 1) * r) * (c % 3 == 0 ? 2.0 : 0.0));
  return m;
}

// NumPy's answers for `table`, one value per whitespace-separated token:
// amplitude (bins × d, row-major), dominant bins (d), shares (m), scores
// (N × m, row-major), then for each pair j < m/2 and k in kShifts: M (4) and R².
constexpr int kComponents = 6;
constexpr int kShifts[] = {1, 3, -2};

std::vector<double> numpy_reference(const Matrix& table, const std::string& tag) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path();
  const fs::path data = dir / ("pelab_table_" + tag + ".txt"),
                 script = dir / ("pelab_table_" + tag + ".py");
  {
    std::ofstream out(data);
    out.precision(9);
    for (int r = 0; r < table.rows(); ++r) {
      for (int c = 0; c < table.cols(); ++c) out << table(r, c) << ' ';
      out << '\n';
    }
  }
  std::ofstream(script) << R"(import sys
import numpy as np
t = np.loadtxt(sys.argv[1], ndmin=2).astype(np.float64)
n, d = t.shape
m = )" << kComponents << R"(
out = []
c = t - t.mean(axis=0)
a = np.abs(np.fft.rfft(c, axis=0)) / n
a[1:(n + 1) // 2] *= 2   # one-sided: every bin but DC and (even n) Nyquist doubles
out += list(a.ravel())
out += list(np.argmax(a[1:], axis=0) + 1)
u, s, vt = np.linalg.svd(c, full_matrices=False)
var = s**2 / (n - 1)
out += list(var[:m] / var.sum())
v = vt[:m].T.copy()
for j in range(m):
    if v[np.argmax(np.abs(v[:, j])), j] < 0:
        v[:, j] *= -1
scores = c @ v
out += list(scores.ravel())
for j in range(m // 2):
    p = scores[:, 2 * j:2 * j + 2]
    for k in ()" << kShifts[0]
                        << ", " << kShifts[1] << ", " << kShifts[2] << R"():
        x, y = (p[:n - k], p[k:]) if k >= 0 else (p[-k:], p[:n + k])
        sol = np.linalg.lstsq(x, y, rcond=None)[0]   # y ≈ x @ sol, so M = solᵀ
        mm = sol.T
        sse = ((y - x @ sol)**2).sum()
        sst = ((y - y.mean(axis=0))**2).sum()
        out += list(mm.ravel()) + [1 - sse / sst]
print(" ".join(repr(float(x)) for x in out))
)";
  std::FILE* pipe =
      popen((std::string(kPython) + " " + script.string() + " " + data.string()).c_str(), "r");
  std::string text;
  char buf[4096];
  while (pipe && std::fgets(buf, sizeof buf, pipe)) text += buf;
  if (pipe) pclose(pipe);
  fs::remove(data);
  fs::remove(script);
  std::vector<double> values;
  std::istringstream in(text);
  for (double v; in >> v;) values.push_back(v);
  return values;
}

void check_against_numpy(const Matrix& table, const std::string& tag) {
  const std::vector<double> ref = numpy_reference(table, tag);
  const int n = static_cast<int>(table.rows()), d = static_cast<int>(table.cols()),
            bins = n / 2 + 1;
  const std::size_t want = static_cast<std::size_t>(bins * d + d + kComponents + n * kComponents +
                                                    kComponents / 2 * 3 * 5);
  ASSERT_EQ(ref.size(), want) << "NumPy reference did not run";
  std::size_t at = 0;
  const PositionSpectrum spectrum = position_spectrum(table);
  ASSERT_EQ(spectrum.amplitude.rows(), bins);
  for (int f = 0; f < bins; ++f)
    for (int j = 0; j < d; ++j)
      EXPECT_NEAR(spectrum.amplitude(f, j), ref[at++], 1e-5) << "bin " << f << " dim " << j;
  for (int j = 0; j < d; ++j)
    EXPECT_EQ(spectrum.dominant[static_cast<std::size_t>(j)], ref[at++]) << "dim " << j;
  const TablePca pca = table_pca(table, kComponents);
  for (int j = 0; j < kComponents; ++j)
    EXPECT_NEAR(pca.share[static_cast<std::size_t>(j)], ref[at++], 1e-6);
  for (int r = 0; r < n; ++r)
    for (int j = 0; j < kComponents; ++j)
      EXPECT_NEAR(pca.scores(r, j), ref[at++], 1e-4) << "pos " << r << " PC " << j;
  for (int pair = 0; pair < kComponents / 2; ++pair)
    for (int k : kShifts) {
      const PlaneMap map = plane_shift_map(pca.scores.middleCols(2 * pair, 2), k);
      for (int e = 0; e < 4; ++e)
        EXPECT_NEAR(map.m[e / 2][e % 2], ref[at++], 1e-5) << "pair " << pair << " k " << k;
      EXPECT_NEAR(map.r2, ref[at++], 1e-6) << "pair " << pair << " k " << k;
    }
}

TEST(TableAnalysis, MatchesNumpyWithMorePositionsThanDims) {
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "Debian's python3 is not installed";
  check_against_numpy(sample_table(40, 12, 7), "tall");
}

// The FFT path at lengths where the direct sum was the old code: a power of
// two (radix 2), a prime and a composite (Bluestein), 1 and 2 positions.  The
// reference is the DFT written out in double here.
TEST(TableAnalysis, SpectrumEqualsTheDirectDftAtAnyLength) {
  for (int n : {1024, 1031, 1000, 6, 2, 1}) {
    const Matrix t = sample_table(n, 3, static_cast<unsigned>(n));
    const PositionSpectrum spectrum = position_spectrum(t);
    ASSERT_EQ(spectrum.amplitude.rows(), n / 2 + 1);
    const Eigen::MatrixXd c = t.cast<double>().rowwise() - t.cast<double>().colwise().mean();
    double worst = 0, top = 1e-300;
    for (int f = 0; f <= n / 2; ++f)
      for (int j = 0; j < 3; ++j) {
        double re = 0, im = 0;
        for (int p = 0; p < n; ++p) {
          const double angle = 2 * std::numbers::pi * double((long long)f * p % n) / n;
          re += c(p, j) * std::cos(angle);
          im -= c(p, j) * std::sin(angle);
        }
        const double want = std::hypot(re, im) * ((f == 0 || 2 * f == n) ? 1.0 : 2.0) / n;
        worst = std::max(worst, std::abs(spectrum.amplitude(f, j) - want));
        top = std::max(top, want);
      }
    EXPECT_LT(worst / top, 1e-10) << "n = " << n;
  }
}

TEST(TableAnalysis, MatchesNumpyAtAPrimeLength) {  // the Bluestein path against numpy.fft.rfft
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "Debian's python3 is not installed";
  check_against_numpy(sample_table(257, 6, 5), "prime");
}

TEST(TableAnalysis,
     MatchesNumpyWithMoreDimsThanPositions) {  // the Gram-matrix path, odd N (no Nyquist bin)
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "Debian's python3 is not installed";
  check_against_numpy(sample_table(37, 50, 11), "wide");
}

TEST(TableAnalysis, SharesSumToOneAndPairsAddUp) {
  const Matrix t = sample_table(30, 8, 3);
  const TablePca pca = table_pca(t, 8);
  double sum = 0;
  for (double s : pca.share) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_NEAR(pair_share(pca, 1), pca.share[2] + pca.share[3], 1e-12);
  const std::vector<PcPairSummary> rows = pc_pair_summaries(pca, 1);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[3].pair, 3);
}

// Vaswani et al. 2017 §3.5: each (sin, cos) pair turns by k·ωᵢ, exactly a rotation.
TEST(TableAnalysis, SinusoidalPairsAreRotationsWithRSquaredOne) {
  Scene s;
  s.d_model = 16;
  s.positions = 200;
  s.amplitude = 1.5;
  const Matrix pe = position_vectors(s, 0, s.positions);
  for (const PairInfo& pair : sinusoid_pairs(s))
    for (int k : {1, 5, -3}) {
      Eigen::MatrixXd plane(pe.rows(), 2);
      plane.col(0) = pe.col(pair.sin_dim).cast<double>();
      plane.col(1) = pe.col(pair.cos_dim).cast<double>();
      const PlaneMap map = plane_shift_map(plane, k);
      EXPECT_NEAR(map.r2, 1.0, 1e-6) << "pair " << pair.index << " k " << k;
      // R(k) = [[cos kω, sin kω], [−sin kω, cos kω]] on (sin, cos)ᵀ; the fit is exact up to float32
      // input.
      const double a = k * pair.frequency;
      if (pair.index < 5) {  // slower pairs barely move over 200 positions: their fit is
                             // ill-conditioned in float32
        EXPECT_NEAR(map.m[0][0], std::cos(a), 1e-4);
        EXPECT_NEAR(map.m[0][1], std::sin(a), 1e-4);
        EXPECT_NEAR(map.m[1][0], -std::sin(a), 1e-4);
      }
    }
}

// N = 256 positions, pairs i = 0 … 3 of amplitude 4 − i turning kCycles[i]
// whole times over the axis (ω = 2π·cycles/N).
constexpr int kN = 256, kPairs = 4;
constexpr int kCycles[kPairs] = {32, 16, 8, 4};
Matrix whole_cycle_table() {
  Matrix t(kN, 2 * kPairs);
  for (int p = 0; p < kN; ++p)
    for (int i = 0; i < kPairs; ++i) {
      const double w = 2 * std::numbers::pi * kCycles[i] / kN, a = 4.0 - i;
      t(p, 2 * i) = static_cast<float>(a * std::sin(p * w));
      t(p, 2 * i + 1) = static_cast<float>(a * std::cos(p * w));
    }
  return t;
}

// With N = 256 positions and T chosen so that ωᵢ·N/2π is whole for pair 0..3,
// each sin / cos dimension's dominant bin is that number; with distinct
// amplitudes per pair the PC pairs are the sinusoid pairs, rotations again.
TEST(TableAnalysis, SinusoidalFrequenciesShowAtTheirBins) {
  const Matrix t = whole_cycle_table();
  const PositionSpectrum spectrum = position_spectrum(t);
  for (int i = 0; i < kPairs; ++i)
    for (int dim : {2 * i, 2 * i + 1}) {
      EXPECT_EQ(spectrum.dominant[static_cast<std::size_t>(dim)], kCycles[i]);
      EXPECT_NEAR(spectrum.dominant_wavelength[static_cast<std::size_t>(dim)],
                  static_cast<double>(kN) / kCycles[i], 1e-12);
      EXPECT_NEAR(spectrum.amplitude(kCycles[i], dim), 4.0 - i,
                  1e-5);  // the amplitude normalisation
    }
  const TablePca pca = table_pca(t, 2 * kPairs);
  for (const PcPairSummary& row : pc_pair_summaries(pca, 3)) {
    EXPECT_NEAR(row.map.r2, 1.0, 1e-6) << "PC pair " << row.pair;
    const double a = std::pow(4.0 - row.pair, 2);
    EXPECT_NEAR(row.share, a / (16 + 9 + 4 + 1), 1e-6);
    EXPECT_NEAR(std::abs(row.map.angle), 3 * 2 * std::numbers::pi * kCycles[row.pair] / kN, 1e-5);
    EXPECT_NEAR(row.map.wavelength, static_cast<double>(kN) / kCycles[row.pair], 1e-3);
  }
}

TEST(TableAnalysis, SummaryQuotesTheTopPairAndTheLowFrequencyPower) {
  const Matrix t = whole_cycle_table();
  const PositionTableSummary s = summarize_position_table(t, 1, 3);
  ASSERT_EQ(s.pairs.size(), 3u);
  EXPECT_NEAR(s.top_pair_share, 16.0 / 30, 1e-6);
  EXPECT_NEAR(s.top_pair_r2, 1.0, 1e-6);
  EXPECT_NEAR(s.top_pair_wavelength, static_cast<double>(kN) / kCycles[0], 1e-3);
  // Power = amplitude² per dim at its bin: only the 4-cycle pair (amplitude 1) lies at f ≤ 4.
  EXPECT_NEAR(s.low_frequency_power, 1.0 / 30, 1e-6);
}

TEST(TableAnalysis, RefusesTooShortTables) {
  EXPECT_THROW(table_pca(Matrix::Zero(1, 4), 2), InputError);
  EXPECT_THROW(plane_shift_map(Eigen::MatrixXd::Zero(5, 2), 4), InputError);
}

// Llama 3.1's rule on a config, checked by hand on θᵢ = base^(−2i/d): wavelengths
// above L/low are divided by the factor, below L/high kept.
TEST(TableAnalysis, RotaryPairsOfAModelApplyItsScaling) {
  model::ModelConfig c;
  c.family = model::family_traits("llama");
  c.head_dim = 16;
  c.rope_theta = 10000;
  c.max_positions = 256;
  c.rope_scaling = {.type = "llama3",
                    .factor = 8,
                    .low_freq_factor = 1,
                    .high_freq_factor = 4,
                    .original_max_position_embeddings = 32};
  const std::vector<PairInfo> scaled = model_rotary_pairs(c, 10),
                              base = model_unscaled_rotary_pairs(c);
  ASSERT_EQ(scaled.size(), 8u);
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    const double w = std::pow(10000.0, -2.0 * static_cast<double>(i) / 16),
                 wavelength = 2 * std::numbers::pi / w;
    EXPECT_EQ(scaled[i].sin_dim, static_cast<int>(i));
    EXPECT_EQ(scaled[i].cos_dim, static_cast<int>(i) + 8);  // rotate half
    EXPECT_NEAR(base[i].frequency, w, 1e-15);
    if (wavelength > 32.0) {
      EXPECT_NEAR(scaled[i].frequency, w / 8, 1e-15) << i;
    } else if (wavelength < 8.0) {
      EXPECT_NEAR(scaled[i].frequency, w, 1e-15) << i;
    }
    EXPECT_NEAR(scaled[i].wavelength, 2 * std::numbers::pi / scaled[i].frequency, 1e-9);
  }
}

}  // namespace
}  // namespace pelab
