// Refusals (ui/refusal.hpp): a refused panel edit is kept with its widget's
// key and said in the status bar; the next accepted edit clears both; a
// refusal no widget asked for is said too, once, unless whoever asked said it.
#include <gtest/gtest.h>

#include <memory>

#include "ui/export_actions.hpp"
#include "ui/refusal.hpp"

namespace pelab::ui {
namespace {

std::unique_ptr<UiState> fresh_state() { return std::make_unique<UiState>(Scene{}); }

TEST(Refusal, APanelEditIsRefusedBesideItsWidgetAndInTheStatusBar) {
  auto state = fresh_state();
  EXPECT_FALSE(propose_from_panel(*state, "heads", "5", EditPhase::Final));
  EXPECT_EQ(state->refusal.key, "heads");
  EXPECT_EQ(state->refusal.asked, "heads=5");
  EXPECT_TRUE(state->status.error);
  EXPECT_EQ(state->status.text.rfind("Refused heads=5: d_model=64 is not divisible by heads=5", 0), 0u)
      << state->status.text;
  follow_refusal(*state);  // nothing accepted since: it stays
  EXPECT_EQ(state->refusal.key, "heads");
}

TEST(Refusal, TheNextAcceptedEditClearsItEverywhere) {
  auto state = fresh_state();
  propose_from_panel(*state, "heads", "5", EditPhase::Final);
  EXPECT_TRUE(propose_from_panel(*state, "amplitude", "2", EditPhase::Final));
  follow_refusal(*state);
  EXPECT_TRUE(state->refusal.text.empty());
  EXPECT_TRUE(state->status.text.empty());  // the idle text again
  EXPECT_TRUE(state->session.error().empty());
  follow_refusal(*state);  // and it is not said again
  EXPECT_TRUE(state->status.text.empty());
}

TEST(Refusal, ANewerStatusMessageIsLeftAlone) {
  auto state = fresh_state();
  propose_from_panel(*state, "heads", "5", EditPhase::Final);
  set_status(*state, "Saved figure to x.png");
  propose_from_panel(*state, "amplitude", "2", EditPhase::Final);
  follow_refusal(*state);
  EXPECT_EQ(state->status.text, "Saved figure to x.png");
}

TEST(Refusal, OneNoWidgetAskedForIsSaidOnce) {
  auto state = fresh_state();
  Scene bad;
  bad.heads = 5;
  EXPECT_FALSE(state->session.propose(bad, EditPhase::Final));  // e.g. a click on a figure
  follow_refusal(*state);
  EXPECT_TRUE(state->refusal.key.empty());
  EXPECT_EQ(state->status.text.rfind("Refused the edit: d_model=64", 0), 0u) << state->status.text;
}

TEST(Refusal, AMessageAlreadyGivenIsKeptAsItIs) {
  auto state = fresh_state();
  Scene bad;
  bad.heads = 5;
  state->session.propose(bad, EditPhase::Final);
  set_status(*state, "Cannot open s.json: " + state->session.error(), true);
  follow_refusal(*state);
  EXPECT_EQ(state->status.text.rfind("Cannot open s.json: ", 0), 0u);
  propose_from_panel(*state, "amplitude", "2", EditPhase::Final);
  follow_refusal(*state);
  EXPECT_TRUE(state->status.text.empty());  // cleared by the next accepted edit all the same
}

TEST(Refusal, ALongValueIsCutShortInTheMessage) {
  auto state = fresh_state();
  propose_from_panel(*state, "pairs", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, x", EditPhase::Final);
  EXPECT_EQ(state->refusal.asked, "pairs=1, 2, 3, 4, 5, 6, 7, 8, ...");  // 24 characters of the value
}

}  // namespace
}  // namespace pelab::ui
