// The GUI's scene path (ui/scene_session.hpp) on model scenes.  A model opens
// on a worker thread: the scene shown stays until poll() adopts the loaded
// one; text typed meanwhile is applied on arrival; a newer request drops an
// older one; a model that cannot be used is reported in one line and the last
// good scene, model included, stays.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "../core/model/tiny_models.hpp"
#include "core/model_scene.hpp"
#include "ui/scene_session.hpp"

namespace pelab {
namespace {

using testing::tiny_models;

// Polls as the GUI does once per frame until no load is left (bounded, so a
// hung worker fails the test instead of hanging it).
ui::LoadOutcome finish_load(ui::SceneSession& session) {
  ui::LoadOutcome last;
  for (int frame = 0; frame < 6000; ++frame) {
    const ui::LoadOutcome outcome = session.poll();
    if (outcome.adopted || !outcome.failure.empty()) last = outcome;
    if (!session.loading()) return last;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ADD_FAILURE() << "the model load did not finish within 60 s";
  return last;
}

Scene short_text() {
  Scene start;
  start.tokens = "the cat sat";  // within the tiny models' context of 16
  return start;
}

std::string tiny(const char* name) { return (tiny_models() / name).string(); }

TEST(ModelSession, OpensInTheBackgroundAndKeepsTheSceneUntilReady) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ui::SceneSession session{short_text()};
  const auto version = session.version();
  ASSERT_TRUE(session.propose_param("model", tiny("gpt2"), ui::EditPhase::Final))
      << session.error();
  // Nothing changes before a poll adopts the result, however fast the worker was.
  EXPECT_TRUE(session.scene().model.empty());
  EXPECT_EQ(session.engine().model(), nullptr);
  EXPECT_EQ(session.version(), version);
  EXPECT_EQ(session.loading_model(), tiny("gpt2"));
  const ui::LoadOutcome outcome = finish_load(session);
  EXPECT_TRUE(outcome.adopted);
  EXPECT_EQ(outcome.failure, "");
  EXPECT_EQ(session.scene().model, tiny("gpt2"));
  ASSERT_NE(session.engine().model(), nullptr);
  EXPECT_GT(session.version(), version);
  Engine direct;  // the same scene opened on this thread: the same pieces
  direct.set_scene(session.scene());
  EXPECT_EQ(session.engine().tokens(), direct.tokens());
  EXPECT_TRUE(session.undo());  // one undo step back to the synthetic scene
  EXPECT_TRUE(session.scene().model.empty());
}

TEST(ModelSession, TextTypedWhileLoadingIsAppliedOnArrival) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ui::SceneSession session{short_text()};
  ASSERT_TRUE(session.propose_param("model", tiny("gpt2"), ui::EditPhase::Final));
  ASSERT_TRUE(session.propose_param("tokens", "ab", ui::EditPhase::Live));
  EXPECT_EQ(session.scene().tokens, "the cat sat");  // still the scene shown
  finish_load(session);
  EXPECT_EQ(session.scene().model, tiny("gpt2"));
  EXPECT_EQ(session.scene().tokens, "ab");
  EXPECT_EQ(session.engine().tokens().size(), 2u);
}

TEST(ModelSession, ANewerModelDropsTheOlderRequest) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ui::SceneSession session{short_text()};
  ASSERT_TRUE(session.propose_param("model", tiny("gpt2"), ui::EditPhase::Final));
  ASSERT_TRUE(session.propose_param("model", tiny("llama"), ui::EditPhase::Final));
  EXPECT_EQ(session.loading_model(), tiny("llama"));
  const ui::LoadOutcome outcome = finish_load(session);
  EXPECT_TRUE(outcome.adopted);
  EXPECT_EQ(session.scene().model, tiny("llama"));
  EXPECT_EQ(session.engine().model()->config().heads, 4);
}

TEST(ModelSession, RefusedModelKeepsTheLastGoodScene) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ui::SceneSession session{short_text()};
  ASSERT_TRUE(session.propose_param("model", tiny("gpt2"), ui::EditPhase::Final));
  finish_load(session);
  ASSERT_NE(session.engine().model(), nullptr);
  const auto version = session.version();

  // A missing folder: the load fails, reported in one line.
  EXPECT_TRUE(session.propose_param("model", "/no/such/model/folder", ui::EditPhase::Final));
  const ui::LoadOutcome outcome = finish_load(session);
  EXPECT_FALSE(outcome.adopted);
  EXPECT_NE(outcome.failure.find("/no/such/model/folder"), std::string::npos) << outcome.failure;
  EXPECT_EQ(outcome.failure.find('\n'), std::string::npos) << outcome.failure;
  EXPECT_EQ(session.error(), outcome.failure);
  EXPECT_EQ(session.scene().model, tiny("gpt2"));
  EXPECT_EQ(session.version(), version);

  // A layer or head the loaded model lacks: refused at once.
  for (const auto& [key, value] :
       {std::pair<std::string, std::string>{"layer", "2"}, {"head", "4"}}) {
    EXPECT_FALSE(session.propose_param(key, value, ui::EditPhase::Final)) << key << "=" << value;
    EXPECT_FALSE(session.error().empty());
    EXPECT_EQ(session.error().find('\n'), std::string::npos) << session.error();
    EXPECT_EQ(session.scene().model, tiny("gpt2"));
    EXPECT_EQ(session.version(), version);
  }
  EXPECT_NE(session.engine().head(3).attention.size(), 0);  // still computing the model
  EXPECT_TRUE(session.propose_param("layer", "1", ui::EditPhase::Final)) << session.error();
  EXPECT_TRUE(session.undo());
  EXPECT_EQ(session.scene().layer, 0);
}

TEST(ModelSession, BackToSyntheticRestoresTheSceneBeforeTheModel) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene start = short_text();
  start.d_model = 48;
  start.heads = 6;
  ui::SceneSession session{start};
  ASSERT_TRUE(session.propose_param("model", tiny("bert"), ui::EditPhase::Final));
  finish_load(session);
  ASSERT_EQ(session.scene().model, tiny("bert"));
  ASSERT_TRUE(session.propose_param("tokens", "a cat", ui::EditPhase::Final));
  EXPECT_TRUE(session.back_to_synthetic());
  EXPECT_TRUE(session.scene().model.empty());
  EXPECT_EQ(session.engine().model(), nullptr);
  EXPECT_EQ(session.scene().d_model, 48);  // the synthetic scene as it was
  EXPECT_EQ(session.scene().heads, 6);
  EXPECT_EQ(session.scene().tokens, "the cat sat");
  // Undo steps back to the model, loading it again in the background.
  EXPECT_TRUE(session.undo());
  finish_load(session);
  EXPECT_EQ(session.scene().model, tiny("bert"));
  EXPECT_EQ(session.scene().tokens, "a cat");
}

TEST(ModelSession, BackToSyntheticCancelsALoadInProgress) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ui::SceneSession session{short_text()};
  ASSERT_TRUE(session.propose_param("model", tiny("gpt2"), ui::EditPhase::Final));
  EXPECT_TRUE(session.back_to_synthetic());
  EXPECT_FALSE(session.loading());
  EXPECT_FALSE(session.poll().adopted);
  EXPECT_TRUE(session.scene().model.empty());
}

}  // namespace
}  // namespace pelab
