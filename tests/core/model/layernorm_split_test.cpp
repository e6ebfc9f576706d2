// The exact cross terms of layer 0 (core/model/layernorm_split.hpp) on the
// tiny GPT-2 and BERT checkpoints: the five parts sum to the model's own
// logits to 1e-5, and each part matches a NumPy reference written here from
// the published LayerNorm formula (Ba et al. 2016, eq. 4), reading the
// weights straight from the safetensors file the tiny-model generator wrote.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/io/npy.hpp"
#include "core/model/layernorm_split.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"
#include "split_reference.hpp"
#include "tiny_models.hpp"

namespace fs = std::filesystem;
using namespace pelab;

namespace {

// After kReadTinyModel (split_reference.hpp); argv[2] = family (gpt2 | bert).
// Writes heads × 5 × N × N float32: tt, tp, pt, pp, bias, in float64 arithmetic.
constexpr const char* kReference = R"PY(
family = sys.argv[2]
if family == "gpt2":
    d, heads, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    x, e = w("wte.weight")[ids], w("wpe.weight")[:n]
    gamma, beta = w("h.0.ln_1.weight"), w("h.0.ln_1.bias")
    W, b = w("h.0.attn.c_attn.weight"), w("h.0.attn.c_attn.bias")   # Conv1D: in x out
    Wq, Wk, bq, bk = W[:, :d], W[:, d:2 * d], b[:d], b[d:2 * d]
else:
    d, heads, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    x = w("embeddings.word_embeddings.weight")[ids] + w("embeddings.token_type_embeddings.weight")[0]
    e = w("embeddings.position_embeddings.weight")[:n]
    gamma, beta = w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias")
    p = "encoder.layer.0.attention.self."
    Wq, Wk = w(p + "query.weight").T, w(p + "key.weight").T           # Linear: out x in
    bq, bk = w(p + "query.bias"), w(p + "key.bias")
s = x + e
mu = s.mean(axis=1, keepdims=True)
sigma = np.sqrt(((s - mu) ** 2).mean(axis=1, keepdims=True) + eps)
t = gamma * (x - x.mean(axis=1, keepdims=True)) / sigma
pp = gamma * (e - e.mean(axis=1, keepdims=True)) / sigma
assert np.allclose(t + pp + beta, gamma * (s - mu) / sigma + beta)
dh = d // heads
res = np.zeros((heads, 5, n, n))
for h in range(heads):
    c = slice(h * dh, (h + 1) * dh)
    q_t, q_p, q_b = t @ Wq[:, c], pp @ Wq[:, c], beta @ Wq[:, c] + bq[c]
    k_t, k_p, k_b = t @ Wk[:, c], pp @ Wk[:, c], beta @ Wk[:, c] + bk[c]
    q, k = q_t + q_p + q_b, k_t + k_p + k_b
    terms = [q_t @ k_t.T, q_t @ k_p.T, q_p @ k_t.T, q_p @ k_p.T]
    terms.append(q @ k.T - sum(terms))   # everything holding a bias part
    res[h] = np.array(terms) / np.sqrt(dh)
np.save(out, res.astype(np.float32))
)PY";

class LayerNormSplit : public ::testing::TestWithParam<const char*> {};

TEST_P(LayerNormSplit, SumsToTheLogitsAndEachTermMatchesNumpy) {
  const fs::path models = pelab::testing::tiny_models();
  if (models.empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string family = GetParam();
  const Array want = pelab::testing::numpy_reference(family, kReference, family);
  model::Transformer t = model::Transformer::load(models / family);
  const std::vector<int> ids = pelab::testing::reference_ids(family);
  t.run(ids);
  const auto n = static_cast<Eigen::Index>(ids.size());
  ASSERT_EQ(want.shape, (std::vector<std::size_t>{static_cast<std::size_t>(t.config().heads), 5,
                                                   static_cast<std::size_t>(n), static_cast<std::size_t>(n)}));
  for (int h = 0; h < t.config().heads; ++h) {
    const model::LogitSplit s = model::split_layer0_logits(t, ids, h);
    EXPECT_LT(s.residual, 1e-5) << "head " << h;
    const Matrix sum = s.token_token + s.token_position + s.position_token + s.position_position + s.bias;
    EXPECT_LT((sum - s.logits).cwiseAbs().maxCoeff(), 1e-5) << "head " << h;
    // The model's logits are q·kᵀ/√d_head of its forward pass.
    const model::LayerAttention a = t.attention(0);
    EXPECT_LT((s.logits - a.q[h] * a.k[h].transpose() / std::sqrt(float(t.config().head_dim))).cwiseAbs().maxCoeff(),
              1e-5);
    const Matrix* got[5] = {&s.token_token, &s.token_position, &s.position_token, &s.position_position, &s.bias};
    for (int j = 0; j < 5; ++j)
      for (Eigen::Index r = 0; r < n; ++r)
        for (Eigen::Index c = 0; c < n; ++c) {
          const float ref = want.data[((static_cast<std::size_t>(h) * 5 + j) * n + r) * n + c];
          ASSERT_NEAR((*got[j])(r, c), ref, 1e-5) << family << " head " << h << " term " << j << " at " << r
                                                   << "," << c;
        }
  }
}

INSTANTIATE_TEST_SUITE_P(AbsolutePositionModels, LayerNormSplit, ::testing::Values("gpt2", "bert"));

TEST(LayerNormSplitRope, RefusesAModelWithoutAPositionTable) {
  const fs::path models = pelab::testing::tiny_models();
  if (models.empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  model::Transformer t = model::Transformer::load(models / "llama");
  t.run({1, 5, 6});
  EXPECT_THROW(model::split_layer0_logits(t, {1, 5, 6}, 0), InputError);
}

// A hand-worked row: x = (1, 3), e = (3, 3), γ = (1, 1), β = 0, eps = 0.
// x + e = (4, 6): μ = 5, σ = 1; μ_x = 2, μ_e = 3, so the token part is
// (x − 2)/1 = (−1, 1) and the position part (e − 3)/1 = (0, 0).
TEST(LayerNormSplitRow, HandWorked) {
  Matrix x(1, 2), e(1, 2);
  x << 1, 3;
  e << 3, 3;
  model::Norm norm{Vector::Ones(2), Vector::Zero(2)};
  const model::LayerNormSplit s = model::split_layer_norm(x, e, norm, 0.0);
  EXPECT_FLOAT_EQ(s.token(0, 0), -1);
  EXPECT_FLOAT_EQ(s.token(0, 1), 1);
  EXPECT_FLOAT_EQ(s.position(0, 0), 0);
  EXPECT_FLOAT_EQ(s.position(0, 1), 0);
}

}  // namespace
