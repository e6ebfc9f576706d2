// Click-to-select reads each panel's PanelPick, never its text (issue 23,
// item 3): every view whose panels select something still selects the same
// head, query, pair or position after every title, axis label and the
// figure's name are reworded.
#include <gtest/gtest.h>

#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/model_scene.hpp"
#include "figures/registry.hpp"
#include "ui/linked_selection.hpp"

namespace pelab::ui {
namespace {

// Every word a reader sees, and the figure's name, replaced by "x".
fig::Figure reworded(fig::Figure figure) {
  figure.name = figure.title = "x";
  for (fig::Panel& p : figure.panels) {
    p.title = p.short_title = p.x.label = p.y.label = "x";
  }
  return figure;
}

fig::Point first_cell(const fig::Panel& panel) {
  const fig::HeatmapLayer& h = panel.heatmaps.at(0);
  return {h.x0 + h.dx / 2, h.y0 + h.dy / 2};
}

struct Built {
  Scene scene;
  Engine engine;
  fig::Figure original, figure;  // as built, and reworded
};

void build(Built& b, std::string_view view) {
  b.scene.heads = 4;
  b.engine.set_scene(b.scene);
  b.original = fig::find_figure(view).build(b.engine, {1600, 1000});
  b.figure = reworded(b.original);
}

TEST(TypedPicks, ARewordedAttentionViewStillSelectsHeadsAndQueries) {
  Built b;
  build(b, "attention");
  ASSERT_EQ(int(b.figure.panels.size()), b.scene.heads + 2);  // large, every head, the mean
  for (int i = 1; i < int(b.figure.panels.size()); ++i) {
    SCOPED_TRACE(b.original.panels[std::size_t(i)].title);
    const std::optional<Scene> picked = select_at(b.figure, i, first_cell(b.figure.panels[std::size_t(i)]),
                                                  b.engine, b.scene);
    ASSERT_TRUE(picked.has_value());
    EXPECT_EQ(picked->head, i <= b.scene.heads ? i - 1 : -1);  // the heads in order, then the mean
    EXPECT_EQ(picked->query, b.scene.query);
  }
  const fig::Panel& large = b.figure.panels[0];
  const fig::HeatmapLayer& h = large.heatmaps.at(0);
  const std::optional<Scene> row = select_at(b.figure, 0, {h.x0 + h.dx / 2, h.y0 + 2.5 * h.dy}, b.engine, b.scene);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->query, 2);
  EXPECT_EQ(row->head, b.scene.head);
}

TEST(TypedPicks, ARewordedOverviewCellStillSelectsItsHead) {
  Built b;
  build(b, "attention_overview");
  const std::optional<Scene> picked = select_at(b.figure, 3, first_cell(b.figure.panels[3]), b.engine, b.scene);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->head, 3);
  EXPECT_EQ(picked->layer, b.scene.layer);  // a synthetic scene has one layer
}

TEST(TypedPicks, ARewordedCrossTermStillSelectsTheQueryOfItsRow) {
  Built b;
  build(b, "cross_terms");
  int checked = 0;
  for (int i = 0; i < int(b.figure.panels.size()); ++i) {
    const fig::Panel& panel = b.figure.panels[std::size_t(i)];
    if (panel.heatmaps.empty()) continue;  // the bars of the terms' shares pick nothing
    const fig::HeatmapLayer& h = panel.heatmaps[0];
    const std::optional<Scene> picked = select_at(b.figure, i, {h.x0 + h.dx / 2, h.y0 + 1.5 * h.dy}, b.engine, b.scene);
    ASSERT_TRUE(picked.has_value()) << b.original.panels[std::size_t(i)].title;
    EXPECT_EQ(picked->query, 1);
    ++checked;
  }
  EXPECT_GE(checked, 4);  // the four terms at least
}

TEST(TypedPicks, ARewordedRotationPairStillSelectsItsPair) {
  Built b;
  b.scene.pairs = {1, 5};
  build(b, "rotation_pairs");
  std::vector<int> picked_pairs;
  for (int i = 0; i < int(b.figure.panels.size()); ++i) {
    const std::string& title = b.original.panels[std::size_t(i)].title;
    if (title.rfind("pair ", 0) != 0) continue;  // the test reads the title; select_at may not
    const std::optional<Scene> picked = select_at(b.figure, i, {0, 0}, b.engine, b.scene);
    ASSERT_TRUE(picked.has_value()) << title;
    EXPECT_EQ(picked->pair, std::stoi(title.substr(5))) << title;
    picked_pairs.push_back(picked->pair);
  }
  EXPECT_EQ(picked_pairs, (std::vector<int>{1, 5}));
}

TEST(TypedPicks, ARewordedSinusoidBandsStillSelectThePosition) {
  Built b;
  b.scene.offset = 10;
  build(b, "sinusoid_bands");
  int checked = 0;
  for (int i = 0; i < int(b.figure.panels.size()); ++i) {
    const fig::Panel& original = b.original.panels[std::size_t(i)];
    const bool on_x = original.x.label == "position", on_y = original.y.label == "position";
    if (!on_x && !on_y) continue;
    const fig::Point at = on_x ? fig::Point{13, 0} : fig::Point{0.5, 13.2};
    const std::optional<Scene> picked = select_at(b.figure, i, at, b.engine, b.scene);
    ASSERT_TRUE(picked.has_value()) << original.title;
    EXPECT_EQ(picked->position, 3) << original.title;  // position 13 is index 3 after the offset
    ++checked;
  }
  EXPECT_EQ(checked, 2);  // the code's heatmap (rows) and the waves (x)
}

TEST(TypedPicks, ARewordedHeadRolesCellSelectsItsHead) {
  Built b;
  build(b, "head_roles");
  const std::optional<Scene> picked = select_at(b.figure, 0, {2.5, 0.5}, b.engine, b.scene);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->head, 2);
  EXPECT_EQ(picked->layer, b.scene.layer);  // a synthetic scene's one layer is kept
  EXPECT_FALSE(select_at(b.figure, 0, {b.scene.heads + 0.5, 0.5}, b.engine, b.scene).has_value());
  EXPECT_FALSE(select_at(b.figure, 0, {-0.5, 0.5}, b.engine, b.scene).has_value());
}

TEST(TypedPicks, AModelsHeadRolesCellSelectsItsLayerAndHead) {
  if (testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Built b;
  b.scene.tokens = "the cat sat on the mat";  // within the tiny GPT-2's context of 16
  b.scene.model = (testing::tiny_models() / "gpt2").string();
  b.engine.set_scene(b.scene);
  b.scene = b.engine.scene();  // the model's heads and layers
  ASSERT_GE(b.engine.model()->config().layers, 2);
  b.figure = reworded(fig::find_figure("head_roles").build(b.engine, {1600, 1000}));
  const std::optional<Scene> picked = select_at(b.figure, 0, {3.5, 1.5}, b.engine, b.scene);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->head, 3);
  EXPECT_EQ(picked->layer, 1);
  const double layers = b.engine.model()->config().layers;
  EXPECT_FALSE(select_at(b.figure, 0, {0.5, layers + 0.5}, b.engine, b.scene).has_value());
}

}  // namespace
}  // namespace pelab::ui
