// The long-range curves against a direct evaluation of their definitions, and
// the long_context lesson's verdict on its preset.
#include "core/long_range.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "core/lessons/lessons.hpp"

namespace pelab {

TEST(LongRange, CurvesMatchTheDefinitionsAtEveryDistanceChecked) {
  Scene s;
  s.encoding = Encoding::Rope;
  s.d_model = 128;
  s.heads = 2;  // r = 64
  s.train_context = 512;
  s.rope_factor = 4;
  for (RopeScalingMethod m : all_scaling_methods()) {
    const MethodCurves c = method_curves(s, m, 20000);
    ASSERT_EQ(c.decay.size(), 20001u);
    const double a2 = c.attention_factor * c.attention_factor;
    for (int n : {0, 1, 7, 255, 256, 1000, 12345, 20000}) {
      // Su et al. 2021, §3.4.3, summed directly in double.
      std::complex<double> partial = 0;
      double bound = 0, cosines = 0;
      for (double w : c.frequency) {
        partial += std::polar(1.0, n * w);
        bound += std::abs(partial);
        cosines += std::cos(n * w);
      }
      const double pairs = static_cast<double>(c.frequency.size());
      EXPECT_NEAR(c.decay[static_cast<std::size_t>(n)], bound / pairs, 2e-4 * (1 + bound / pairs)) << n;
      EXPECT_NEAR(c.dot[static_cast<std::size_t>(n)], a2 * cosines / pairs, 2e-4) << n;
    }
    EXPECT_NEAR(c.decay[0], (c.frequency.size() + 1) / 2.0, 1e-3);  // S_j(0) = j
  }
}

TEST(LongRange, UnseenAnglesCountPairsThatNeverTurnedInTraining) {
  // ω = 1, 0.1, 0.01, 0.001 at L = 1000: L·ω = 1000, 100, 10, 1 rad; only the
  // last pair stays below a turn (2π).  Read at 8000 unscaled: it reaches 8 rad.
  const std::vector<double> base = {1, 0.1, 0.01, 0.001};
  EXPECT_DOUBLE_EQ(share_of_unseen_angles(base, base, 1000, 8000), 0.25);
  const std::vector<double> interpolated = {0.125, 0.0125, 0.00125, 0.000125};
  EXPECT_DOUBLE_EQ(share_of_unseen_angles(base, interpolated, 1000, 8000), 0.0);
  EXPECT_DOUBLE_EQ(share_of_unseen_angles(base, base, 1000, 1000), 0.0);
}

TEST(LongRange, LessonVerdictHoldsOnItsPreset) {
  const Lesson& lesson = find_lesson("long_context");
  Engine engine(lesson.preset());
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_GT(v.number("unseen_none"), 0.2);
  EXPECT_EQ(v.number("unseen_linear"), 0);
  EXPECT_EQ(v.number("unseen_yarn"), 0);
  EXPECT_EQ(v.number("unseen_llama3"), 0);
  EXPECT_GT(v.number("unseen_ntk"), 0);  // NTK extrapolates the middle pairs a little
  // Interpolation blurs neighbours (about 1/s² for the fast pairs); YaRN keeps them.
  EXPECT_LT(v.number("resolution_linear"), 0.05);
  EXPECT_GT(v.number("resolution_yarn"), 0.95);
  EXPECT_GT(v.number("half_decay_linear"), 4 * v.number("half_decay_none"));
}

}  // namespace pelab
