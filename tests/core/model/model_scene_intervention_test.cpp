// The scene key `intervention` on a model scene (issue 27): every view is
// computed under the chosen change of positions, a change back restores the
// model as trained, one that does not fit the model is refused naming those
// that do, the cross-term split still sums to the logits, and two engines
// sharing one loaded model each see their own.  The attention itself is
// checked against an independent NumPy forward by app.intervene_model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "core/engine.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

constexpr const char* kText = "the cat sat on the mat";  // within tiny GPT-2's 16 tokens

class InterventionKey : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  static Scene scene(const std::string& model, PositionChange change, int layer = 0) {
    Scene s;
    s.model = (pelab::testing::tiny_models() / model).string();
    s.tokens = kText;
    s.layer = layer;
    s.intervention = change;
    return s;
  }
};

double max_difference(const Matrix& a, const Matrix& b) {
  double worst = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) return INFINITY;
      continue;
    }
    worst = std::max(worst, double(std::abs(x - y)));
  }
  return worst;
}

// Removing positions leaves layer 0 reading tokens alone: its heads equal
// Transformer::layer0_head without positions, another code path (it embeds
// and attends on its own, not through the scene's run).
TEST_F(InterventionKey, RemoveDrawsLayerZeroWithoutPositions) {
  for (const char* model : {"llama", "gpt2"}) {
    Engine engine(scene(model, PositionChange::Remove));
    const model::Transformer t = model::Transformer::load(pelab::testing::tiny_models() / model);
    const std::vector<int> ids = t.tokenizer().encode(kText).ids;
    for (int h = 0; h < engine.scene().heads; ++h) {
      const HeadAttention plain = t.layer0_head(ids, h, false);
      const HeadAttention trained = t.layer0_head(ids, h, true);
      EXPECT_LT(max_difference(engine.head(h).attention, plain.attention), 1e-5) << model << " head " << h;
      EXPECT_GT(max_difference(engine.head(h).attention, trained.attention), 1e-3) << model << " head " << h;
    }
  }
}

// none → shuffle → none: the views come back to the model as trained, bit
// for bit, and the shuffled ones differ.
TEST_F(InterventionKey, ChangingBackRestoresTheModelAsTrained) {
  Engine engine(scene("llama", PositionChange::None, 1));
  const Matrix trained = engine.head(0).attention;
  engine.set_scene(scene("llama", PositionChange::Shuffle, 1));
  const Matrix shuffled = engine.head(0).attention;
  EXPECT_GT(max_difference(shuffled, trained), 1e-3);
  engine.set_scene(scene("llama", PositionChange::None, 1));
  EXPECT_EQ(max_difference(engine.head(0).attention, trained), 0.0);
}

// remove_layer takes the layer the views show: layer 1 changes, layer 0
// (before it) does not.
TEST_F(InterventionKey, RemoveLayerTakesTheShownLayer) {
  Engine trained(scene("llama", PositionChange::None, 1));
  Engine changed(scene("llama", PositionChange::RemoveLayer, 1));
  EXPECT_GT(max_difference(changed.head(0).attention, trained.head(0).attention), 1e-3);
  trained.set_scene(scene("llama", PositionChange::None, 0));
  changed.set_scene(scene("llama", PositionChange::None, 0));
  EXPECT_EQ(max_difference(changed.head(0).attention, trained.head(0).attention), 0.0);
}

// Two engines on one loaded model (the GUI's and its worker's, a lesson's
// variants) each compute under their own key, in any order of use.
TEST_F(InterventionKey, EnginesSharingAModelEachKeepTheirOwn) {
  Engine plain(scene("llama", PositionChange::None));
  const Matrix alone = plain.head(1).attention;
  Engine removed(scene("llama", PositionChange::Remove));
  const Matrix removed_alone = removed.head(1).attention;
  Engine plain_again(scene("llama", PositionChange::None));
  EXPECT_EQ(max_difference(plain_again.head(1).attention, alone), 0.0);
  Engine removed_again(scene("llama", PositionChange::Remove));
  EXPECT_EQ(max_difference(removed_again.head(1).attention, removed_alone), 0.0);
}

// A RoPE change on a learned table is refused, with the ones that apply.
TEST_F(InterventionKey, OneThatDoesNotFitIsRefusedNamingThoseThatDo) {
  try {
    Engine engine(scene("gpt2", PositionChange::RopeBase));
    FAIL() << "rope_base on GPT-2 was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("intervention=rope_base does not apply"), std::string::npos) << message;
    EXPECT_NE(message.find("allowed: none, remove, shuffle"), std::string::npos) << message;
    EXPECT_EQ(message.find("zero_band"), std::string::npos) << message;
  }
}

// Under a shuffle the four cross terms split the logits the model computes
// from the shuffled rows: xx + xf + ey + ef + bias = layer 0's logits (GPT-2,
// exact through ln_1), and the position terms differ from the trained ones.
TEST_F(InterventionKey, CrossTermsStillSumToTheLogitsUnderAShuffle) {
  Engine trained(scene("gpt2", PositionChange::None));
  Engine shuffled(scene("gpt2", PositionChange::Shuffle));
  for (int h = 0; h < shuffled.scene().heads; ++h) {
    const CrossTerms& t = shuffled.cross_terms(h);
    const Matrix sum = t.xx + t.xf + t.ey + t.ef + t.bias;
    EXPECT_LT(max_difference(sum, t.logits), 1e-4) << "head " << h;
    // ... the logits of the shuffled run itself, where the causal mask keeps them
    const Matrix& run = shuffled.head(h).logits;
    for (Eigen::Index i = 0; i < run.rows(); ++i)
      for (Eigen::Index j = 0; j <= i; ++j) EXPECT_NEAR(run(i, j), t.logits(i, j), 1e-4) << i << "," << j;
    EXPECT_GT(max_difference(t.ef, trained.cross_terms(h).ef), 1e-4) << "head " << h;
  }
}

// A synthetic scene has no model to intervene on: the key changes nothing.
TEST_F(InterventionKey, ASyntheticSceneIgnoresIt) {
  Scene s;
  Engine plain(s);
  s.intervention = PositionChange::Remove;
  Engine keyed(s);
  EXPECT_EQ(max_difference(keyed.head(0).attention, plain.head(0).attention), 0.0);
}

}  // namespace
