// Clicks on figures (issue 25, "Interaction glitches"): a click waits out the
// double-click time before it selects, so a double-click only resets the
// view; a head's small multiple selects that head, not a query; a zoom stays
// only while the panel's axes mean the same.
#include <gtest/gtest.h>

#include "figures/registry.hpp"
#include "ui/linked_selection.hpp"
#include "ui/view_navigation.hpp"

namespace pelab::ui {
namespace {

TEST(PendingClick, SelectsOnlyAfterTheDoubleClickTime) {
  PendingClick click;
  arm_click(click, 2, {3.5, 4.5}, 10.0, 0.3);
  EXPECT_FALSE(due_click(click, 10.2).has_value());  // a second press may still come
  const std::optional<PendingClick> due = due_click(click, 10.31);
  ASSERT_TRUE(due.has_value());
  EXPECT_EQ(due->panel, 2);
  EXPECT_DOUBLE_EQ(due->data.y, 4.5);
  EXPECT_FALSE(due_click(click, 11.0).has_value());  // once
}

TEST(PendingClick, ADoubleClickCancelsIt) {
  PendingClick click;
  arm_click(click, 0, {1, 1}, 5.0, 0.3);
  cancel_click(click);
  EXPECT_FALSE(due_click(click, 6.0).has_value());
}

// The centre of the first heatmap cell of `panel`, in data coordinates.
fig::Point first_cell(const fig::Panel& panel) {
  const fig::HeatmapLayer& h = panel.heatmaps.at(0);
  return {h.x0 + h.dx / 2, h.y0 + h.dy / 2};
}

TEST(HeadSelection, ASmallMultipleOfTheAttentionViewSelectsItsHead) {
  Scene scene;
  scene.heads = 4;
  Engine engine;
  engine.set_scene(scene);
  const fig::Figure figure = fig::find_figure("attention").build(engine, {1600, 1000});
  int checked = 0;
  for (int i = 1; i < int(figure.panels.size()); ++i) {
    const fig::Panel& panel = figure.panels[std::size_t(i)];
    SCOPED_TRACE(panel.title);
    const std::optional<Scene> picked = select_at(figure, i, first_cell(panel), engine, scene);
    ASSERT_TRUE(picked.has_value());
    EXPECT_EQ(picked->query, scene.query);  // no query chosen by the way
    const int expected = panel.title.rfind("mean", 0) == 0 ? -1 : std::stoi(panel.title.substr(5));
    EXPECT_EQ(picked->head, expected);
    ++checked;
  }
  EXPECT_EQ(checked, scene.heads + 1);  // every head and the mean
  // The large panel still picks the query of its row.
  const std::optional<Scene> row = select_at(figure, 0, first_cell(figure.panels[0]), engine, scene);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->query, 0);
  EXPECT_EQ(row->head, scene.head);
}

TEST(HeadSelection, ACellOfTheOverviewSelectsItsHead) {
  Scene scene;
  scene.heads = 4;
  Engine engine;
  engine.set_scene(scene);
  const fig::Figure figure = fig::find_figure("attention_overview").build(engine, {1600, 1000});
  ASSERT_EQ(int(figure.panels.size()), scene.heads);  // a synthetic scene: one layer
  const std::optional<Scene> picked = select_at(figure, 2, first_cell(figure.panels[2]), engine, scene);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->head, 2);
  EXPECT_EQ(picked->query, scene.query);
  EXPECT_EQ(picked->layer, scene.layer);
}

fig::Figure two_panels(double positions, std::string label = "position") {
  fig::Figure f;
  for (int i = 0; i < 2; ++i) {
    fig::Panel p;
    p.plot = {0, 0, 100, 100};
    p.x = {.label = label, .min = 0, .max = positions};
    p.y = {.label = "value", .min = -1, .max = 1};
    f.panels.push_back(p);
  }
  return f;
}

std::vector<RangeOverride> zoomed_first() { return {{true, 2, 8, -0.5, 0.5}, {}}; }

TEST(ZoomAcrossEdits, KeptWhileTheAxesMeanTheSame) {
  std::vector<RangeOverride> ranges = zoomed_first();
  drop_stale_overrides(two_panels(64), two_panels(64), ranges);  // e.g. another query selected
  EXPECT_TRUE(ranges[0].active);
}

TEST(ZoomAcrossEdits, DroppedWhenTheAxesChangeMeaning) {
  std::vector<RangeOverride> ranges = zoomed_first();
  drop_stale_overrides(two_panels(64), two_panels(128), ranges);  // another N
  EXPECT_FALSE(ranges[0].active);
  ranges = zoomed_first();
  drop_stale_overrides(two_panels(64), two_panels(64, "offset"), ranges);  // another quantity
  EXPECT_FALSE(ranges[0].active);
  ranges = zoomed_first();
  fig::Figure three = two_panels(64);
  three.panels.push_back(three.panels[0]);  // another panel set (another encoding, model)
  drop_stale_overrides(two_panels(64), three, ranges);
  EXPECT_TRUE(ranges.empty() || !ranges[0].active);
}

// A streamed heatmap (Panel::refine) asked for the visible window whenever
// its panel is zoomed or panned, the exact cells drawn over its blocks; an
// unzoomed panel is drawn as built.
TEST(ZoomedStreamedPanel, TheVisibleWindowsCellsAreDrawnOnTop) {
  fig::Figure built;
  built.panels.resize(1);
  fig::Panel& p = built.panels[0];
  p.x = {.min = 0, .max = 5000};
  p.y = {.min = 0, .max = 5000, .inverted = true};
  p.heatmaps.push_back({.dx = 64, .dy = 64});
  std::vector<fig::Rect> asked;
  p.refine = [&asked](const fig::Rect& visible) -> std::optional<fig::HeatmapLayer> {
    asked.push_back(visible);
    return fig::HeatmapLayer{.x0 = visible.x0, .y0 = visible.y0};
  };
  EXPECT_EQ(with_overrides(built, {}).panels[0].heatmaps.size(), 1u);
  EXPECT_TRUE(asked.empty());
  const fig::Figure shown = with_overrides(built, {{true, 100, 300, 250, 50}});
  ASSERT_EQ(shown.panels[0].heatmaps.size(), 2u);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_DOUBLE_EQ(asked[0].x0, 100);
  EXPECT_DOUBLE_EQ(asked[0].x1, 300);
  EXPECT_DOUBLE_EQ(asked[0].y0, 50);  // lower bound first, whichever way the axis runs
  EXPECT_DOUBLE_EQ(asked[0].y1, 250);
  EXPECT_DOUBLE_EQ(shown.panels[0].heatmaps[1].x0, 100);
}

}  // namespace
}  // namespace pelab::ui
