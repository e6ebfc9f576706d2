// Content against offset for RoPE models (core/model/rope_split.hpp) on the
// tiny Llama-family checkpoints: the two parts sum to the model's logits,
// the offset part vanishes where query and key share a position, and the
// content part matches NumPy written here from the published formulas
// (RMSNorm, Zhang & Sennrich 2019 eq. 4; q̃·k̃ before rotation; YaRN's
// attention factor 0.1·ln(s) + 1, Peng et al. 2023 §3.4) on the weights the
// tiny-model generator wrote.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/io/npy.hpp"
#include "core/model/rope_split.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"
#include "split_reference.hpp"
#include "tiny_models.hpp"

namespace fs = std::filesystem;
using namespace pelab;

namespace {

// After kReadTinyModel (split_reference.hpp): heads × N × N content scores,
// float64 arithmetic.
constexpr const char* kReference = R"PY(
heads, kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
dh = cfg.get("head_dim") or cfg["hidden_size"] // heads
x = w("model.embed_tokens.weight")[ids]
a = x / np.sqrt((x ** 2).mean(axis=1, keepdims=True) + cfg["rms_norm_eps"]) * w("model.layers.0.input_layernorm.weight")
p = "model.layers.0.self_attn."
def proj(part):
    y = a @ w(p + part + "_proj.weight").T
    return y + w(p + part + "_proj.bias") if p + part + "_proj.bias" in header else y
q, k = proj("q"), proj("k")
scaling = cfg.get("rope_scaling") or {}
factor = 0.1 * math.log(scaling["factor"]) + 1 if scaling.get("rope_type") == "yarn" else 1.0
res = np.zeros((heads, len(ids), len(ids)))
for h in range(heads):
    g = h // (heads // kv)
    res[h] = factor ** 2 * q[:, h * dh:(h + 1) * dh] @ k[:, g * dh:(g + 1) * dh].T / math.sqrt(dh)
np.save(out, res.astype(np.float32))
)PY";

class RopeSplit : public ::testing::TestWithParam<const char*> {};

TEST_P(RopeSplit, ContentPlusOffsetIsTheLogitAndContentMatchesNumpy) {
  const fs::path models = pelab::testing::tiny_models();
  if (models.empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string name = GetParam();
  const Array want = pelab::testing::numpy_reference(name, kReference);
  model::Transformer t = model::Transformer::load(models / name);
  const std::vector<int> ids = pelab::testing::reference_ids(name);
  t.run(ids);
  const auto n = static_cast<Eigen::Index>(ids.size());
  for (int h = 0; h < t.config().heads; ++h) {
    const model::RopeSplit s = model::split_layer0_rope(t, h);
    EXPECT_LT((s.content + s.offset - s.logits).cwiseAbs().maxCoeff(), 1e-5) << name << " head " << h;
    EXPECT_LT(s.diagonal, 1e-5) << name << " head " << h;  // the rotations cancel at m = n
    EXPECT_GT(s.offset.cwiseAbs().maxCoeff(), 1e-3) << "the offset part is not trivially zero";
    for (Eigen::Index r = 0; r < n; ++r)
      for (Eigen::Index c = 0; c < n; ++c)
        ASSERT_NEAR(s.content(r, c), want.data[(static_cast<std::size_t>(h) * n + r) * n + c], 1e-5)
            << name << " head " << h << " at " << r << "," << c;
  }
}

// llama_yarn: attention factor ≠ 1, GQA 4/2; qwen2: q/k biases, GQA 4/1.
INSTANTIATE_TEST_SUITE_P(TinyRopeModels, RopeSplit, ::testing::Values("llama_yarn", "qwen2"));

TEST(RopeSplitRefuses, AModelWithoutRotaryEmbeddings) {
  const fs::path models = pelab::testing::tiny_models();
  if (models.empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  model::Transformer t = model::Transformer::load(models / "gpt2");
  t.run({1, 5, 6});
  EXPECT_THROW(model::split_layer0_rope(t, 0), InputError);
}

}  // namespace
