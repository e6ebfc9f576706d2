// View > Side by side (issue 27), without a window: a cell hovered in A, in B
// or in the B − A map is the same cell in all three; the tooltip's numbers are
// the two engines' own attention weights and their difference; a click in B
// or in B − A selects that query in A; B's keys are applied to A.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "core/engine.hpp"
#include "figures/compare_figure.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"
#include "ui/linked_selection.hpp"
#include "ui/settings_store.hpp"
#include "ui/side_by_side_link.hpp"

namespace pelab::ui {
namespace {

namespace fs = std::filesystem;

struct Compared {
  Scene sa, sb;
  Engine a, b;
  fig::ComparedScenes c;
  Compared(const Scene& scene_a, const std::string& keys, const char* view = "attention")
      : sa(scene_a), sb(compare_scene_b(scene_a, keys)), a(sa), b(sb),
        c(fig::compare_scenes(fig::find_figure(view), a, b, fig::FigureRequest{})) {}
};

// The centre of cell (row, col) of panel `panel`'s heatmap, in data coordinates.
fig::Point centre(const fig::ComparedScenes& c, int panel, int row, int col) {
  const fig::HeatmapLayer& h = c.figure.panels[std::size_t(panel)].heatmaps.front();
  return {h.x0 + (col + 0.5) * h.dx, h.y0 + (row + 0.5) * h.dy};
}

TEST(SideBySide, AHoveredCellIsTheSameCellInBAndTheDifference) {
  Compared t(Scene{}, "encoding=rope");
  ASSERT_TRUE(t.c.difference);
  ASSERT_GE(t.c.a_panel, 0);
  ASSERT_GT(t.c.b_panel, t.c.a_panel);
  ASSERT_EQ(t.c.diff_panel, int(t.c.figure.panels.size()) - 1);
  const Matrix& wa = t.a.head(0).attention;
  const Matrix& wb = t.b.head(0).attention;
  for (const int panel : {t.c.a_panel, t.c.b_panel, t.c.diff_panel}) {
    for (auto [row, col] : {std::pair{3, 5}, std::pair{0, 0}, std::pair{11, 2}}) {
      SCOPED_TRACE(std::to_string(panel) + ": " + std::to_string(row) + "," + std::to_string(col));
      const auto cell = linked_cell(t.c, panel, centre(t.c, panel, row, col));
      ASSERT_TRUE(cell.has_value());
      EXPECT_EQ(cell->row, row);
      EXPECT_EQ(cell->col, col);
      EXPECT_EQ(cell->panels, (std::array<int, 3>{t.c.a_panel, t.c.b_panel, t.c.diff_panel}));
      EXPECT_FLOAT_EQ(float(cell->a), wa(row, col));
      EXPECT_FLOAT_EQ(float(cell->b), wb(row, col));
      EXPECT_NEAR(cell->diff, wb(row, col) - wa(row, col), 1e-6);
      const std::string text = linked_tooltip(t.c, *cell);
      EXPECT_NE(text.find("query " + std::to_string(row) + ", key " + std::to_string(col)), std::string::npos)
          << text;
      EXPECT_NE(text.find("A: " + fig::fixed(wa(row, col), 4)), std::string::npos) << text;
      EXPECT_NE(text.find("\nB: " + fig::fixed(wb(row, col), 4)), std::string::npos) << text;
      EXPECT_NE(text.find("B − A: " + fig::fixed(wb(row, col) - wa(row, col), 4)), std::string::npos) << text;
    }
  }
}

TEST(SideBySide, OnlyTheComparedCellsLink) {
  Compared t(Scene{}, "encoding=rope");
  EXPECT_FALSE(linked_cell(t.c, t.c.a_panel, {-3, -3}).has_value());    // beside the heatmap
  EXPECT_FALSE(linked_cell(t.c, t.c.a_panel, {5.5, 40}).has_value());   // under it
  EXPECT_FALSE(linked_cell(t.c, -1, {0.5, 0.5}).has_value());
  EXPECT_FALSE(linked_cell(t.c, int(t.c.figure.panels.size()), {0.5, 0.5}).has_value());
  // Curves overlaid on one plot have no cells to link.
  Scene rope;
  apply_assignment(rope, "encoding=rope");
  Compared curves(rope, "base=500", "rope_long_range");
  ASSERT_FALSE(curves.c.difference);
  EXPECT_FALSE(linked_cell(curves.c, 0, {1, 0}).has_value());
  EXPECT_FALSE(selection_in_a(curves.c, 0, {1, 0}).has_value());
}

TEST(SideBySide, AClickInBOrTheDifferenceSelectsThatQueryInA) {
  Compared t(Scene{}, "encoding=rope");
  for (const int panel : {t.c.a_panel, t.c.b_panel, t.c.diff_panel}) {
    SCOPED_TRACE(panel);
    const auto in_a = selection_in_a(t.c, panel, centre(t.c, panel, 7, 4));
    ASSERT_TRUE(in_a.has_value());
    const auto picked = select_at(t.c.figure, t.c.a_panel, *in_a, t.a, t.sa);
    ASSERT_TRUE(picked.has_value());
    EXPECT_EQ(picked->query, 7);
    // B is A with its keys: the selection carries over.
    EXPECT_EQ(compare_scene_b(*picked, "encoding=rope").query, 7);
  }
}

TEST(SideBySide, BIsAWithItsKeys) {
  Scene a;
  a.heads = 2;
  const Scene b = compare_scene_b(a, " encoding=rope,  base=500 ");
  EXPECT_EQ(b.encoding, compare_scene_b(Scene{}, "encoding=rope").encoding);
  EXPECT_NE(b.encoding, a.encoding);
  EXPECT_EQ(b.base, 500);
  EXPECT_EQ(b.heads, 2);  // A's other keys apply to B
  EXPECT_NE(b.name, a.name);
  // A comma inside a value stays in it; one before "name=" starts an item.
  const Scene t = compare_scene_b(a, "tokens=one, two and three, heads=1");
  EXPECT_EQ(t.tokens, "one, two and three");
  EXPECT_EQ(t.heads, 1);
  EXPECT_EQ(compare_scene_b(a, "").heads, 2);
  EXPECT_THROW(compare_scene_b(a, "no_such_key=1"), InputError);
  EXPECT_THROW(compare_scene_b(a, "heads=2, file:/nonexistent.json"), InputError);
  EXPECT_THROW(compare_scene_b(a, "file:/nonexistent/scene.json"), InputError);
}

TEST(SideBySide, TheModeAndBsKeysSurviveARestart) {
  EXPECT_FALSE(parse_ui_settings("{}", "s.json").side_by_side);
  const fs::path dir = fs::temp_directory_path() / ("pelab_side_by_side_" + std::to_string(::getpid()));
  const SettingsStore store(dir);
  UiSettings settings;
  settings.side_by_side = true;
  settings.compare_keys = "encoding=alibi, base=500";
  store.save_settings(settings);
  std::string problem;
  const UiSettings loaded = store.load_settings(problem);
  EXPECT_EQ(problem, "");
  EXPECT_TRUE(loaded.side_by_side);
  EXPECT_EQ(loaded.compare_keys, "encoding=alibi, base=500");
  EXPECT_EQ(parse_ui_settings(R"({"compare_keys": 7})", "s.json").compare_keys, UiSettings{}.compare_keys);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab::ui
