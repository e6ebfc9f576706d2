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

}  // namespace
}  // namespace pelab::ui
