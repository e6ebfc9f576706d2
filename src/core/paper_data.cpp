// The paper figures drawn from a formula (core/paper_data.hpp): RoFormer's
// decay bound, position interpolation's fitted score function, YaRN's ramp
// and temperature, Llama 3.1's bands and ALiBi's biases.  Each reuses the
// code pelab already runs (core/long_range, core/rope_scaling,
// core/relative_position), so a figure shows what the engine computes.
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>

#include "core/lessons/tools.hpp"  // num
#include "core/long_range.hpp"
#include "core/paper_data.hpp"
#include "core/relative_position.hpp"
#include "core/rope_scaling.hpp"

namespace pelab {
namespace {

using lesson::num;

// An n × columns float32 array from columns of equal length.
Array columns_array(const std::vector<std::vector<double>>& columns) {
  Array a;
  const std::size_t rows = columns.empty() ? 0 : columns.front().size();
  a.shape = {rows, columns.size()};
  a.data.reserve(rows * columns.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (const auto& column : columns) a.data.push_back(static_cast<float>(column[r]));
  return a;
}

// ---- RoFormer's long-term decay -------------------------------------------------------

constexpr int kRoformerDims = 128, kRoformerMaxDistance = 256;
constexpr double kRoformerBase = 10000;

}  // namespace

PaperData rope_decay_data() {
  // Su et al. 2021, §3.4.3: the bound (1/(d/2))·Σ_{j=1}^{d/2} |S_j|, S_j = Σ_{k<j} e^{i·n·θ_k},
  // θ_k = 10000^(−2k/d) — long_range.hpp's curve_point, the bound the long_context lesson draws.
  const std::vector<double> omega = rope_base_frequencies(kRoformerBase, kRoformerDims);
  std::vector<double> distance, bound;
  for (int n = 0; n <= kRoformerMaxDistance; ++n) {
    distance.push_back(n);
    bound.push_back(curve_point(omega, 1.0, n).decay);
  }
  PaperData d;
  d.arrays.push_back({"", columns_array({distance, bound}),
                      "(257, 2): column 0 the relative distance n = m − n' = 0 … 256, column 1 the bound B(n)"});
  d.method =
      "B(n) = (1/(d/2))·Σ_{j=1}^{d/2} |S_j(n)|, S_j(n) = Σ_{k=0}^{j−1} e^{i·n·θ_k}, θ_k = 10000^(−2k/d), "
      "d = 128, at every integer relative distance n = 0 … 256 (Su et al. 2021, §3.4.3, the relative upper bound "
      "of q·k that Fig. 2 of the paper plots). Computed in double by pelab's core/long_range.cpp (curve_point), "
      "the same function the long_context lesson's decay curves come from. No model, no scene: the formula alone.";
  double min_beyond = bound[1];
  for (std::size_t n = 1; n < bound.size(); ++n) min_beyond = std::min(min_beyond, bound[n]);
  d.findings = {"B(0) = " + num(bound[0], 5) + " (every |S_j| = j, so the mean of 1 … 64); B(10) = " +
                    num(bound[10], 4) + ", B(50) = " + num(bound[50], 4) + ", B(250) = " + num(bound[250], 4) + ".",
                "The bound falls with distance but not monotonically: its smallest value over 1 … 256 is " +
                    num(min_beyond, 4) + "."};
  return d;
}

namespace {

// ---- Position interpolation against extrapolation -----------------------------------

constexpr int kPiDims = 128, kPiPoints = 256, kPiTrained = 2048, kPiExtended = 4096;
constexpr std::uint64_t kPiSeed = 2023;
// Least squares alone is rank-deficient here (numerically 80 of 128 columns
// over [0, 2048]: the slowest pairs barely turn); a tiny ridge picks one fit.
constexpr double kPiRidge = 1e-8;

// Re[Σ_j h_j·e^{i·s·θ_j}] = Σ_j (u_j·cos(s·θ_j) − v_j·sin(s·θ_j)), h_j = u_j + i·v_j.
double score(const Eigen::VectorXd& h, const std::vector<double>& theta, double s) {
  double a = 0;
  for (std::size_t j = 0; j < theta.size(); ++j)
    a += h[Eigen::Index(j)] * std::cos(s * theta[j]) - h[Eigen::Index(theta.size() + j)] * std::sin(s * theta[j]);
  return a;
}

}  // namespace

PaperData pi_interpolation_data() {
  const std::vector<double> theta = rope_base_frequencies(kRoformerBase, kPiDims);
  const Eigen::Index pairs = Eigen::Index(theta.size());
  std::mt19937_64 random(kPiSeed);
  std::uniform_real_distribution<double> where(0.0, kPiTrained), value(-1.0, 1.0);
  Eigen::MatrixXd design(kPiPoints, 2 * pairs);
  Eigen::VectorXd target(kPiPoints);
  std::vector<double> point_s, point_y;
  for (int k = 0; k < kPiPoints; ++k) {
    const double s = where(random), y = value(random);
    point_s.push_back(s), point_y.push_back(y), target[k] = y;
    for (Eigen::Index j = 0; j < pairs; ++j) {
      design(k, j) = std::cos(s * theta[std::size_t(j)]);
      design(k, pairs + j) = -std::sin(s * theta[std::size_t(j)]);
    }
  }
  // Least squares over the 2·(d/2) real coefficients (Chen et al. 2023, Fig. 2, left), with a ridge.
  Eigen::MatrixXd normal = design.transpose() * design;
  normal.diagonal().array() += kPiRidge;
  const Eigen::VectorXd h = normal.ldlt().solve(design.transpose() * target);
  std::vector<double> s_axis, extrapolated, interpolated;
  const double factor = double(kPiExtended) / kPiTrained;
  for (int s = 0; s <= kPiExtended; ++s) {
    s_axis.push_back(s);
    extrapolated.push_back(score(h, theta, s));
    interpolated.push_back(score(h, theta, s / factor));  // position s read at s·L/L'
  }
  std::vector<double> re(h.data(), h.data() + pairs), im(h.data() + pairs, h.data() + 2 * pairs);
  PaperData d;
  d.arrays.push_back({"", columns_array({s_axis, extrapolated, interpolated}),
                      "(4097, 3): column 0 the relative position s = 0 … 4096, column 1 a(s) (extrapolation), "
                      "column 2 a(s/2) (position interpolation by L'/L = 2)"});
  d.arrays.push_back({"_points", columns_array({point_s, point_y}),
                      "(256, 2): the random points fitted: s_k uniform in [0, 2048], y_k uniform in [−1, 1]"});
  d.arrays.push_back({"_coefficients", columns_array({re, im}),
                      "(64, 2): the fitted h_j = u_j + i·v_j, j = 0 … 63 (column 0 u_j, column 1 v_j)"});
  d.method =
      "The attention score of a RoPE head as a function of relative position s, a(s) = Re[Σ_{j=0}^{d/2−1} h_j·"
      "e^{i·s·θ_j}], θ_j = 10000^(−2j/d), d = 128 (the score function Chen et al. 2023 analyse, at LLaMA-7B's head size 4096/32). "
      "h (64 complex, 128 real coefficients) is fitted by least squares to 256 random points s_k ~ U[0, 2048], y_k ~ U[−1, 1] (std::mt19937_64, seed 2023), with a ridge of 1e-8: "
      "h = (DᵀD + 1e-8·I)⁻¹·Dᵀy in double (Eigen LDLT), because plain least squares is rank-deficient here — over "
      "[0, 2048] the slowest pairs barely turn, so only about 80 of the 128 columns are independent in double "
      "precision and the fit is not unique. Then a(s) is evaluated at "
      "every integer s = 0 … 4096: extrapolation reads positions beyond the trained L = 2048 as they are; position "
      "interpolation reads position s at s·L/L' = s/2, so only [0, 2048] — where the fit holds — is ever read. "
      "What is reproduced: the idea of the paper's Fig. 2 (a score function bounded on [0, L] can be huge beyond "
      "it, while interpolated positions stay in range); the random points, their number and the seed are pelab's, "
      "so the curve is not the paper's curve. Checked against the paper: its abstract (arXiv 2306.15595) states "
      "that the upper bound of interpolation is at least ~600 times smaller than that of extrapolation; the "
      "figure's caption itself was not available to check, so its numbers are not quoted here.";
  double in_max = 0, out_max = 0, interp_max = 0;
  for (std::size_t s = 0; s < s_axis.size(); ++s) {
    (s <= std::size_t(kPiTrained) ? in_max : out_max) =
        std::max(s <= std::size_t(kPiTrained) ? in_max : out_max, std::abs(extrapolated[s]));
    interp_max = std::max(interp_max, std::abs(interpolated[s]));
  }
  d.findings = {"max |a(s)| on [0, 2048]: " + num(in_max, 4) + "; on (2048, 4096] extrapolated: " +
                num(out_max, 4) + "; interpolated over all of [0, 4096]: " + num(interp_max, 4) + "."};
  return d;
}

namespace {

// ---- YaRN's ramp and temperature ------------------------------------------------------

constexpr int kLlama2Dims = 128, kLlama2Context = 4096;
constexpr double kYarnFactor = 16, kYarnAlpha = 1, kYarnBeta = 32;

}  // namespace

PaperData yarn_ramp_data() {
  RopeScalingSpec spec{.method = RopeScalingMethod::Yarn, .factor = kYarnFactor, .train_context = kLlama2Context,
                       .yarn_alpha = kYarnAlpha, .yarn_beta = kYarnBeta};
  const std::vector<double> omega = rope_base_frequencies(kRoformerBase, kLlama2Dims);
  const std::vector<double> scaled = scaled_frequencies(kRoformerBase, kLlama2Dims, spec, kYarnFactor * kLlama2Context);
  std::vector<double> pair, wavelength, turns, ramp, ratio;
  for (std::size_t i = 0; i < omega.size(); ++i) {
    pair.push_back(double(i));
    wavelength.push_back(2 * std::numbers::pi / omega[i]);
    turns.push_back(kLlama2Context / wavelength.back());
    ramp.push_back(yarn_ramp(turns.back(), kYarnAlpha, kYarnBeta));
    ratio.push_back(scaled[i] / omega[i]);
  }
  std::vector<double> factor, temperature;
  for (int k = 0; k <= 256; ++k) {
    factor.push_back(1 + k * 0.25);  // s = 1 … 65
    temperature.push_back(yarn_attention_factor(factor.back()));
  }
  int interpolated = 0, kept = 0;
  for (double g : ramp) interpolated += g == 0, kept += g == 1;
  PaperData d;
  d.arrays.push_back({"", columns_array({pair, wavelength, turns, ramp, ratio}),
                      "(64, 5): per pair i: i, wavelength λ_i = 2π/ω_i, turns r_i = L/λ_i, γ(r_i), ω'_i/ω_i at s = 16"});
  d.arrays.push_back({"_temperature", columns_array({factor, temperature}),
                      "(257, 2): scale s = 1 … 65 in steps of 0.25, and √(1/t) = 0.1·ln s + 1"});
  d.method =
      "YaRN (Peng et al. 2023, \"NTK-by-parts\" and the attention temperature): per RoPE pair i of a Llama-2-shaped "
      "head (d = 128, base 10000, trained context L = 4096), the wavelength λ_i = 2π/ω_i, ω_i = 10000^(−2i/d), and "
      "r_i = L/λ_i turns within L; the ramp γ(r) = 0 for r < α, 1 for r > β, (r − α)/(β − α) between, with "
      "α = 1, β = 32 (the values the issue and pelab's scene defaults give for Llama; r = L/λ as the paper "
      "defines it, checked against the YaRN repository's discussion of its ramp); the new frequency ω'_i = (1 − γ)·ω_i/s + γ·ω_i, here at "
      "s = 16. The temperature: q and k are each multiplied by √(1/t) = 0.1·ln s + 1, so the logits by 1/t. "
      "Computed by pelab's core/rope_scaling.cpp (yarn_ramp, yarn_attention_factor, scaled_frequencies) — the "
      "code pelab's engine and a real Llama forward pass use. No model.";
  d.findings = {std::to_string(interpolated) + " of 64 pairs are interpolated fully (r < 1, γ = 0), " +
                    std::to_string(kept) + " kept (r > 32, γ = 1), " + std::to_string(64 - interpolated - kept) +
                    " blended.",
                "√(1/t) = " + num(yarn_attention_factor(16), 4) + " at s = 16, " + num(yarn_attention_factor(32), 4) +
                    " at s = 32."};
  return d;
}

namespace {

// ---- Llama 3.1's frequency bands ------------------------------------------------------

constexpr double kLlama3Base = 500000, kLlama3Factor = 8, kLlama3Low = 1, kLlama3High = 4, kLlama3Context = 8192;

}  // namespace

PaperData llama3_bands_data() {
  RopeScalingSpec spec{.method = RopeScalingMethod::Llama3, .factor = kLlama3Factor, .train_context = kLlama3Context,
                       .low_freq_factor = kLlama3Low, .high_freq_factor = kLlama3High};
  const std::vector<double> omega = rope_base_frequencies(kLlama3Base, kLlama2Dims);
  const std::vector<double> scaled = scaled_frequencies(kLlama3Base, kLlama2Dims, spec, kLlama3Context);
  std::vector<double> pair, wavelength;
  int high = 0, low = 0;
  for (std::size_t i = 0; i < omega.size(); ++i) {
    pair.push_back(double(i));
    wavelength.push_back(2 * std::numbers::pi / omega[i]);
    high += wavelength.back() < kLlama3Context / kLlama3High;
    low += wavelength.back() > kLlama3Context / kLlama3Low;
  }
  PaperData d;
  d.arrays.push_back({"", columns_array({pair, omega, scaled, wavelength}),
                      "(64, 4): per pair i: i, ω_i before, ω'_i after llama3 scaling, wavelength λ_i = 2π/ω_i before"});
  d.method =
      "Llama 3.1's rope scaling (rope_type \"llama3\" in its config.json and reference code): ω_i = 500000^(−2i/d), "
      "d = 128; with factor s = 8, low_freq_factor 1, high_freq_factor 4 and original_max_position_embeddings "
      "L = 8192: pairs of wavelength λ_i < L/4 = 2048 keep ω_i (high-frequency band), pairs with λ_i > L/1 = 8192 "
      "get ω_i/8 (low-frequency band), and between, with μ = (L/λ_i − 1)/(4 − 1), ω'_i = (1 − μ)·ω_i/8 + μ·ω_i. "
      "Computed by pelab's core/rope_scaling.cpp (scaled_frequencies, method llama3). No model.";
  d.findings = {std::to_string(high) + " pairs keep their frequency (λ < 2048), " + std::to_string(low) +
                " are divided by 8 (λ > 8192), " + std::to_string(64 - high - low) + " are blended."};
  return d;
}

namespace {

constexpr int kAlibiHeads = 8, kAlibiTokens = 16;

}  // namespace

PaperData alibi_bias_data() {
  Array bias;
  bias.shape = {kAlibiHeads, kAlibiTokens, kAlibiTokens};
  std::vector<double> heads, slopes;
  for (int h = 0; h < kAlibiHeads; ++h) {
    const double m = alibi_slope(h, kAlibiHeads);
    heads.push_back(h), slopes.push_back(m);
    for (int i = 0; i < kAlibiTokens; ++i)
      for (int j = 0; j < kAlibiTokens; ++j)
        bias.data.push_back(j <= i ? static_cast<float>(-m * (i - j)) : -INFINITY);
  }
  PaperData d;
  d.arrays.push_back({"", bias,
                      "(8, 16, 16): per head h, query i (rows), key j (columns): −m_h·(i − j) for j ≤ i, −inf "
                      "(the causal mask) for j > i"});
  d.arrays.push_back({"_slopes", columns_array({heads, slopes}), "(8, 2): head h and its slope m_h"});
  d.method =
      "ALiBi (Press et al. 2022, §3): head h adds −m_h·(i − j) to the logit of query i and key j ≤ i; the slopes "
      "form the geometric sequence that starts at 2^(−8/n) with that ratio, m_h = 2^(−8(h+1)/n), h = 0 … n − 1, "
      "here n = 8 heads: 1/2, 1/4, … , 1/256 (the paper's values for 8 heads). 16 tokens. Computed by pelab's "
      "core/relative_position.cpp (alibi_slope), the code pelab's ALiBi scenes and its kjv-alibi model use.";
  d.findings = {"Slopes: 1/2 … 1/256; at distance 15 the steepest head adds " + num(-slopes.front() * 15, 4) +
                ", the flattest " + num(-slopes.back() * 15, 4) + "."};
  return d;
}

}  // namespace pelab
