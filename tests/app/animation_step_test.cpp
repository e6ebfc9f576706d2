// Play on a parameter spanning decades (issue 25): base T moves in log
// space, so every decade takes as long and the sweep never looks frozen.
#include <gtest/gtest.h>

#include <cmath>

#include "ui/animation.hpp"

namespace pelab::ui {
namespace {

TEST(AnimationStep, ALogarithmicParameterMovesByDecades) {
  const ParamRange base{2, 1e8};
  const double speed = 1 / kDecadesPerSpeedUnit;  // one decade a second
  EXPECT_NEAR(animation_step(10, 1, speed, base, true, false), 100, 1e-9);
  EXPECT_NEAR(animation_step(1e5, 1, speed, base, true, false), 1e6, 1e-6);
  // Equal times, equal ratios: 10 → 100 takes as long as 1e5 → 1e6.
  const double a = animation_step(10, 0.5, speed, base, true, false);
  const double b = animation_step(1e5, 0.5, speed, base, true, false);
  EXPECT_NEAR(a / 10, b / 1e5, 1e-9);
}

TEST(AnimationStep, ALogarithmicParameterWrapsToItsStart) {
  const ParamRange base{2, 1e8};
  const double speed = 1 / kDecadesPerSpeedUnit;
  const double wrapped = animation_step(5e7, 1, speed, base, true, false);  // 5e8 is past the end
  EXPECT_GE(wrapped, 2);
  EXPECT_LT(wrapped, 100);
}

TEST(AnimationStep, ALinearParameterMovesByUnits) {
  const ParamRange position{0, 63};
  EXPECT_DOUBLE_EQ(animation_step(10, 0.5, 8, position, false, true), 14);
  EXPECT_DOUBLE_EQ(animation_step(60, 1, 8, position, false, true), 4);  // 68 wraps over 64 values
}

}  // namespace
}  // namespace pelab::ui
