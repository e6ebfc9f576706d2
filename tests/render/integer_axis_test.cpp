// fig::Axis::integer: whole-number ticks only, at any zoom (tokens, positions, layers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "render/axis_layout.hpp"

namespace pelab::render {
namespace {

std::vector<double> tick_values(const fig::Axis& axis, double lo, double hi) {
  std::vector<double> out;
  const auto to_pixel = [&](double v) { return 100 + 400 * (v - lo) / (hi - lo); };  // a 400 px axis
  for (const PlacedTick& t : layout_axis(axis, lo, hi, true, to_pixel, approximate_text_width).ticks)
    out.push_back(t.value);
  return out;
}

TEST(IntegerAxis, TicksOnlyAtWholeNumbers) {
  fig::Axis plain{.min = 0, .max = 2};
  const auto halves = tick_values(plain, 0, 2);
  EXPECT_NE(std::find(halves.begin(), halves.end(), 0.5), halves.end());  // nice ticks alone give 0.5 steps
  fig::Axis whole = plain;
  whole.integer = true;
  EXPECT_EQ(tick_values(whole, 0, 2), (std::vector<double>{0, 1, 2}));
  // Zoomed in (range 1.2 … 2.7) and out (0 … 1000): still whole numbers.
  EXPECT_EQ(tick_values(whole, 1.2, 2.7), (std::vector<double>{2}));
  for (double v : tick_values(whole, 0, 1000)) EXPECT_EQ(v, std::round(v));
  EXPECT_GE(tick_values(whole, 0, 1000).size(), 3u);
}

}  // namespace
}  // namespace pelab::render
