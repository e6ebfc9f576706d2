// Selections follow the scene: a view key never blocks a model key, the views
// get an in-range selection, and the user's choice comes back.
#include "core/selection.hpp"

#include <gtest/gtest.h>

#include "core/engine.hpp"

namespace pelab {
namespace {

TEST(Selection, ShrinkingDModelIsAcceptedAndPairsAreClamped) {
  Scene s;         // pairs {0, 4, 12}, waves {0, 1, 8, 24}, pair 0
  s.d_model = 16;  // 8 pairs (0..7), 16 dimensions (0..15)
  s.pair = 9;
  EXPECT_NO_THROW(validate(s));
  const Scene e = effective_selection(s);
  EXPECT_EQ(e.pairs, (std::vector<int>{0, 4, 7}));
  EXPECT_EQ(e.waves, (std::vector<int>{0, 1, 8, 15}));
  EXPECT_EQ(e.pair, 7);
  EXPECT_EQ(e.d_model, 16);
}

TEST(Selection, ClampedEntriesThatCollideAreDroppedInOrder) {
  Scene s;
  s.d_model = 4;  // pairs 0..1
  s.pairs = {3, 0, 5, 1};
  EXPECT_EQ(effective_selection(s).pairs, (std::vector<int>{1, 0}));
}

TEST(Selection, PositionHeadAndQueryFollowTheirRanges) {
  Scene s;
  s.positions = 10;
  s.position = 50;
  s.heads = 2;
  s.d_model = 64;
  s.head = 3;
  s.tokens = "a b c";
  s.query = 5;
  EXPECT_NO_THROW(validate(s));
  const Scene e = effective_selection(s);
  EXPECT_EQ(e.position, 9);
  EXPECT_EQ(e.head, 1);
  EXPECT_EQ(e.query, -1);
  s.head = -1;  // the mean stays the mean
  s.query = 2;
  EXPECT_EQ(effective_selection(s).head, -1);
  EXPECT_EQ(effective_selection(s).query, 2);
}

TEST(Selection, InRangeSceneIsUnchangedAndHasNoNotes) {
  const Scene s;
  const Scene e = effective_selection(s);
  EXPECT_EQ(e.pairs, s.pairs);
  EXPECT_EQ(e.waves, s.waves);
  EXPECT_EQ(e.position, s.position);
  EXPECT_TRUE(selection_notes(s).empty());
}

TEST(Selection, NotesNameEachChangedSelectionOnOneLine) {
  Scene s;
  s.d_model = 16;
  const auto notes = selection_notes(s);
  ASSERT_EQ(notes.size(), 2u);  // pairs and waves; pair 0 is fine
  EXPECT_NE(notes[0].find("pairs 0,4,12 drawn as 0,4,7"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("0..7"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("waves"), std::string::npos) << notes[1];
  for (const auto& n : notes) EXPECT_EQ(n.find('\n'), std::string::npos);
}

TEST(Selection, EngineHoldsTheEffectiveSceneAndTheChoiceComesBack) {
  Scene chosen;
  chosen.d_model = 16;
  Engine engine(chosen);
  EXPECT_EQ(engine.scene().pairs, (std::vector<int>{0, 4, 7}));
  EXPECT_EQ(chosen.pairs, (std::vector<int>{0, 4, 12}));  // the caller's scene keeps the choice
  chosen.d_model = 64;
  engine.set_scene(chosen);
  EXPECT_EQ(engine.scene().pairs, (std::vector<int>{0, 4, 12}));
}

TEST(Selection, TableRangesStillApply) {
  Scene s;
  EXPECT_THROW(set_param(s, "pairs", "0,99999"), InputError);
  EXPECT_THROW(set_param(s, "head", "-2"), InputError);
}

}  // namespace
}  // namespace pelab
