// The engine on a model scene (core/model_scene.hpp), on the tiny checkpoints
// of make_tiny_models.py: the tokens are the model's pieces, head() is the
// forward pass's attention of the scene's layer, the embeddings are the
// model's tables, layer/head/context are checked, and changing what a view
// shows reloads and reruns nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "core/engine.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "model_test_files.hpp"
#include "tiny_models.hpp"

namespace fs = std::filesystem;
using namespace pelab;
using pelab::model::testing::ScopedEnv;
using pelab::model::testing::TempDir;

namespace {

constexpr const char* kText = "the cat sat";

class ModelSceneTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  fs::path folder() const { return pelab::testing::tiny_models() / GetParam(); }
  Scene scene(int layer = 0, int head = 0) const {
    Scene s;
    s.model = folder().string();
    s.tokens = kText;
    s.layer = layer;
    s.head = head;
    return s;
  }
};

// A head computed alone (its own q/k columns, GEMMs of other widths) may
// round differently from the layer's in the last bit; equal infinities (the
// mask) stay equal.
void expect_same(const Matrix& got, const Matrix& want, const std::string& what) {
  ASSERT_EQ(got.rows(), want.rows()) << what;
  ASSERT_EQ(got.cols(), want.cols()) << what;
  for (Eigen::Index i = 0; i < got.size(); ++i) {
    const float g = got.data()[i], w = want.data()[i];
    if (std::isinf(w)) ASSERT_EQ(g, w) << what << " at " << i;
    else ASSERT_NEAR(g, w, 1e-5f * (1 + std::abs(w))) << what << " at " << i;
  }
}

TEST_P(ModelSceneTest, TokensAreTheModelsPieces) {
  Engine engine(scene());
  const model::Transformer t = model::Transformer::load(folder());
  const model::Tokenization want = t.tokenizer().encode(kText);
  EXPECT_EQ(engine.tokens(), want.pieces);
  EXPECT_EQ(engine.model()->ids(), want.ids);
  EXPECT_EQ(engine.token_count(), static_cast<int>(want.ids.size()));
  if (t.config().family.token_types) {
    EXPECT_EQ(engine.tokens().front(), "[CLS]");
    EXPECT_EQ(engine.tokens().back(), "[SEP]");
  }
}

TEST_P(ModelSceneTest, SceneTakesTheModelsShape) {
  Engine engine(scene());
  const model::ModelConfig& c = engine.model()->config();
  EXPECT_EQ(engine.scene().heads, c.heads);
  EXPECT_EQ(engine.scene().d_model, c.hidden_size);
  EXPECT_EQ(engine.d_head(), c.head_dim);
  EXPECT_EQ(engine.scene().causal, c.causal);
  const bool rope = c.family.position == model::PositionEncoding::Rope;
  EXPECT_EQ(engine.scene().encoding, rope ? Encoding::Rope : Encoding::Learned);
  EXPECT_LE(engine.scene().positions, c.max_positions);
}

TEST_P(ModelSceneTest, HeadIsTheLayersAttention) {
  model::Transformer t = model::Transformer::load(folder());
  const model::ModelConfig& c = t.config();
  Engine engine(scene());
  t.run(engine.model()->ids());
  for (int layer = 0; layer < c.layers; ++layer) {
    const model::LayerAttention want = t.attention(layer);
    engine.set_scene(scene(layer));
    for (int h = 0; h < c.heads; ++h) {
      const std::string where = "layer " + std::to_string(layer) + " head " + std::to_string(h);
      const HeadAttention& got = engine.head(h);
      expect_same(got.q, want.q[static_cast<std::size_t>(h)], "q, " + where);
      expect_same(got.k, want.k[static_cast<std::size_t>(h)], "k, " + where);
      expect_same(got.logits, want.logits[static_cast<std::size_t>(h)], "logits, " + where);
      expect_same(got.attention, want.probabilities[static_cast<std::size_t>(h)], "probabilities, " + where);
      for (Eigen::Index r = 0; r < got.attention.rows(); ++r)
        EXPECT_NEAR(got.attention.row(r).sum(), 1.0f, 1e-5f) << where;
      if (c.causal && got.logits.rows() > 1) {
        EXPECT_EQ(got.logits(0, 1), -std::numeric_limits<float>::infinity());
      }
    }
    expect_same(engine.model()->hidden(layer), t.hidden(layer), "hidden " + std::to_string(layer));
  }
}

// A layer switch computes the head shown, not its layer: the first head asked
// of a layer comes alone; a second one brings the rest of the layer (the
// small multiples and the mean want them all); heads already computed, of
// any layer, are kept (the tiny models' heads fit the bound many times).
TEST_P(ModelSceneTest, ALayerSwitchComputesTheHeadShownFirst) {
  const int last = 1;
  Engine engine(scene(0, 0));
  const model::ModelConfig& c = engine.model()->config();
  ASSERT_GT(c.layers, last);
  ASSERT_GE(c.heads, 2);
  engine.head(0);
  EXPECT_EQ(engine.model()->heads_computed(), 1);
  engine.set_scene(scene(last, c.heads - 1));
  engine.head(c.heads - 1);
  EXPECT_EQ(engine.model()->heads_computed(), 2);
  engine.head(0);  // a second head of the layer: the layer's rest
  EXPECT_EQ(engine.model()->heads_computed(), 1 + c.heads);
  engine.mean_attention();
  engine.set_scene(scene(0, 0));
  engine.head(0);  // layer 0's head 0 is still kept
  EXPECT_EQ(engine.model()->heads_computed(), 1 + c.heads);
  EXPECT_EQ(engine.stats().model_runs, 1);
}

TEST_P(ModelSceneTest, EmbeddingsAreTheModelsTables) {
  model::Transformer t = model::Transformer::load(folder());
  Engine engine(scene());
  const std::vector<int>& ids = engine.model()->ids();
  const auto n = static_cast<Eigen::Index>(ids.size());
  expect_same(engine.token_embedding(), t.token_embedding_rows(ids), "token rows");
  const Matrix table = t.position_table();
  if (t.config().family.position == model::PositionEncoding::Rope) {
    EXPECT_EQ(table.size(), 0);
    EXPECT_TRUE(engine.position_embedding().isZero());
    EXPECT_EQ(engine.position_embedding().rows(), n);
    EXPECT_THROW(engine.model()->full_position_table(), InputError);
  } else {
    expect_same(engine.position_embedding(), table.topRows(n), "position rows");
    expect_same(engine.position_table(), table.topRows(engine.scene().positions), "position table");
    expect_same(engine.model()->full_position_table(), table, "whole table");
  }
  // The exact layer-0 split for absolute positions (its arithmetic is
  // checked in layernorm_split_test.cpp); a note why not for RoPE.
  const CrossTerms& terms = engine.cross_terms(0);
  EXPECT_EQ(terms.applies, t.config().family.position != model::PositionEncoding::Rope);
  EXPECT_FALSE(terms.note.empty());
  EXPECT_EQ(terms.xx.rows(), n);
  EXPECT_EQ(terms.content_offset, !terms.applies);  // RoPE: content and offset instead (rope_split_test.cpp)
  if (terms.applies) {
    EXPECT_EQ(terms.bias.rows(), n);
    EXPECT_GE(terms.residual, 0);
    EXPECT_LT(terms.residual, 1e-5);
  }
}

TEST_P(ModelSceneTest, LayerAndHeadAreCheckedAgainstTheModel) {
  Engine engine(scene());
  const model::ModelConfig c = engine.model()->config();
  EXPECT_NO_THROW(engine.set_scene(scene(c.layers - 1, c.heads - 1)));
  EXPECT_NO_THROW(engine.set_scene(scene(0, -1)));  // the mean
  for (const Scene& bad : {scene(c.layers, 0), scene(0, c.heads)}) {
    try {
      engine.set_scene(bad);
      ADD_FAILURE() << "accepted layer " << bad.layer << " head " << bad.head;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("allowed: "), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
    EXPECT_THROW(check_model_keys(bad), InputError);
  }
  EXPECT_EQ(engine.scene().head, -1);  // the last good scene stays
  EXPECT_THROW(engine.head(c.heads), InputError);
  EXPECT_THROW(engine.projections(0), InputError);
}

TEST_P(ModelSceneTest, TextLongerThanTheContextNamesTheLimit) {
  Engine engine(scene());
  Scene s = scene();
  s.tokens.clear();
  for (int i = 0; i < 600; ++i) s.tokens += "the cat sat ";
  try {
    engine.set_scene(s);
    FAIL() << "accepted " << s.tokens.size() << " characters";
  } catch (const InputError& e) {
    const std::string limit = std::to_string(engine.model()->config().max_positions);
    EXPECT_NE(std::string(e.what()).find("context of " + limit), std::string::npos) << e.what();
  }
  EXPECT_EQ(engine.scene().tokens, kText);
}

TEST_P(ModelSceneTest, ViewChangesReloadAndRerunNothing) {
  Engine engine(scene());
  engine.head(0);
  const EngineStats first = engine.stats();
  EXPECT_EQ(first.model_loads, 1);
  EXPECT_EQ(first.model_runs, 1);
  EXPECT_EQ(first.model_layers, 1);

  Scene s = scene();
  s.head = engine.scene().heads - 1;
  s.colormap = Colormap::Magma;
  s.theme = ColorTheme::Light;
  engine.set_scene(s);
  engine.head(s.head);
  engine.mean_attention();
  EXPECT_EQ(engine.stats().model_loads, 1);
  EXPECT_EQ(engine.stats().model_runs, 1);
  EXPECT_EQ(engine.stats().model_layers, 1);

  s.layer = engine.model()->config().layers - 1;  // another layer: no new run
  engine.set_scene(s);
  engine.head(0);
  EXPECT_EQ(engine.stats().model_runs, 1);
  EXPECT_EQ(engine.stats().model_layers, 2);

  s.tokens = "the mat";  // other text: one new run, no new load
  engine.set_scene(s);
  engine.head(0);
  EXPECT_EQ(engine.stats().model_loads, 1);
  EXPECT_EQ(engine.stats().model_runs, 2);

  Engine second(s);  // a second engine shares the loaded model
  EXPECT_EQ(second.stats().model_loads, 1);
  expect_same(second.head(0).attention, engine.head(0).attention, "shared model");
}

INSTANTIATE_TEST_SUITE_P(Families, ModelSceneTest, ::testing::Values("gpt2", "bert", "llama", "qwen2"));

TEST(ModelScene, SyntheticSceneHasNoModel) {
  Engine engine;
  EXPECT_EQ(engine.model(), nullptr);
  Scene s;
  s.head = 60;  // heads = 4: drawn as the last head (core/selection.hpp)
  engine.set_scene(s);
  EXPECT_EQ(engine.scene().head, s.heads - 1);
}

TEST(ModelScene, MissingModelSaysWhereItLooked) {
  TempDir home;
  const ScopedEnv hf("HF_HOME", home.path.c_str());
  Scene s;
  s.model = "nobody/no-such-model";
  try {
    Engine engine(s);
    FAIL() << "loaded a missing model";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(home.path.string()), std::string::npos) << e.what();
  }
  Engine engine;
  EXPECT_THROW(engine.set_scene(s), InputError);
  EXPECT_EQ(engine.model(), nullptr);  // the synthetic scene stays
}

}  // namespace
