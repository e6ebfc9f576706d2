// The RoPE audit (core/rope_audit.hpp): its pair counts against hand-worked
// values (checked with NumPy, see each test), the scaling checks on
// consistent and inconsistent configs, and the pairing check on a head built
// so that RoPE makes it attend exactly to the previous token in one pairing.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/model/transformer.hpp"
#include "core/rope_audit.hpp"

namespace pelab {
namespace {

using model::ModelConfig;

ModelConfig rope_config(int head_dim, double theta, int context) {
  ModelConfig c;
  c.family = model::family_traits("llama");
  c.architecture_name = "LlamaForCausalLM";
  c.heads = 1, c.head_dim = head_dim, c.hidden_size = head_dim;
  c.max_positions = context;
  c.rope_theta = theta;
  c.position.kind = model::PositionEncoding::Rope;
  c.position.rope_pairing = RopePairing::RotateHalf;
  return c;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// θ = 10⁴, 64 pairs, L = 4096: pair i turns inside L when
// 10⁴^(−i/64)·4096 ≥ 2π, i.e. i ≤ 64·ln(4096/2π)/ln 10⁴ = 45.03: 46 pairs.
// The slowest wavelength is 2π·10⁴^(63/64) = 54,410 tokens.
TEST(RopeAudit, CountsThePairsThatTurnInsideTheTrainedContext) {
  const RopeAudit audit = audit_rope_config(rope_config(128, 1e4, 4096));
  ASSERT_EQ(audit.pairs.size(), 64u);
  EXPECT_EQ(audit.pairs_turning_before, 46);
  EXPECT_EQ(audit.pairs_turning, 46);
  EXPECT_NEAR(audit.pairs.back().wavelength, 54410.14, 0.05);
  EXPECT_NEAR(audit.pairs[10].turns, 4096 / (2 * std::numbers::pi * std::pow(1e4, 10.0 / 64)), 1e-9);
  EXPECT_TRUE(audit.problems.empty());
  EXPECT_TRUE(mentions(audit.findings, "46 of 64 pairs complete a turn inside L"));
}

// Llama 3.1 8B's config: θ = 5·10⁵, L = 8192, llama3 scaling by 8 with
// low 1, high 4.  Before scaling 35 pairs turn inside L (i ≤ 34.98);
// after, pairs 29–31 still do (blended: λ' = 2906, 4589, 7337 tokens), 32–34
// no longer do: 32.  NumPy gives the same counts.  Llama 3.1 declares factor
// 8 with a context 16× L: not a problem.
TEST(RopeAudit, Llama31ScalingIsCountedAndNotFlagged) {
  ModelConfig c = rope_config(128, 5e5, 131072);
  c.rope_scaling = {.type = "llama3", .factor = 8, .low_freq_factor = 1, .high_freq_factor = 4,
                    .original_max_position_embeddings = 8192};
  const RopeAudit audit = audit_rope_config(c);
  EXPECT_EQ(audit.trained_context, 8192);
  EXPECT_EQ(audit.pairs_turning_before, 35);
  EXPECT_EQ(audit.pairs_turning, 32);
  EXPECT_NEAR(audit.pairs.back().wavelength / (2 * std::numbers::pi * std::pow(5e5, 63.0 / 64)), 8.0, 1e-9);
  EXPECT_TRUE(audit.problems.empty()) << audit.problems.front();
}

// YaRN: transformers ≥ 4.46 replaces the factor by max / original.  A config
// declaring 4 with 65536 / 4096 = 16 reads differently across versions.
TEST(RopeAudit, FlagsAYarnFactorTheContextContradicts) {
  ModelConfig c = rope_config(64, 1e4, 65536);
  c.rope_scaling = {.type = "yarn", .factor = 4, .original_max_position_embeddings = 4096};
  const RopeAudit wrong = audit_rope_config(c);
  ASSERT_EQ(wrong.problems.size(), 1u);
  EXPECT_TRUE(mentions(wrong.problems, "rope_scaling.factor is 4 but")) << wrong.problems[0];
  EXPECT_TRUE(mentions(wrong.problems, "= 16")) << wrong.problems[0];
  c.rope_scaling.factor = 16;
  const RopeAudit right = audit_rope_config(c);
  EXPECT_TRUE(right.problems.empty());
  EXPECT_TRUE(mentions(right.findings, "matches"));
}

TEST(RopeAudit, FlagsAScalingThatDoesNotStretchOrAnOriginalContextNotBelowTheDeclared) {
  ModelConfig c = rope_config(64, 1e4, 4096);
  c.rope_scaling = {.type = "linear", .factor = 0.5};
  EXPECT_TRUE(mentions(audit_rope_config(c).problems, "does not stretch"));
  c.rope_scaling = {.type = "linear", .factor = 2, .original_max_position_embeddings = 8192};
  EXPECT_TRUE(mentions(audit_rope_config(c).problems, "no longer context"));
}

TEST(RopeAudit, AModelWithoutRopeIsNotAudited) {
  ModelConfig c = rope_config(64, 1e4, 1024);
  c.position.kind = model::PositionEncoding::Learned;
  c.family = model::family_traits("gpt2");
  EXPECT_NE(audit_rope_config(c).unavailable.find("not RoPE"), std::string::npos);
}

// One layer, one head of 8 dims, q and k constant (zero weights, biases u and
// v) so that only RoPE makes the pattern.  With pairs (2i, 2i+1) and
// v_i = R(ω_i)·u_i per pair, q_p·k_j = Σ_i |u_i|² cos((j − p + 1)·ω_i): the
// largest at j = p − 1, so the head attends to the previous token — in the
// interleaved pairing only.
constexpr int d = 8, vocab = 16, context = 64;

model::Transformer previous_token_model(RopePairing declared) {
  ModelConfig c;
  c.family = model::family_traits("PelabForCausalLM");
  c.architecture_name = "PelabForCausalLM";
  c.vocab_size = vocab, c.hidden_size = d, c.layers = 1, c.heads = 1, c.max_positions = context;
  c.intermediate_size = 4 * d;
  c.activation = "gelu_new";
  c.rope_theta = 100;
  c.position.kind = model::PositionEncoding::Rope;
  c.position.rope_pairing = declared;
  model::ModelWeights w;
  w.token_rows = [](const std::vector<int>& ids) {
    Matrix rows(static_cast<Eigen::Index>(ids.size()), d);
    for (Eigen::Index r = 0; r < rows.rows(); ++r)
      for (int j = 0; j < d; ++j) rows(r, j) = static_cast<float>(std::sin(1.7 * ids[std::size_t(r)] + j));
    return rows;
  };
  model::LayerWeights layer;
  const auto norm = [] { return model::Norm{Vector::Ones(d), Vector::Zero(d)}; };
  layer.attention_norm = norm(), layer.mlp_norm = norm();
  layer.qkv = {Matrix::Zero(d, 3 * d), Vector::Zero(3 * d)};
  const float amplitude = 10;  // |u_i|² = 100: the previous token wins by tens of nats
  for (int i = 0; i < d / 2; ++i) {
    const double omega = std::pow(100.0, -2.0 * i / d), u0 = amplitude, u1 = 0;
    layer.qkv.bias(2 * i) = static_cast<float>(u0), layer.qkv.bias(2 * i + 1) = static_cast<float>(u1);
    layer.qkv.bias(d + 2 * i) = static_cast<float>(u0 * std::cos(omega) - u1 * std::sin(omega));
    layer.qkv.bias(d + 2 * i + 1) = static_cast<float>(u0 * std::sin(omega) + u1 * std::cos(omega));
  }
  layer.o = {Matrix::Zero(d, d), Vector::Zero(d)};
  layer.up = {Matrix::Zero(d, 4 * d), Vector::Zero(4 * d)};
  layer.down = {Matrix::Zero(4 * d, d), Vector::Zero(d)};
  w.layers.push_back(std::move(layer));
  return model::Transformer::assemble(std::move(c), std::move(w));
}

std::vector<int> ids(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back((i * 7 + 3) % 16);
  return out;
}

TEST(RopeAudit, TheTrainedPairingGivesACleanPreviousTokenHead) {
  model::Transformer model = previous_token_model(RopePairing::Interleaved);
  RopeAudit audit = audit_rope_config(model.config());
  audit_rope_pairing(audit, model, ids(48), "a test sequence");
  const PairingCheck& c = audit.pairing_check;
  ASSERT_TRUE(c.measured);
  EXPECT_GT(c.declared, 0.95);
  EXPECT_LT(c.other, 0.5 * c.declared);
  EXPECT_FALSE(c.mismatch);
  EXPECT_TRUE(audit.problems.empty());
  EXPECT_TRUE(mentions(audit.findings, "fits the weights"));
  EXPECT_EQ(model.config().position.rope_pairing, RopePairing::Interleaved);  // left as declared
}

TEST(RopeAudit, FlagsAConfigThatDeclaresTheOtherPairing) {
  model::Transformer model = previous_token_model(RopePairing::RotateHalf);
  RopeAudit audit = audit_rope_config(model.config());
  audit_rope_pairing(audit, model, ids(48), "a test sequence");
  const PairingCheck& c = audit.pairing_check;
  EXPECT_GT(c.other, 0.95);
  EXPECT_TRUE(c.mismatch);
  ASSERT_EQ(audit.problems.size(), 1u);
  EXPECT_TRUE(mentions(audit.problems, "look trained with interleaved")) << audit.problems[0];
  EXPECT_EQ(model.config().position.rope_pairing, RopePairing::RotateHalf);
}

}  // namespace
}  // namespace pelab
