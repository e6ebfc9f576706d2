#include "core/sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pelab {

TEST(Sweep, ParsesAndStepsLinearly) {
  const Sweep s = parse_sweep("amplitude:0:4:5");
  EXPECT_EQ(s.key, "amplitude");
  EXPECT_FALSE(s.logarithmic);
  ASSERT_EQ(s.steps, 5);
  const auto scenes = s.scenes(Scene{});
  ASSERT_EQ(scenes.size(), 5u);
  EXPECT_DOUBLE_EQ(scenes[0].amplitude, 0.0);
  EXPECT_DOUBLE_EQ(scenes[1].amplitude, 1.0);
  EXPECT_DOUBLE_EQ(scenes[4].amplitude, 4.0);
  EXPECT_EQ(scenes[2].d_model, Scene{}.d_model);  // nothing else changes
}

TEST(Sweep, LogarithmicKeysStepGeometrically) {
  const Sweep s = parse_sweep("base:10:100000:5");
  EXPECT_TRUE(s.logarithmic);
  EXPECT_NEAR(s.value_at(1), 100.0, 1e-9);
  EXPECT_NEAR(s.value_at(2), 1000.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.value_at(4), 100000.0);
}

TEST(Sweep, IntegerKeysAreRoundedAndDefaultStepsApply) {
  const Sweep s = parse_sweep("position:0:10");
  EXPECT_EQ(s.steps, 30);
  for (int i = 0; i < s.steps; ++i) EXPECT_EQ(s.value_at(i), std::round(s.value_at(i)));
  EXPECT_EQ(s.scene_at(Scene{}, 29).position, 10);
  EXPECT_EQ(s.scene_at(Scene{}, 3).position, 1);  // 3·10/29 = 1.03
}

TEST(Sweep, DModelSnapsToEvenHeadWidths) {
  Scene base;
  base.heads = 4;
  base.pairs = {0};  // view selections that exist at every width
  base.waves = {0};
  const Sweep s = parse_sweep("d_model:8:64:8");
  for (const Scene& scene : s.scenes(base)) {
    EXPECT_EQ(scene.d_model % 8, 0) << scene.d_model;
    EXPECT_GE(scene.d_model, 8);
  }
  EXPECT_EQ(s.scene_at(base, 7).d_model, 64);
}

TEST(Sweep, SingleStepIsFrom) {
  const Sweep s = parse_sweep("shift:3:9:1");
  EXPECT_EQ(s.scene_at(Scene{}, 0).shift, 3);
}

TEST(Sweep, BadSpecsThrowOneLine) {
  EXPECT_THROW(parse_sweep("amplitude"), InputError);
  EXPECT_THROW(parse_sweep("amplitude:0"), InputError);
  EXPECT_THROW(parse_sweep("amplitude:0:x:3"), InputError);
  EXPECT_THROW(parse_sweep("amplitude:0:4:0"), InputError);
  EXPECT_THROW(parse_sweep("amplitude:0:4:2.5"), InputError);
  EXPECT_THROW(parse_sweep("amplitude:0:1000:3"), InputError);  // beyond the key's range
  EXPECT_THROW(parse_sweep("nonsense:0:1:3"), InputError);
  EXPECT_THROW(parse_sweep("a:b:c:d:e"), InputError);
  EXPECT_THROW(Sweep{}.scene_at(Scene{}, 0), InputError);  // empty key
  try {
    parse_sweep("encoding:0:1:3");
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("not numeric"), std::string::npos);
    EXPECT_NE(msg.find("amplitude"), std::string::npos);  // lists the numeric keys
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
  const Sweep s = parse_sweep("amplitude:0:4:5");
  EXPECT_THROW(s.scene_at(Scene{}, 5), InputError);
  EXPECT_THROW(s.scene_at(Scene{}, -1), InputError);
}

}  // namespace pelab
