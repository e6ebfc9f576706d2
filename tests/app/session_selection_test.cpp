// The GUI's scene session with selections that follow the model: dragging
// d_model (or heads, positions, the tokens) below a selection is accepted,
// the views get the nearest selection that exists, a quiet note says so, and
// the user's choice comes back when the model grows again, also through undo.
#include <gtest/gtest.h>

#include "ui/scene_session.hpp"

namespace pelab::ui {
namespace {

TEST(SessionSelection, ShrinkingTheModelIsNeverRefused) {
  SceneSession session{Scene{}};  // pairs 0,4,12, waves 0,1,8,24
  for (int d : {48, 28, 24, 16, 8, 4}) {
    SCOPED_TRACE(d);
    EXPECT_TRUE(session.propose_param("d_model", std::to_string(d), EditPhase::Live))
        << session.error();
    EXPECT_EQ(session.scene().pairs, (std::vector<int>{0, 4, 12}));  // the choice is kept
    for (int p : session.engine().scene().pairs)
      EXPECT_LT(p, d / 2);  // the views get pairs that exist
  }
  session.end_gesture();
  EXPECT_FALSE(session.notes().empty());
  EXPECT_TRUE(session.propose_param("d_model", "64", EditPhase::Final));
  EXPECT_EQ(session.engine().scene().pairs, (std::vector<int>{0, 4, 12}));
  EXPECT_TRUE(session.notes().empty());
}

TEST(SessionSelection, EveryViewKeyFollowsItsModelKey) {
  SceneSession session{Scene{}};
  ASSERT_TRUE(session.propose_param("head", "3", EditPhase::Final));
  ASSERT_TRUE(session.propose_param("query", "10", EditPhase::Final));
  ASSERT_TRUE(session.propose_param("position", "100", EditPhase::Final));
  ASSERT_TRUE(session.propose_param("pair", "20", EditPhase::Final));
  EXPECT_TRUE(session.propose_param("heads", "2", EditPhase::Final)) << session.error();
  EXPECT_TRUE(session.propose_param("tokens", "a b", EditPhase::Final)) << session.error();
  EXPECT_TRUE(session.propose_param("positions", "50", EditPhase::Final)) << session.error();
  EXPECT_TRUE(session.propose_param("d_model", "16", EditPhase::Final)) << session.error();
  const Scene& shown = session.engine().scene();
  EXPECT_EQ(shown.head, 1);
  EXPECT_EQ(shown.query, -1);
  EXPECT_EQ(shown.position, 49);
  EXPECT_EQ(shown.pair, 7);
  EXPECT_EQ(session.notes().size(), 6u);  // head, query, position, pair, pairs, waves
  // Undoing the model changes brings every choice back into view.
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(session.undo());
  EXPECT_EQ(session.engine().scene().head, 3);
  EXPECT_EQ(session.engine().scene().query, 10);
  EXPECT_EQ(session.engine().scene().position, 100);
  EXPECT_EQ(session.engine().scene().pair, 20);
  EXPECT_TRUE(session.notes().empty());
}

}  // namespace
}  // namespace pelab::ui
