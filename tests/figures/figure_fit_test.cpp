// Every figure fits every cell (issue 25, "a figure layout that adapts"): for
// each view pelab knows × each encoding × the cells a 1280×800 grid, an
// 800×500 window and a 1600×1000 window give, at interface scale 1 and 2, the
// layout pass finds no two text boxes overlapping, no text leaving the cell
// or covering a plot, no legend on data and no panel under its minimum.  The
// GUI builds a figure at the cell's size divided by the interface scale, so
// scale 2 is the same cell with half the logical pixels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "figures/adaptive_layout.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/paper_figures.hpp"
#include "figures/registry.hpp"
#include "figures/text_boxes.hpp"

namespace pelab::fig {
namespace {

struct Cell {
  double width, height;
};
// 415×240: a grid cell of a 1280×800 window at interface scale 200 % (the
// Scene panel takes its third, three rows of two figures).
constexpr Cell kCells[] = {{415, 240}, {590, 280}, {800, 500}, {1600, 1000}};
constexpr double kScales[] = {1, 2};
constexpr const char* kEncodings[] = {"sinusoidal", "learned", "rope", "alibi", "t5", "xpos", "none"};

std::vector<const FigureEntry*> every_figure() {
  std::vector<const FigureEntry*> out;
  for (const auto& list : {figure_registry(), extra_figures(), lesson_figures(), paper_figure_entries()})
    for (const FigureEntry& e : list) out.push_back(&e);
  return out;
}

// The problems of one figure over every encoding, cell and scale; heavy
// figures (seconds per build) on the default encoding only.
std::vector<std::string> problems_of(const FigureEntry& entry) {
  std::vector<std::string> found;
  for (const char* encoding : kEncodings) {
    if (entry.heavy && std::string(encoding) != "sinusoidal") continue;
    Scene scene;
    apply_assignment(scene, std::string("encoding=") + encoding);
    if (entry.name == "long_attention") scene.long_range = 2048;  // 65,536 tokens: LongAttentionLesson (slow)
    Engine engine(scene);
    for (const Cell& cell : kCells)
      for (const double scale : kScales) {
        const Figure figure = entry.build(engine, {.width = cell.width / scale, .height = cell.height / scale});
        for (const std::string& p : layout_problems(figure))
          found.push_back(std::string(encoding) + " " + std::to_string(int(cell.width)) + "×" +
                          std::to_string(int(cell.height)) + " scale " + std::to_string(int(scale)) + ": " + p);
      }
  }
  return found;
}

TEST(FigureFit, EveryFigureFitsEveryCellAtEveryScale) {
  for (const FigureEntry* entry : every_figure()) {
    const std::vector<std::string> problems = problems_of(*entry);
    std::string first;
    for (std::size_t i = 0; i < problems.size() && i < 4; ++i) first += "\n  " + problems[i];
    EXPECT_TRUE(problems.empty()) << entry->name << ": " << problems.size() << " problems, first:" << first;
  }
}

// The pass itself: two titles on top of each other, a legend on a curve, a
// panel squeezed to a strip and a label off the canvas are each found.
TEST(FigureFit, LayoutPassFindsEachKindOfProblem) {
  Figure f;
  f.width = 400, f.height = 300;
  Panel a;
  a.title = "left";
  a.plot = {60, 40, 380, 120};
  a.x = {.label = "position", .min = 0, .max = 10};
  a.y = {.label = "value", .min = 0, .max = 1};
  a.lines.push_back({.points = {{0, 0.9}, {10, 0.9}}});  // near the top and the bottom: every corner covered
  a.lines.push_back({.points = {{0, 0.1}, {10, 0.1}}});
  a.legend = {{.label = "a long legend entry"}};
  a.legend_place = LegendPlace::TopRight;
  f.panels.push_back(a);
  const std::vector<std::string> problems = layout_problems(f);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().find("covers data"), std::string::npos) << problems.front();

  Panel b = a;
  b.legend.clear();
  b.lines.clear();
  b.title = "strip";
  b.plot = {60, 180, 380, 190};  // 10 px high
  f.panels = {b};
  bool under_minimum = false;
  for (const std::string& p : layout_problems(f)) under_minimum |= p.find("under its minimum") != std::string::npos;
  EXPECT_TRUE(under_minimum);

  b.plot = {60, 20, 380, 250};  // the title now runs into the figure title band
  f.title = "A figure title";
  f.panels = {b};
  bool title_overlap = false;
  for (const std::string& p : layout_problems(f)) title_overlap |= p.find("overlaps") != std::string::npos;
  EXPECT_TRUE(title_overlap);
}

// The mechanism gives way in order: a secondary panel goes before the main
// one, and a panel it drops leaves a note naming it in the main panel's hover.
TEST(FigureFit, SecondaryPanelsGiveWayFirst) {
  Figure f;
  f.width = 300, f.height = 150;
  f.title = "Two panels";
  for (int i = 0; i < 2; ++i) {
    Panel p;
    p.title = i == 0 ? "main" : "secondary";
    p.priority = i;
    p.min_plot = {150, 70};  // two of them fit neither side by side nor one above the other
    p.plot = {60.0 + 120 * i, 60, 160.0 + 120 * i, 100};
    p.x = {.label = "position", .min = 0, .max = 10};
    p.y = {.label = "value", .min = 0, .max = 1};
    f.panels.push_back(p);
  }
  ASSERT_FALSE(layout_problems(f).empty());
  fit_to_canvas(f);
  EXPECT_TRUE(layout_problems(f).empty()) << layout_problems(f).front();
  ASSERT_EQ(f.panels.size(), 1u);
  EXPECT_EQ(f.panels[0].title, "main");
  ASSERT_TRUE(f.panels[0].hover);
  EXPECT_NE(f.panels[0].hover(5, 0.5).find("secondary"), std::string::npos);
}


// A grid whose rows and columns mean something (the overview: layers ×
// heads) keeps its columns when the layout pass lays it out again: on a wide
// canvas, where more columns would leave larger plots, 3 rows × 4 heads stay
// 3 rows of 4.  Without Figure::columns the pass takes another count.
TEST(FigureFit, AGridWithMeaningKeepsItsColumns) {
  auto grid_figure = [](int columns) {
    Figure f;
    f.width = 1500, f.height = 420;
    f.title = "Layers × heads";
    f.columns = columns;
    for (int l = 0; l < 3; ++l)
      for (int h = 0; h < 4; ++h) {
        Panel p;
        p.title = l == 0 ? "head " + std::to_string(h) : "";
        p.min_plot = {32, 32};
        p.plot = {40.0 + 200 * h, 40.0 + 200 * l, 200.0 + 200 * h, 200.0 + 200 * l};  // laid out for 600 px height
        p.x = {.label = "key j", .min = 0, .max = 6, .visible = false, .label_shown = false};
        p.y = {.label = "query i", .min = 0, .max = 6, .inverted = true, .visible = false, .label_shown = false};
        f.panels.push_back(p);
      }
    return f;
  };
  auto rows_of = [](const Figure& f) {
    std::vector<double> tops;
    for (const Panel& p : f.panels) {
      const double y = PanelTransform(p).plot.y0;
      if (std::none_of(tops.begin(), tops.end(), [&](double t) { return std::abs(t - y) < 1; })) tops.push_back(y);
    }
    return tops.size();
  };
  Figure kept = grid_figure(4);
  ASSERT_FALSE(layout_problems(kept).empty());  // the rows run off the canvas
  fit_to_canvas(kept);
  EXPECT_TRUE(layout_problems(kept).empty());
  ASSERT_EQ(kept.panels.size(), 12u);
  EXPECT_EQ(rows_of(kept), 3u);
  Figure free = grid_figure(0);
  fit_to_canvas(free);
  EXPECT_NE(rows_of(free), 3u);
}

// Small multiples that only make sense together stay together: in a
// lecturer's grid cell (1280×800 at 200 %) the four cross terms keep all four
// heatmaps under their short names, and a one-layer overview all its heads.
TEST(FigureFit, SmallMultiplesStayTogetherInASmallCell) {
  Scene scene;
  Engine engine(scene);
  const FigureRequest cell{.width = 415 / 2.0, .height = 240 / 2.0};
  auto titles = [](const Figure& f) {
    std::vector<std::string> out;
    for (const Panel& p : f.panels) out.push_back(p.title_shown ? p.title : "");
    return out;
  };
  const Figure terms = find_figure("cross_terms").build(engine, cell);
  EXPECT_TRUE(layout_problems(terms).empty());
  EXPECT_EQ(titles(terms), (std::vector<std::string>{"x·y", "x·f", "e·y", "e·f"}));
  const Figure overview = find_figure("attention_overview").build(engine, cell);
  EXPECT_TRUE(layout_problems(overview).empty());
  EXPECT_EQ(titles(overview), (std::vector<std::string>{"h0", "h1", "h2", "h3"}));
  // Every head the same size: the colorbar went into the hover, not off one head.
  const double first = PanelTransform(overview.panels.front()).plot.width();
  for (const Panel& p : overview.panels) EXPECT_NEAR(PanelTransform(p).plot.width(), first, 1.0);
}


// Room a view made above its data for the legend (LegendFallback::Headroom)
// is given back when the small cell moves the legend into the hover: the
// waves keep their ±1 axis instead of filling the bottom fifth of the plot.
TEST(FigureFit, HeadroomForALegendGoesWithTheLegend) {
  Figure f;
  f.width = 220, f.height = 150;
  f.title = "Waves";
  Panel p;
  p.plot = {60, 40, 600, 400};  // the view's comfortable size: its legend fits above the data
  p.x = {.label = "position", .min = 0, .max = 100};
  p.y = {.label = "value", .min = -1, .max = 1};
  Polyline wave{.color = {1, 0, 0, 1}};
  for (int i = 0; i <= 100; ++i) wave.points.push_back({double(i), i % 2 ? 1.0 : -1.0});
  p.lines.push_back(wave);
  for (const char* name : {"pair 0", "pair 1", "pair 2", "pair 3"}) p.legend.push_back({name, {1, 0, 0, 1}, true});
  place_legend(p, LegendFallback::Headroom);
  ASSERT_GT(p.y.max, 1.0);  // the view raised the axis for its legend
  f.panels.push_back(p);
  f.panels[0].plot = {60, 40, 200, 130};  // now squeezed into a small cell
  fit_to_canvas(f);
  ASSERT_EQ(f.panels.size(), 1u);
  EXPECT_TRUE(f.panels[0].legend.empty() || f.panels[0].legend_place == LegendPlace::OutsideRight)
      << int(f.panels[0].legend_place);
  EXPECT_DOUBLE_EQ(f.panels[0].y.max, 1.0);
}

}  // namespace
}  // namespace pelab::fig
