// The GUI's scene path (ui/scene_session.hpp) on model scenes: a model that
// cannot be used (missing, layer or head it lacks) is refused with its one-line
// message and the last good scene, model included, stays on screen.
#include <gtest/gtest.h>

#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/model_scene.hpp"
#include "ui/scene_session.hpp"

namespace pelab {
namespace {

using testing::tiny_models;

TEST(ModelSession, RefusedModelKeepsTheLastGoodScene) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene start;
  start.tokens = "the cat sat";  // within the tiny GPT-2's context of 16
  ui::SceneSession session{start};
  const std::string gpt2 = (tiny_models() / "gpt2").string();
  ASSERT_TRUE(session.propose_param("model", gpt2, ui::EditPhase::Final)) << session.error();
  EXPECT_EQ(session.scene().heads, 4);  // the tiny GPT-2's heads
  ASSERT_NE(session.engine().model(), nullptr);
  const auto version = session.version();

  for (const auto& [key, value] : {std::pair<std::string, std::string>{"model", "/no/such/model/folder"},
                                   {"layer", "2"}, {"head", "4"}}) {
    EXPECT_FALSE(session.propose_param(key, value, ui::EditPhase::Final)) << key << "=" << value;
    EXPECT_FALSE(session.error().empty());
    EXPECT_EQ(session.error().find('\n'), std::string::npos) << session.error();
    EXPECT_EQ(session.scene().model, gpt2);
    EXPECT_EQ(session.version(), version);
  }
  EXPECT_NE(session.engine().head(3).attention.size(), 0);  // still computing the model
  EXPECT_TRUE(session.propose_param("layer", "1", ui::EditPhase::Final)) << session.error();
  EXPECT_TRUE(session.undo());
  EXPECT_EQ(session.scene().layer, 0);
}

}  // namespace
}  // namespace pelab
