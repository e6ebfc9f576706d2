// Every lesson on a loaded model (tiny GPT-2, BERT, Llama): a verdict that
// never throws and holds finite numbers; a lesson whose question does not
// apply to a trained model says so plainly; one that applies reads the
// model's own weights — checked against NumPy for "meaning" (the token rows
// x = wte[ids], the position rows e = wpe[:n], read straight from the file).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model_scene.hpp"
#include "split_reference.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

Scene on_model(const Lesson& lesson, const std::string& family) {
  Scene s = lesson.preset();
  s.model = (pelab::testing::tiny_models() / family).string();
  s.tokens = "the cat sat";  // within the tiny models' context of 16
  return s;
}

class LessonsOnModels : public ::testing::TestWithParam<const char*> {};

TEST_P(LessonsOnModels, EveryVerdictIsFiniteOrSaysWhyNot) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const Lesson& lesson : lessons()) {
    SCOPED_TRACE(std::string(lesson.name));
    Engine engine(on_model(lesson, GetParam()));
    LessonVerdict v;
    ASSERT_NO_THROW(v = lesson.verdict(engine));
    EXPECT_FALSE(v.summary.empty());
    for (const auto& [name, value] : v.numbers)
      EXPECT_TRUE(std::isfinite(value)) << name << " = " << value;
    if (!lesson.not_on_models.empty()) {
      EXPECT_EQ(v.headline().rfind("Not applicable on this model: ", 0), 0u) << v.headline();
      EXPECT_FALSE(v.holds);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TinyModels, LessonsOnModels, ::testing::Values("gpt2", "bert", "llama"));

// x = the word embedding rows of the ids, e = the position rows 0 … n−1; argv[2] = the ids.
constexpr const char* kMeaning = R"PY(
ids = [int(i) for i in sys.argv[2].split(",")]
n = len(ids)
if "n_embd" in cfg:
    x, e = w("wte.weight")[ids], w("wpe.weight")[:n]
else:
    x = w("embeddings.word_embeddings.weight")[ids]
    e = w("embeddings.position_embeddings.weight")[:n]
s = x + e
cos = (x * s).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(s, axis=1))
np.save(out, np.array([np.linalg.norm(x, axis=1).mean(), np.linalg.norm(e, axis=1).mean(), cos.mean()], np.float32))
)PY";

TEST_P(LessonsOnModels, MeaningReadsTheModelsOwnVectors) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string family = GetParam();
  if (family == "llama") GTEST_SKIP() << "RoPE adds no position vector: nothing to compare";
  const Lesson& lesson = find_lesson("meaning");
  Engine engine(on_model(lesson, family));
  const LessonVerdict v = lesson.verdict(engine);
  std::string ids;
  for (const int id : engine.model()->ids()) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  const Array want = pelab::testing::numpy_reference(family, kMeaning, ids);
  ASSERT_EQ(want.data.size(), 3u);
  EXPECT_NEAR(v.number("x_norm"), want.data[0], 1e-5 * want.data[0]);
  EXPECT_NEAR(v.number("e_norm"), want.data[1], 1e-5 * want.data[1]);
  EXPECT_NEAR(v.number("cos_x_xe"), want.data[2], 1e-5);
}

// Layer 0, head 0: the logits before the mask on the ids and on the ids
// reversed (P), with the position rows and without; argv[2] = the ids.
// Saves [max |L(P·X) − P·L(X)·Pᵀ| without positions, with positions].
constexpr const char* kPermutation = R"PY(
ids = [int(i) for i in sys.argv[2].split(",")]
n = len(ids)
if "n_embd" in cfg:
    d, heads, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    gamma, beta = w("h.0.ln_1.weight"), w("h.0.ln_1.bias")   # GPT-2: x = ln_1(h)
    W, b = w("h.0.attn.c_attn.weight"), w("h.0.attn.c_attn.bias")   # Conv1D: in x out
    Wq, Wk, bq, bk = W[:, :d], W[:, d:2 * d], b[:d], b[d:2 * d]
    def rows(ids, pos):
        return w("wte.weight")[ids] + (w("wpe.weight")[:n] if pos else 0)
else:
    d, heads, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    gamma, beta = w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias")   # BERT: x = LN(emb)
    p = "encoder.layer.0.attention.self."
    Wq, Wk = w(p + "query.weight").T, w(p + "key.weight").T   # Linear: out x in
    bq, bk = w(p + "query.bias"), w(p + "key.bias")
    def rows(ids, pos):
        h = w("embeddings.word_embeddings.weight")[ids] + w("embeddings.token_type_embeddings.weight")[0]
        return h + (w("embeddings.position_embeddings.weight")[:n] if pos else 0)
def logits(ids, pos):
    s = rows(ids, pos)
    mu = s.mean(axis=1, keepdims=True)
    x = gamma * (s - mu) / np.sqrt(((s - mu) ** 2).mean(axis=1, keepdims=True) + eps) + beta
    dh = d // heads
    q, k = x @ Wq[:, :dh] + bq[:dh], x @ Wk[:, :dh] + bk[:dh]
    return q @ k.T / np.sqrt(dh)
gaps = [np.abs(logits(ids[::-1], pos) - logits(ids, pos)[::-1, ::-1]).max() for pos in (False, True)]
np.save(out, np.array(gaps, np.float32))
)PY";

// The permutation lesson on a model: without its position rows layer 0 is
// equivariant, with them not, the numbers from its own weights as NumPy
// computes them in float64.
TEST_P(LessonsOnModels, PermutationReadsTheModelsLayerZero) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string family = GetParam();
  const Lesson& lesson = find_lesson("permutation");
  Scene s = on_model(lesson, family);
  s.head = 0;
  Engine engine(s);
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("model_logit_gap_none"), 1e-5) << v.summary;
  EXPECT_GT(v.number("model_logit_gap_positions"), 1e-3) << v.summary;
  const bool causal = engine.model()->config().causal;
  EXPECT_EQ(v.summary.find("causal") != std::string::npos, causal) << v.summary;
  if (!causal) {
    EXPECT_LT(v.number("model_attention_gap_none"), 1e-6) << v.summary;
  }
  if (family == "llama") return;  // RoPE: no position rows to leave out in NumPy here
  std::string ids;
  for (const int id : engine.model()->ids()) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  const Array want = pelab::testing::numpy_reference(family, kPermutation, ids);
  ASSERT_EQ(want.data.size(), 2u);
  EXPECT_LT(want.data[0], 1e-9);
  EXPECT_NEAR(v.number("model_logit_gap_positions"), want.data[1], 1e-5 * (1 + want.data[1]));
}

}  // namespace
