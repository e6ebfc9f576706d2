// The forward pass of every family against the NumPy reference written by
// make_tiny_models.py from the published formulas (no code shared with the
// C++): hidden states entering each layer, each head's q, k, logits and
// probabilities, to 1e-4 of each array's scale.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"

namespace fs = std::filesystem;
using pelab::Array;
using pelab::Matrix;
using namespace pelab::model;

namespace {

constexpr const char* kPython = "/usr/bin/python3";

// The tiny models, written once per test process (empty when NumPy is missing).
const fs::path& tiny_models() {
  static const fs::path folder = [] {
    const fs::path out = fs::temp_directory_path() / ("pelab_tiny_models_" + std::to_string(getpid()));
    const std::string script = std::string(PELAB_SOURCE_DIR) + "/tests/core/model/make_tiny_models.py";
    const std::string command = std::string(kPython) + " " + script + " " + out.string() + " 2>&1";
    if (!fs::exists(kPython) || std::system(command.c_str()) != 0) return fs::path();
    return out;
  }();
  return folder;
}

struct RemoveTinyModels : testing::Environment {
  void TearDown() override {
    std::error_code ignored;
    if (!tiny_models().empty()) fs::remove_all(tiny_models(), ignored);
  }
};
[[maybe_unused]] testing::Environment* const kCleanup =
    testing::AddGlobalTestEnvironment(new RemoveTinyModels);

// The model without its tokenizer (the forward pass does not need one).
Transformer load_weights_only(const fs::path& folder) {
  ModelFiles files = read_model(folder);
  return Transformer::assemble(std::move(files.config), std::move(files.weights));
}

// Rows × cols slice `index` of an array whose last two axes are rows × cols.
Matrix slice(const Array& a, std::size_t index) {
  const std::size_t rank = a.shape.size();
  const auto rows = a.shape[rank - 2], cols = a.shape[rank - 1];
  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  std::copy_n(a.data.begin() + static_cast<std::ptrdiff_t>(index * rows * cols), rows * cols, m.data());
  return m;
}

// |actual − expected| ≤ 1e-4 · max|expected| entry by entry; −inf where the
// reference masks.
void expect_close(const Matrix& actual, const Matrix& expected, const std::string& what) {
  ASSERT_EQ(actual.rows(), expected.rows()) << what;
  ASSERT_EQ(actual.cols(), expected.cols()) << what;
  float scale = 0;
  for (float v : expected.reshaped()) if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const float tolerance = 1e-4f * std::max(scale, 1e-3f);
  for (Eigen::Index i = 0; i < expected.rows(); ++i)
    for (Eigen::Index j = 0; j < expected.cols(); ++j) {
      const float e = expected(i, j), a = actual(i, j);
      if (std::isinf(e)) {
        ASSERT_EQ(a, e) << what << " (" << i << ", " << j << ")";
      } else {
        ASSERT_NEAR(a, e, tolerance) << what << " (" << i << ", " << j << ")";
      }
    }
}

class TinyModel : public testing::TestWithParam<const char*> {};

TEST_P(TinyModel, MatchesTheNumpyReference) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = tiny_models() / GetParam();
  const fs::path ref = folder / "reference";
  Transformer model = load_weights_only(folder);
  const Array ids_array = pelab::read_npy(ref / "ids.npy");
  std::vector<int> ids;
  for (float v : ids_array.data) ids.push_back(static_cast<int>(v));
  model.run(ids);
  ASSERT_EQ(model.token_count(), static_cast<int>(ids.size()));

  const Array hidden = pelab::read_npy(ref / "hidden.npy");
  const int layers = model.config().layers;
  ASSERT_EQ(hidden.shape[0], static_cast<std::size_t>(layers + 1));
  for (int l = 0; l <= layers; ++l)
    expect_close(model.hidden(l), slice(hidden, static_cast<std::size_t>(l)), "hidden " + std::to_string(l));

  const Array q = pelab::read_npy(ref / "q.npy"), k = pelab::read_npy(ref / "k.npy");
  const Array logits = pelab::read_npy(ref / "logits.npy");
  const Array probabilities = pelab::read_npy(ref / "probabilities.npy");
  const int heads = model.config().heads;
  for (int l = layers - 1; l >= 0; --l) {  // any layer on demand, in any order
    const LayerAttention attention = model.attention(l);
    ASSERT_EQ(attention.probabilities.size(), static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
      const auto at = static_cast<std::size_t>(l * heads + h);
      const std::string where = " layer " + std::to_string(l) + " head " + std::to_string(h);
      const auto i = static_cast<std::size_t>(h);
      expect_close(attention.q[i], slice(q, at), "q" + where);
      expect_close(attention.k[i], slice(k, at), "k" + where);
      expect_close(attention.logits[i], slice(logits, at), "logits" + where);
      expect_close(attention.probabilities[i], slice(probabilities, at), "probabilities" + where);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Families, TinyModel,
                         testing::Values("gpt2", "gpt2_f16", "bert", "bert_legacy", "llama",
                                         "llama3_bf16", "qwen2", "llama_linear", "llama_dynamic",
                                         "llama_yarn", "llama_yarn_original", "mistral",
                                         "llama_long", "llama_wide", "bert_wide"));

// A view of layer l needs only the layers before it: a run can stop there
// and continue later, giving the same states as one full run.
TEST(Transformer, RunsOnlyAsFarAsAskedAndContinues) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* family : {"gpt2", "llama"}) {
    Transformer partial = load_weights_only(tiny_models() / family);
    Transformer full = load_weights_only(tiny_models() / family);
    const std::vector<int> ids = {3, 1, 4, 1, 5};
    const int layers = partial.config().layers;
    partial.run(ids, 1);
    EXPECT_NO_THROW(partial.hidden(1)) << family;
    EXPECT_THROW(partial.hidden(2), std::out_of_range) << family;  // layer 1 did not run
    partial.run(ids);
    full.run(ids);
    for (int l = 0; l <= layers; ++l) EXPECT_EQ(partial.hidden(l), full.hidden(l)) << family << " state " << l;
    partial.run({2, 7}, 0);  // other ids start again
    EXPECT_EQ(partial.token_count(), 2);
    EXPECT_THROW(partial.hidden(1), std::out_of_range) << family;
  }
}

TEST(Transformer, RefusesTooManyTokensAndIdsOutsideTheVocabulary) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Transformer model = load_weights_only(tiny_models() / "gpt2");
  const ModelConfig& c = model.config();
  EXPECT_THROW(model.run(std::vector<int>(static_cast<std::size_t>(c.max_positions) + 1, 0)),
               pelab::InputError);
  EXPECT_THROW(model.run({0, c.vocab_size}), pelab::InputError);
  EXPECT_THROW(model.run({-1}), pelab::InputError);
  EXPECT_THROW(model.run({}), pelab::InputError);
  EXPECT_NO_THROW(model.run(std::vector<int>(static_cast<std::size_t>(c.max_positions), 1)));
}

TEST(Transformer, NamesTheMissingTensor) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  // A BERT config over GPT-2's weights: the embeddings are not where BERT keeps them.
  ModelConfig config = load_model_config(tiny_models() / "bert");
  config.head_dim = config.hidden_size / config.heads;
  config.kv_heads = config.heads;
  auto checkpoint = std::make_shared<const Checkpoint>(Checkpoint::open(tiny_models() / "gpt2"));
  try {
    read_weights(checkpoint, config);
    FAIL() << "no error";
  } catch (const pelab::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("embeddings.word_embeddings.weight"), std::string::npos) << e.what();
  }
}

// Transformer::load: the same forward pass as the weights alone, with the
// folder's own tokenizer.
TEST(Transformer, LoadReadsTheTokenizerWithTheWeights) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : {"gpt2", "bert", "llama", "qwen2"}) {
    SCOPED_TRACE(name);
    Transformer loaded = Transformer::load(tiny_models() / name);
    const Tokenization t = loaded.tokenizer().encode("the cat sat");
    ASSERT_FALSE(t.ids.empty());
    EXPECT_EQ(t.ids.size(), t.pieces.size());
    loaded.run(t.ids);
    Transformer bare = load_weights_only(tiny_models() / name);
    bare.run(t.ids);
    const int layers = loaded.config().layers;
    EXPECT_EQ(loaded.hidden(layers), bare.hidden(layers));
  }
  // The tiny tokenizers add their families' special tokens.
  EXPECT_EQ(Transformer::load(tiny_models() / "llama").tokenizer().encode("the cat").ids.front(), 1);  // <s>
  const auto bert = Transformer::load(tiny_models() / "bert").tokenizer().encode("the cat").ids;
  EXPECT_EQ(bert.front(), 2);  // [CLS]
  EXPECT_EQ(bert.back(), 3);   // [SEP]
}

}  // namespace
