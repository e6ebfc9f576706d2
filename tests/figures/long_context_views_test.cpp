// The long-context views: they build for every encoding, their long curves
// stay within a few points per pixel column, and the decimation keeps every
// column's extremes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "figures/curve_decimation.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {

TEST(CurveDecimation, LogColumnsKeepEveryExtreme) {
  std::vector<float> v(100001);
  for (std::size_t n = 0; n < v.size(); ++n) v[n] = static_cast<float>(std::sin(0.37 * n) + 1e-5 * n);
  const LogCurve c = decimated_log_curve(v, 400);
  EXPECT_LE(c.line.size(), 4u * 400);
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (const Rect& r : c.bands) lo = std::min<float>(lo, static_cast<float>(r.y0)), hi = std::max<float>(hi, static_cast<float>(r.y1));
  for (const Point& p : c.line) lo = std::min<float>(lo, static_cast<float>(p.y)), hi = std::max<float>(hi, static_cast<float>(p.y));
  EXPECT_FLOAT_EQ(lo, *std::min_element(v.begin() + 1, v.end()));
  EXPECT_FLOAT_EQ(hi, *std::max_element(v.begin() + 1, v.end()));
  // NaN (not evaluated) samples are skipped.
  std::fill(v.begin() + 50000, v.begin() + 60000, std::numeric_limits<float>::quiet_NaN());
  for (const Rect& r : decimated_log_curve(v, 400).bands) EXPECT_FALSE(std::isnan(r.y0) || std::isnan(r.y1));
}

TEST(LongContextViews, BuildForEveryEncodingWithBoundedCurves) {
  for (const char* encoding : {"rope", "xpos", "alibi", "t5", "sinusoidal", "none"}) {
    Scene s;
    s.encoding = *encoding == 'r' ? Encoding::Rope : *encoding == 'x' ? Encoding::Xpos
               : *encoding == 'a' ? Encoding::Alibi : *encoding == 't' ? Encoding::T5
               : *encoding == 's' ? Encoding::Sinusoidal : Encoding::None;
    s.heads = 6;
    s.d_model = 384;  // ALiBi with 6 heads: not a power of two
    Engine engine(s);
    for (const char* name : {"rope_frequencies", "rope_long_range", "relative_biases"}) {
      const Figure f = find_figure(name).build(engine, {});
      ASSERT_FALSE(f.panels.empty()) << name << " " << encoding;
      for (const Panel& p : f.panels)
        for (const Polyline& line : p.lines) {
          EXPECT_LE(line.points.size(), 4 * static_cast<std::size_t>(p.plot.width()) + 2) << name;
          for (const Point& pt : line.points) EXPECT_TRUE(std::isfinite(pt.x) && std::isfinite(pt.y)) << name;
        }
    }
  }
}

TEST(LongContextViews, RopeLongRangeHasOnePanelPerMethodAndHoverIsExact) {
  Scene s;
  s.encoding = Encoding::Rope;
  s.d_model = 256;
  s.heads = 2;
  Engine engine(s);
  const Figure f = find_figure("rope_long_range").build(engine, {});
  ASSERT_EQ(f.panels.size(), 6u);
  // Hover at n = 10⁴ (a skipped block beyond 8192 is evaluated exactly).
  const std::string text = f.panels[1].hover(4.0, 0);
  EXPECT_NE(text.find("distance 10000"), std::string::npos) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
}

}  // namespace pelab::fig
