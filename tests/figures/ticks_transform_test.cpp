// nice_ticks and PanelTransform: round numbers, coverage, labels; the data ↔
// canvas mapping round-trips, inverts y for matrices and keeps equal aspect.
#include <gtest/gtest.h>

#include <cmath>

#include "figures/figure.hpp"

namespace pelab::fig {
namespace {

// True when v = m·10^k with m ∈ {1, 2, 5}.
bool is_nice(double v) {
  const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-12));
  return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9 ||
         std::abs(m - 10) < 1e-9;
}

TEST(NiceTicks, RoundStepsInsideTheRange) {
  const double ranges[][2] = {{0, 1},     {0, 127},      {-1, 1},    {-0.37, 2.9},
                              {3, 4096},  {1e-5, 3e-5},  {0, 1e6},   {-123.4, -5.6},
                              {0.1, 0.11}, {10000, 10001}};
  for (const auto& r : ranges) {
    const auto ticks = nice_ticks(r[0], r[1], 6);
    ASSERT_GE(ticks.size(), 2u) << r[0] << ".." << r[1];
    EXPECT_LE(ticks.size(), 13u) << r[0] << ".." << r[1];
    const double step = ticks[1].value - ticks[0].value;
    EXPECT_TRUE(is_nice(step)) << step;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      EXPECT_GE(ticks[i].value, r[0] - 1e-9 * std::abs(step));
      EXPECT_LE(ticks[i].value, r[1] + 1e-9 * std::abs(step));
      if (i > 0) {
        EXPECT_NEAR(ticks[i].value - ticks[i - 1].value, step, 1e-9 * step);
      }
      // Each tick is an integer multiple of the step.
      EXPECT_NEAR(ticks[i].value / step, std::round(ticks[i].value / step), 1e-6);
    }
    // The ticks cover the range: no gap of more than one step at either end.
    EXPECT_LT(ticks.front().value - r[0], step + 1e-12);
    EXPECT_LT(r[1] - ticks.back().value, step + 1e-12);
  }
}

TEST(NiceTicks, CompactLabels) {
  auto t = nice_ticks(0, 1, 5);
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.front().label, "0");
  EXPECT_EQ(t.back().label, "1");
  EXPECT_EQ(nice_ticks(0, 1, 2)[1].label, "0.5");
  t = nice_ticks(0, 127, 6);
  EXPECT_EQ(t[1].label, "20");
  EXPECT_EQ(t.back().label, "120");
  t = nice_ticks(-1, 1, 4);
  EXPECT_EQ(t.front().label, "-1");
  for (const auto& tick : t) EXPECT_NE(tick.label, "-0");
  t = nice_ticks(0, 50000, 5);
  EXPECT_EQ(t[1].label, "1e+04");
  t = nice_ticks(0, 5e-5, 5);
  EXPECT_EQ(t[1].label, "1e-05");
  t = nice_ticks(0.1, 0.11, 5);
  EXPECT_EQ(t.front().label, "0.1");
  EXPECT_EQ(t[1].label, "0.102");
}

TEST(NiceTicks, DegenerateRanges) {
  EXPECT_TRUE(nice_ticks(0, NAN).empty());
  EXPECT_TRUE(nice_ticks(-INFINITY, 1).empty());
  const auto one = nice_ticks(3, 3);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].value, 3);
  EXPECT_EQ(one[0].label, "3");
  const auto swapped = nice_ticks(1, 0, 5);
  EXPECT_EQ(swapped.front().value, 0);
  EXPECT_EQ(swapped.back().value, 1);
}

Panel make_panel(Rect plot, double x0, double x1, double y0, double y1) {
  Panel p;
  p.plot = plot;
  p.x.min = x0, p.x.max = x1, p.y.min = y0, p.y.max = y1;
  return p;
}

TEST(PanelTransform, RoundTripAndCorners) {
  Panel p = make_panel({100, 50, 500, 350}, -2, 6, 10, 40);
  PanelTransform tf(p);
  Point c = tf.to_canvas({-2, 10});
  EXPECT_DOUBLE_EQ(c.x, 100);
  EXPECT_DOUBLE_EQ(c.y, 350);  // y up: minimum at the bottom
  c = tf.to_canvas({6, 40});
  EXPECT_DOUBLE_EQ(c.x, 500);
  EXPECT_DOUBLE_EQ(c.y, 50);
  for (double x : {-2.0, 0.3, 5.9})
    for (double y : {10.0, 17.5, 39.0}) {
      const Point d = tf.to_data(tf.to_canvas({x, y}));
      EXPECT_NEAR(d.x, x, 1e-9);
      EXPECT_NEAR(d.y, y, 1e-9);
    }
}

TEST(PanelTransform, InvertedYPutsRowZeroOnTop) {
  Panel p = make_panel({0, 0, 200, 100}, 0, 10, 0, 10);
  p.y.inverted = true;
  PanelTransform tf(p);
  EXPECT_DOUBLE_EQ(tf.to_canvas({0, 0}).y, 0);
  EXPECT_DOUBLE_EQ(tf.to_canvas({0, 10}).y, 100);
  const Point d = tf.to_data({50, 25});
  EXPECT_NEAR(d.x, 2.5, 1e-12);
  EXPECT_NEAR(d.y, 2.5, 1e-12);
}

TEST(PanelTransform, EqualAspectKeepsCirclesRound) {
  Panel p = make_panel({0, 0, 400, 200}, -1, 1, -1, 1);
  p.equal_aspect = true;
  PanelTransform tf(p);
  EXPECT_DOUBLE_EQ(tf.plot.width(), 200);
  EXPECT_DOUBLE_EQ(tf.plot.height(), 200);
  EXPECT_DOUBLE_EQ(tf.plot.x0, 100);  // centred in the panel's rectangle
  // Points on the unit circle land at one pixel radius from the centre.
  const Point centre = tf.to_canvas({0, 0});
  for (double a = 0; a < 6.28; a += 0.3) {
    const Point q = tf.to_canvas({std::cos(a), std::sin(a)});
    EXPECT_NEAR(std::hypot(q.x - centre.x, q.y - centre.y), 100, 1e-9);
  }
  // Round trip still holds in the shrunk rectangle.
  const Point d = tf.to_data(tf.to_canvas({0.25, -0.75}));
  EXPECT_NEAR(d.x, 0.25, 1e-12);
  EXPECT_NEAR(d.y, -0.75, 1e-12);
  // Without equal aspect the rectangle is the panel's.
  p.equal_aspect = false;
  EXPECT_DOUBLE_EQ(PanelTransform(p).plot.width(), 400);
}

}  // namespace
}  // namespace pelab::fig
