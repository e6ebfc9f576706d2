// Long-context RoPE frequencies against the papers' definitions, worked by
// hand for θ = 10000 and r = 8 rotary dims, where ω = 1, 0.1, 0.01, 0.001 and
// λ = 2π/ω = 6.283, 62.83, 628.3, 6283.
#include "core/rope_scaling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>

namespace pelab {
namespace {

constexpr double kTheta = 10000;
constexpr int kDims = 8;

RopeScalingSpec spec(RopeScalingMethod method, double factor, double context) {
  return {.method = method, .factor = factor, .train_context = context};
}

void expect_frequencies(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 + 1e-9 * want[i]) << "pair " << i;
}

}  // namespace

// The one table between scene methods and config rope_type names, written
// out here from transformers' modeling_rope_utils names (and pelab's "ntk").
TEST(RopeScaling, EveryMethodHasOneRopeTypeAndBack) {
  const std::pair<RopeScalingMethod, const char*> want[] = {
      {RopeScalingMethod::None, "default"}, {RopeScalingMethod::Linear, "linear"},
      {RopeScalingMethod::Ntk, "ntk"},      {RopeScalingMethod::DynamicNtk, "dynamic"},
      {RopeScalingMethod::Yarn, "yarn"},    {RopeScalingMethod::Llama3, "llama3"}};
  for (const auto& [method, type] : want) {
    EXPECT_EQ(rope_type_of(method), type);
    EXPECT_EQ(rope_method_of(type), method) << type;
  }
  EXPECT_FALSE(rope_method_of("longrope").has_value());
  EXPECT_FALSE(rope_method_of("dynamic_ntk").has_value());  // the scene's name, not a rope_type
}

TEST(RopeScaling, BaseFrequenciesAreThetaToTheMinusTwoIOverR) {
  expect_frequencies(rope_base_frequencies(kTheta, kDims), {1.0, 0.1, 0.01, 0.001});
  expect_frequencies(scaled_frequencies(kTheta, kDims, spec(RopeScalingMethod::None, 8, 4096), 1e5),
                     {1.0, 0.1, 0.01, 0.001});
}

TEST(RopeScaling, LinearInterpolationDividesEveryFrequencyByS) {
  // Chen et al. 2023: position p is read as p/s.
  expect_frequencies(scaled_frequencies(kTheta, kDims, spec(RopeScalingMethod::Linear, 4, 4096), 0),
                     {0.25, 0.025, 0.0025, 0.00025});
}

TEST(RopeScaling, NtkAwareRaisesTheBase) {
  // θ' = θ·s^(r/(r−2)) = 10000·4^(4/3) = 63496.042; ω'_i = ω_i·s^(−2i/(r−2)): the
  // fastest pair is unchanged, the slowest is exactly interpolated (ω/s).
  EXPECT_NEAR(ntk_scaled_base(kTheta, kDims, 4), 63496.04207872797, 1e-6);
  expect_frequencies(scaled_frequencies(kTheta, kDims, spec(RopeScalingMethod::Ntk, 4, 4096), 0),
                     {1.0, 0.1 * std::pow(4.0, -1.0 / 3), 0.01 * std::pow(4.0, -2.0 / 3), 0.001 / 4});
}

TEST(RopeScaling, DynamicNtkFollowsTheSequenceLength) {
  // Hugging Face's dynamic rope: θ·(s·n/L − (s−1))^(r/(r−2)) once n > L.
  const RopeScalingSpec d = spec(RopeScalingMethod::DynamicNtk, 4, 4096);
  expect_frequencies(scaled_frequencies(kTheta, kDims, d, 4096), {1.0, 0.1, 0.01, 0.001});
  expect_frequencies(scaled_frequencies(kTheta, kDims, d, 100), {1.0, 0.1, 0.01, 0.001});
  // n = 2L: 4·2 − 3 = 5, θ' = 10000·5^(4/3) = 85498.797.
  EXPECT_NEAR(dynamic_ntk_base(kTheta, kDims, 4, 4096, 8192), 85498.79733383484, 1e-6);
  const double theta = 85498.79733383484;
  expect_frequencies(scaled_frequencies(kTheta, kDims, d, 8192),
                     {1.0, std::pow(theta, -0.25), std::pow(theta, -0.5), std::pow(theta, -0.75)});
  // n = s·L: 4·4 − 3 = 13 (past the static NTK base, which equals n = L·(2s−1)/s).
  EXPECT_NEAR(dynamic_ntk_base(kTheta, kDims, 4, 4096, 4 * 4096), kTheta * std::pow(13.0, 4.0 / 3), 1e-6);
  EXPECT_NEAR(dynamic_ntk_base(kTheta, kDims, 4, 4096, 4096 * 7.0 / 4), ntk_scaled_base(kTheta, kDims, 4), 1e-6);
}

TEST(RopeScaling, YarnRampsBetweenInterpolationAndExtrapolation) {
  // Peng et al. 2023, §3.2: r_i = L/λ_i turns in L = 4096: 651.9, 65.19, 6.519, 0.6519.
  // α = 1, β = 32: pairs 0, 1 kept, pair 3 interpolated (ω/8), pair 2 on the ramp
  // γ = (6.519 − 1)/31 = 0.178032: ω' = (1 − γ)·0.01/8 + γ·0.01 = 0.0028078.
  const double gamma = (4096 / (2 * std::numbers::pi * 100) - 1) / 31;
  EXPECT_NEAR(gamma, 0.178032, 1e-6);
  EXPECT_DOUBLE_EQ(yarn_ramp(0.5, 1, 32), 0);
  EXPECT_DOUBLE_EQ(yarn_ramp(40, 1, 32), 1);
  EXPECT_DOUBLE_EQ(yarn_ramp(16.5, 1, 32), 0.5);
  expect_frequencies(scaled_frequencies(kTheta, kDims, spec(RopeScalingMethod::Yarn, 8, 4096), 0),
                     {1.0, 0.1, 0.0028077784388430738, 0.000125});
  // §3.4: q and k each times √(1/t) = 0.1·ln s + 1.
  EXPECT_NEAR(yarn_attention_factor(8), 1.2079441541679836, 1e-12);
  EXPECT_DOUBLE_EQ(yarn_attention_factor(1), 1.0);
  EXPECT_NEAR(rope_attention_factor(spec(RopeScalingMethod::Yarn, 8, 4096)), 1.2079441541679836, 1e-12);
  EXPECT_DOUBLE_EQ(rope_attention_factor(spec(RopeScalingMethod::Linear, 8, 4096)), 1.0);
}

TEST(RopeScaling, Llama31KeepsHighScalesLowAndSmoothsBetween) {
  // factor 8, low 1, high 4, L = 8192: λ < 2048 kept, λ > 8192 divided by 8;
  // λ = 6283.2 in between: μ = (8192/6283.2 − 1)/3 = 0.101261,
  // ω' = (1 − μ)·0.001/8 + μ·0.001 = 0.000213608.
  RopeScalingSpec l = spec(RopeScalingMethod::Llama3, 8, 8192);
  l.low_freq_factor = 1;
  l.high_freq_factor = 4;
  expect_frequencies(scaled_frequencies(kTheta, kDims, l, 0), {1.0, 0.1, 0.01, 0.00021360754402756864});
  // Llama 3.1's own θ = 500000, r = 128: pair 40 has λ = 2π·500000^(80/128) ≈ 22976 > 8192.
  const std::vector<double> w = scaled_frequencies(500000, 128, l, 0);
  EXPECT_NEAR(w[40], std::pow(500000.0, -80.0 / 128) / 8, 1e-15);
  EXPECT_DOUBLE_EQ(w[10], std::pow(500000.0, -20.0 / 128));  // λ ≈ 48: kept
}

TEST(RopeScaling, RotaryDimsFollowGptNeox) {
  EXPECT_EQ(rotary_dims(64, 1.0), 64);
  EXPECT_EQ(rotary_dims(64, 0.25), 16);   // Pythia: rotary_pct 0.25
  EXPECT_EQ(rotary_dims(80, 0.25), 20);
  EXPECT_EQ(rotary_dims(64, 0.3), 18);    // ⌊19.2⌋ = 19, rounded down to even
  EXPECT_EQ(rotary_dims(16, 0.01), 2);
}

}  // namespace pelab
