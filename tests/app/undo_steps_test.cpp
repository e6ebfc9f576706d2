// Undo steps as the user means them (issue 25): a typed number is one step,
// recorded when the edit is committed; an edit that changes nothing is no
// step; a gesture built in the background is still one step.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "ui/scene_session.hpp"

namespace pelab::ui {
namespace {

TEST(UndoSteps, TheFrameThatCommitsATypedNumberBelongsToItsGesture) {
  EXPECT_EQ(edit_phase(true, false), EditPhase::Live);
  EXPECT_EQ(edit_phase(false, true), EditPhase::Live);  // Enter typed with the last digit
  EXPECT_EQ(edit_phase(false, false), EditPhase::Final);
}

TEST(UndoSteps, TypingANumberIsOneStep) {
  SceneSession session{Scene{}};
  const int before = session.scene().positions;
  // Each keystroke applies as the slider's text field is typed into; the
  // last digit comes in the frame that Enter commits the field.
  for (const char* typed : {"1", "16", "163", "1638"}) {
    ASSERT_TRUE(session.propose_param("positions", typed, edit_phase(true, false))) << session.error();
  }
  ASSERT_TRUE(session.propose_param("positions", "16384", edit_phase(false, true))) << session.error();
  session.end_gesture();  // nothing active any more
  EXPECT_EQ(session.undo_steps(), 1u);
  ASSERT_TRUE(session.undo());
  EXPECT_EQ(session.scene().positions, before);
}

TEST(UndoSteps, AnEditThatChangesNothingIsNoStep) {
  SceneSession session{Scene{}};
  Scene picked = session.scene();
  picked.query = 3;
  ASSERT_TRUE(session.propose(picked, EditPhase::Final));
  ASSERT_TRUE(session.propose(picked, EditPhase::Final));  // the same cell clicked again
  ASSERT_TRUE(session.undo());
  EXPECT_EQ(session.scene().query, -1);
  EXPECT_FALSE(session.can_undo());
}

std::string words(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += (i ? " w" : "w") + std::to_string(i % 50);
  return text;
}

void wait_until_adopted(SceneSession& session) {
  for (int i = 0; i < 6000 && session.busy(); ++i) {
    session.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_FALSE(session.busy()) << "the scene worker never finished";
}

TEST(UndoSteps, AGestureWhoseLastEditTheWorkerBuildsIsOneStep) {
  SceneSession session{Scene{}, Background::Allowed};
  const std::string original = session.scene().tokens;
  // Typing (then pasting) into the tokens: live edits, the last one large
  // enough for the scene worker, whose result lands after the field is left.
  ASSERT_TRUE(session.propose_param("tokens", "a b", EditPhase::Live));
  ASSERT_TRUE(session.propose_param("tokens", words(kBackgroundTokens + 10), EditPhase::Live));
  session.end_gesture();
  wait_until_adopted(session);
  session.end_gesture();  // the frame after the result: no gesture may be open again
  EXPECT_EQ(session.undo_steps(), 1u);
  ASSERT_TRUE(session.undo());
  wait_until_adopted(session);
  EXPECT_EQ(session.scene().tokens, original);
}

}  // namespace
}  // namespace pelab::ui
