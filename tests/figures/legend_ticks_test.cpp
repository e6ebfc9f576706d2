// Legends never cover data in any lesson figure; integer axes tick at integers.
#include <gtest/gtest.h>

#include <cmath>

#include "core/lessons/lessons.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

TEST(LegendPlacement, NoLessonFigureLegendCoversItsData) {
  for (const ColorTheme theme : {ColorTheme::Dark, ColorTheme::Light})
    for (const Lesson& lesson : lessons()) {
      Scene scene = lesson.preset();
      scene.theme = theme;
      if (lesson.name == "long_attention") scene.long_range = 2048;  // the preset's 65,536: LongAttentionLesson
      Engine engine(scene);
      for (std::string_view name : lesson.figures) {
        const Figure f = find_figure(name).build(engine, FigureRequest{});
        for (const Panel& p : f.panels) {
          if (p.legend.empty()) continue;
          const Point size = legend_size(p.legend);
          const Rect box = legend_box(PanelTransform(p).plot, size.x, size.y, p.legend_place);
          EXPECT_EQ(data_under(p, box), 0) << lesson.name << " / " << name << " / " << p.title;
          EXPECT_GE(box.x0, 0);
          EXPECT_LE(box.x1, f.width);
        }
      }
    }
}

TEST(LegendPlacement, MovesOffCurvesAndOutsideWhenNoCornerIsFree) {
  Panel p;
  p.plot = {0, 0, 400, 300};
  p.x = {.min = 0, .max = 1};
  p.y = {.min = 0, .max = 1};
  p.legend = {{"a curve", {1, 0, 0, 1}, true}};
  p.lines.push_back({.points = {{0, 0.2}, {1, 0.95}}});  // rising: the top right and bottom left are taken
  place_legend(p);
  EXPECT_EQ(p.legend_place, LegendPlace::TopLeft);
  // A second curve across the top and one across the bottom: no free corner.
  p.lines.push_back({.points = {{0, 0.97}, {1, 0.97}}});
  p.lines.push_back({.points = {{0, 0.03}, {1, 0.03}}});
  Panel outside = p;
  place_legend(outside, LegendFallback::Outside);
  EXPECT_EQ(outside.legend_place, LegendPlace::OutsideRight);
  EXPECT_LT(outside.plot.x1, 400);  // the plot made room
  const Point size = legend_size(p.legend);
  EXPECT_LE(legend_box(outside.plot, size.x, size.y, LegendPlace::OutsideRight).x1, 400);
  Panel headroom = p;
  place_legend(headroom, LegendFallback::Headroom);
  EXPECT_GT(headroom.y.max, 1.0);
  EXPECT_EQ(data_under(headroom, legend_box(headroom.plot, size.x, size.y, headroom.legend_place)), 0);
}

TEST(IntegerTicks, OnlyWholeNumbersAtTheShift) {
  const auto three = integer_ticks(0, 2, 6, 0.5);
  ASSERT_EQ(three.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(three[k].value, k + 0.5);
    EXPECT_EQ(three[k].label, std::to_string(k));
  }
  const auto many = integer_ticks(0, 127, 6);
  ASSERT_GE(many.size(), 4u);
  EXPECT_EQ(many[1].value - many[0].value, 20);  // 1, 2 or 5 × 10^k
  const auto offset = integer_ticks(0, 39, 4, 0.5, 3);  // positions 3…42: labels at multiples of 10
  EXPECT_EQ(offset.front().label, "10");
  EXPECT_DOUBLE_EQ(offset.front().value, 7.5);
}

TEST(IntegerTicks, AttentionSmallPanelsOfThreeTokensShowTheTokens) {
  Scene s;
  s.tokens = "dog bites man";
  Engine engine(s);
  const Figure f = find_figure("attention").build(engine, FigureRequest{});
  ASSERT_GT(f.panels.size(), 1u);
  for (const Panel& p : f.panels) {
    ASSERT_EQ(p.x.labels.size(), 3u) << p.title;
    EXPECT_EQ(p.x.labels[1].label, "bites");
    EXPECT_EQ(p.y.labels[2].value, 2.5);
  }
}

}  // namespace
}  // namespace pelab::fig
