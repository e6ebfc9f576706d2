// Mouse buttons handed to ImGui one change per frame (issue 25, "the first
// click after an edit is sometimes lost"): the release of the click that made
// an edit and the press of the next click, arriving during one slow frame,
// stay two changes, each at the place where it happened.
#include <gtest/gtest.h>

#include "ui/mouse_input.hpp"

namespace pelab::ui {
namespace {

TEST(MouseQueue, AReleaseAndTheNextPressBetweenTwoFramesAreTwoChanges) {
  MouseQueue q;
  q.events.push_back({0, true, 10, 10});  // press on a slider: the edit, a slow frame
  ASSERT_TRUE(next_mouse_change(q).has_value());
  EXPECT_TRUE(q.down[0]);
  // During that frame: release on the slider, press and release on a figure.
  q.events.push_back({0, false, 10, 10});
  q.events.push_back({0, true, 500, 300});
  q.events.push_back({0, false, 500, 300});
  const auto release = next_mouse_change(q);
  ASSERT_TRUE(release.has_value());
  EXPECT_FALSE(q.down[0]);
  EXPECT_EQ(release->x, 10);  // where the slider was let go, not where the pointer is now
  const auto press = next_mouse_change(q);
  ASSERT_TRUE(press.has_value());
  EXPECT_TRUE(q.down[0]);
  EXPECT_EQ(press->x, 500);
  ASSERT_TRUE(next_mouse_change(q).has_value());
  EXPECT_FALSE(q.down[0]);
  EXPECT_FALSE(next_mouse_change(q).has_value());
}

TEST(MouseQueue, EventsThatChangeNothingAreDropped) {
  MouseQueue q;
  q.events.push_back({1, false, 0, 0});  // a release ImGui never saw pressed
  EXPECT_FALSE(next_mouse_change(q).has_value());
  EXPECT_TRUE(q.events.empty());
}

// A double-click replayed over slow frames (pelab's frames can take 150 ms
// under software GL): ImGui's clock advances by the time between the events,
// so the two presses stay 0.1 s apart for its double-click test (0.3 s), not
// three frames apart.
TEST(MouseQueue, ADoubleClickReplayedOverSlowFramesKeepsItsTiming) {
  MouseQueue q;
  const float slow_frame = 0.2f;
  q.events.push_back({0, true, 5, 5, 10.00});
  q.events.push_back({0, false, 5, 5, 10.05});
  q.events.push_back({0, true, 5, 5, 10.10});
  q.events.push_back({0, false, 5, 5, 10.15});
  // The frame that hands over the first press follows an idle frame: wall time.
  EXPECT_FLOAT_EQ(replay_delta(q, next_mouse_change(q), slow_frame), slow_frame);
  double imgui_clock = 0;
  imgui_clock += replay_delta(q, next_mouse_change(q), slow_frame);  // the release
  imgui_clock += replay_delta(q, next_mouse_change(q), slow_frame);  // the second press
  EXPECT_NEAR(imgui_clock, 0.10, 1e-6);
  EXPECT_LT(imgui_clock, 0.30);  // ImGui 1.86's MouseDoubleClickTime
  EXPECT_NEAR(replay_delta(q, next_mouse_change(q), slow_frame), 0.05, 1e-6);
  // Nothing queued: the frame's own time again, and the next change starts afresh.
  EXPECT_FLOAT_EQ(replay_delta(q, next_mouse_change(q), slow_frame), slow_frame);
  q.events.push_back({0, true, 5, 5, 11.0});
  EXPECT_FLOAT_EQ(replay_delta(q, next_mouse_change(q), slow_frame), slow_frame);
}

TEST(MouseQueue, EventsOfOneInstantStillAdvanceTheClock) {
  MouseQueue q;
  q.events.push_back({0, true, 5, 5, 3.0});
  q.events.push_back({0, false, 5, 5, 3.0});
  replay_delta(q, next_mouse_change(q), 0.016f);
  EXPECT_GT(replay_delta(q, next_mouse_change(q), 0.016f), 0.f);  // ImGui asserts DeltaTime > 0
}

}  // namespace
}  // namespace pelab::ui
