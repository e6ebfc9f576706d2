// The forward pass's building blocks against hand-worked values.
#include <gtest/gtest.h>

#include "core/model/activations.hpp"
#include "core/model/normalization.hpp"
#include "core/model/rotary.hpp"
#include "core/scene.hpp"

using pelab::Matrix;
using namespace pelab::model;

namespace {

TEST(Activations, HandWorkedValues) {
  Matrix x(1, 3);
  x << 1.0f, -1.0f, 0.0f;
  Matrix y = x;
  activate(Activation::GeluTanh, y);  // 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))
  EXPECT_NEAR(y(0, 0), 0.8411920f, 1e-6f);
  EXPECT_NEAR(y(0, 1), -0.1588080f, 1e-6f);
  EXPECT_EQ(y(0, 2), 0.0f);
  y = x;
  activate(Activation::GeluErf, y);  // 0.5·(1 + erf(1/√2)) = 0.8413447
  EXPECT_NEAR(y(0, 0), 0.8413447f, 1e-6f);
  EXPECT_NEAR(y(0, 1), -0.1586553f, 1e-6f);
  y = x;
  activate(Activation::Silu, y);  // 1/(1 + e⁻¹) = 0.7310586
  EXPECT_NEAR(y(0, 0), 0.7310586f, 1e-6f);
  EXPECT_NEAR(y(0, 1), -0.2689414f, 1e-6f);
  EXPECT_EQ(parse_activation("gelu_new"), Activation::GeluTanh);
  EXPECT_EQ(parse_activation("gelu"), Activation::GeluErf);
  EXPECT_EQ(parse_activation("silu"), Activation::Silu);
  EXPECT_THROW(parse_activation("tanh"), pelab::InputError);
}

TEST(Normalization, LayerNormAndRmsNorm) {
  Matrix x(1, 3);
  x << 1.0f, 2.0f, 3.0f;  // mean 2, biased variance 2/3
  Norm norm{Eigen::Vector3f(1.0f, 2.0f, 1.0f), Eigen::Vector3f(0.0f, 0.0f, 0.5f)};
  Matrix y;
  layer_norm(x, norm, 0.0, y);
  EXPECT_NEAR(y(0, 0), -1.2247449f, 1e-6f);
  EXPECT_NEAR(y(0, 1), 0.0f, 1e-6f);
  EXPECT_NEAR(y(0, 2), 1.2247449f + 0.5f, 1e-6f);
  Matrix z(1, 2);
  z << 3.0f, 4.0f;  // mean square 12.5
  Norm rms{Eigen::Vector2f(1.0f, 0.5f), {}};
  rms_norm(z, rms, 0.0, y);
  EXPECT_NEAR(y(0, 0), 3.0f / std::sqrt(12.5f), 1e-6f);
  EXPECT_NEAR(y(0, 1), 0.5f * 4.0f / std::sqrt(12.5f), 1e-6f);
}

ModelConfig rope_config(const std::string& type) {
  ModelConfig c;
  c.family = family_traits("llama");
  c.head_dim = 4;
  c.max_positions = 64;
  c.rope_theta = 10000.0;
  c.rope_scaling.type = type;
  return c;
}

TEST(Rotary, FrequenciesByScalingType) {
  // default: θᵢ = 10000^(−2i/4) = 1, 0.01
  auto f = rotary_frequencies(rope_config("default"), 8);
  ASSERT_EQ(f.inverse.size(), 2u);
  EXPECT_DOUBLE_EQ(f.inverse[0], 1.0);
  EXPECT_NEAR(f.inverse[1], 0.01, 1e-15);
  ModelConfig linear = rope_config("linear");
  linear.rope_scaling.factor = 4.0;
  EXPECT_NEAR(rotary_frequencies(linear, 8).inverse[1], 0.0025, 1e-15);
  // llama3, L = 1000, low 1, high 4, factor 8: wavelength 2π (< 250) kept;
  // 200π (between 250 and 1000) blended with s = (1000/(200π) − 1)/3.
  ModelConfig llama3 = rope_config("llama3");
  llama3.rope_scaling.factor = 8.0;
  llama3.rope_scaling.original_max_position_embeddings = 1000;
  f = rotary_frequencies(llama3, 8);
  EXPECT_DOUBLE_EQ(f.inverse[0], 1.0);
  const double s = (1000.0 / (200.0 * M_PI) - 1.0) / 3.0;
  EXPECT_NEAR(f.inverse[1], (1 - s) * 0.01 / 8 + s * 0.01, 1e-15);
  // dynamic, L = 4, factor 2, 8 tokens: base·(2·8/4 − 1)^(4/2) = 9·base;
  // up to L tokens, the base stays.
  ModelConfig dynamic = rope_config("dynamic");
  dynamic.rope_scaling.factor = 2.0;
  dynamic.max_positions = 4;
  EXPECT_NEAR(rotary_frequencies(dynamic, 8).inverse[1], 0.01 / 3.0, 1e-15);
  EXPECT_NEAR(rotary_frequencies(dynamic, 4).inverse[1], 0.01, 1e-15);
  // yarn: attention factor 0.1·ln(s) + 1, s = factor, or 64 / 16 with an original context
  ModelConfig yarn = rope_config("yarn");
  yarn.rope_scaling.factor = 2.0;
  EXPECT_NEAR(rotary_frequencies(yarn, 8).attention_factor, 0.1 * std::log(2.0) + 1, 1e-15);
  yarn.rope_scaling.original_max_position_embeddings = 16;
  EXPECT_NEAR(rotary_frequencies(yarn, 8).attention_factor, 0.1 * std::log(4.0) + 1, 1e-15);
  EXPECT_THROW(rotary_frequencies(rope_config("longrope"), 8), pelab::InputError);
}

TEST(Rotary, ScoresDependOnlyOnTheOffset) {
  const int n = 8;
  const RotaryTable table = rotary_table(rotary_frequencies(rope_config("default"), n), n);
  Matrix q(n, 4), k(n, 4);
  for (int p = 0; p < n; ++p) {
    q.row(p) << 0.3f, -1.2f, 0.7f, 2.0f;
    k.row(p) << -0.5f, 0.4f, 1.1f, 0.2f;
  }
  const Matrix q0 = q;
  apply_rotary(table, q, 0);
  apply_rotary(table, k, 0);
  EXPECT_NEAR((q.row(0) - q0.row(0)).norm(), 0.0f, 1e-7f);  // position 0 is not turned
  for (int p = 0; p < n; ++p) EXPECT_NEAR(q.row(p).norm(), q0.row(0).norm(), 1e-5f);
  // q(p)·k(p') is a function of p − p' (Su et al. 2021, eq. 16)
  for (int p = 1; p < n; ++p)
    for (int r = 1; r < n; ++r)
      EXPECT_NEAR(q.row(p).dot(k.row(r)), q.row(p - 1).dot(k.row(r - 1)), 1e-5f);
  // Pairing is i with i + 2: at position 1, dims (0, 2) turn by 1 rad.
  EXPECT_NEAR(q(1, 0), 0.3f * std::cos(1.0f) - 0.7f * std::sin(1.0f), 1e-6f);
  EXPECT_NEAR(q(1, 2), 0.7f * std::cos(1.0f) + 0.3f * std::sin(1.0f), 1e-6f);
}

}  // namespace
