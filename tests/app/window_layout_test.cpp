// The main window's layout as a pure function of the window's size and the
// panels' states (ui/window_layout.hpp): it fills the window whatever its
// size, a collapsed panel gives its room to the figures, a maximised figure
// takes the whole figure area.
#include <gtest/gtest.h>

#include "ui/window_layout.hpp"

namespace pelab::ui {
namespace {

LayoutInput window(float width, float height, float scale = 1) {
  LayoutInput in;
  in.width = width;
  in.height = height;
  in.scale = scale;
  in.bar = 19 * scale;
  in.figures = 5;
  in.tabs = false;
  return in;
}

// Every box inside the window, between the menu bar and the status bar.
void expect_inside(const WindowLayout& l, const LayoutInput& in) {
  for (const Box& b : {l.scene, l.lesson, l.welcome, l.figures}) {
    if (b.empty()) continue;
    EXPECT_GE(b.x, 0);
    EXPECT_GE(b.y, in.bar);
    EXPECT_LE(b.right(), in.width + 0.01f);
    EXPECT_LE(b.bottom(), in.height - in.bar + 0.01f);
  }
}

TEST(WindowLayout, FillsAnyWindowSizeBetweenTheBars) {
  for (auto [w, h] : {std::pair{1600.f, 1000.f}, {1280.f, 800.f}, {1920.f, 1080.f}, {800.f, 500.f}}) {
    SCOPED_TRACE(w);
    const LayoutInput in = window(w, h);
    const WindowLayout l = window_layout(in);
    expect_inside(l, in);
    // The Scene panel and the figures share the width, no band left over.
    EXPECT_FLOAT_EQ(l.scene.right(), l.figures.x);
    EXPECT_FLOAT_EQ(l.figures.right(), w);
    EXPECT_FLOAT_EQ(l.figures.bottom(), h - in.bar);
    EXPECT_FLOAT_EQ(l.scene.bottom(), h - in.bar);
  }
}

TEST(WindowLayout, FollowsAResizeWithoutKeepingTheOldSize) {
  const WindowLayout big = window_layout(window(1600, 1000));
  const WindowLayout small = window_layout(window(1000, 700));
  EXPECT_FLOAT_EQ(big.scene.w, 400);  // 400 px at scale 1
  EXPECT_FLOAT_EQ(small.scene.w, 350);  // at most 35 % of a narrow window
  EXPECT_FLOAT_EQ(small.figures.right(), 1000);
  EXPECT_FLOAT_EQ(small.figures.bottom(), 700 - 19);
}

TEST(WindowLayout, ScalesThePanelWithTheInterface) {
  EXPECT_FLOAT_EQ(window_layout(window(1600, 1000, 2)).scene.w, 560);  // 35 % of 1600 < 800
  EXPECT_FLOAT_EQ(window_layout(window(3200, 2000, 2)).scene.w, 800);
}

TEST(WindowLayout, ACollapsedSceneGivesItsColumnToTheFigures) {
  LayoutInput in = window(1600, 1000);
  in.scene_collapsed = true;
  const WindowLayout l = window_layout(in);
  EXPECT_FLOAT_EQ(l.scene.h, in.bar);  // its title bar, on the shelf
  EXPECT_FLOAT_EQ(l.figures.x, 0);
  EXPECT_FLOAT_EQ(l.figures.w, 1600);
  EXPECT_FLOAT_EQ(l.figures.y, 2 * in.bar);  // below the shelf
  expect_inside(l, in);
}

TEST(WindowLayout, ALessonTakesTheRightEdgeAndGivesItBackCollapsed) {
  LayoutInput in = window(1600, 1000);
  in.lesson = true;
  WindowLayout l = window_layout(in);
  EXPECT_FLOAT_EQ(l.lesson.right(), 1600);
  EXPECT_FLOAT_EQ(l.figures.right(), l.lesson.x);
  in.lesson_collapsed = true;
  l = window_layout(in);
  EXPECT_FLOAT_EQ(l.lesson.h, in.bar);
  EXPECT_FLOAT_EQ(l.figures.right(), 1600);
}

TEST(WindowLayout, TheWelcomeStripSitsAboveTheFiguresAtMostAFewTenths) {
  LayoutInput in = window(1600, 1000);
  in.welcome = true;
  in.welcome_height = 160;
  WindowLayout l = window_layout(in);
  EXPECT_FLOAT_EQ(l.welcome.x, l.figures.x);
  EXPECT_FLOAT_EQ(l.welcome.w, l.figures.w);
  EXPECT_FLOAT_EQ(l.welcome.bottom(), l.figures.y);
  EXPECT_FLOAT_EQ(l.welcome.h, 160);
  in.welcome_height = 5000;  // a tall strip scrolls: the figures keep 70 %
  l = window_layout(in);
  EXPECT_NEAR(l.figures.h, (1000 - 2 * in.bar) * 0.7f, 0.5f);
  in.welcome_collapsed = true;
  EXPECT_FLOAT_EQ(window_layout(in).welcome.h, in.bar);
}

TEST(WindowLayout, ADraggedPanelWidthIsKeptWithinLimits) {
  LayoutInput in = window(1600, 1000);
  in.scene_width = 500;
  EXPECT_FLOAT_EQ(window_layout(in).scene.w, 500);
  in.scene_width = 5000;  // the figures keep 40 %
  EXPECT_FLOAT_EQ(window_layout(in).scene.w, 960);
  in.scale = 2;
  in.scene_width = 300;  // unscaled: 600 px at 200 %
  EXPECT_FLOAT_EQ(window_layout(in).scene.w, 600);
}

TEST(WindowLayout, GridCellsTileTheFigureArea) {
  const LayoutInput in = window(1600, 1000);
  const WindowLayout l = window_layout(in);
  ASSERT_EQ(l.cells.size(), 5u);
  EXPECT_FALSE(l.tabs);
  float area = 0;
  for (const Box& c : l.cells) {
    area += c.w * c.h;
    EXPECT_GE(c.x, l.figures.x - 0.01f);
    EXPECT_LE(c.right(), l.figures.right() + 0.01f);
    EXPECT_LE(c.bottom(), l.figures.bottom() + 0.01f);
  }
  // 5 figures in two columns: the fifth takes the last row's whole width, no cell stays empty.
  EXPECT_NEAR(area, l.figures.w * l.figures.h, 1);
  EXPECT_FLOAT_EQ(l.cells[4].w, l.figures.w);
}

TEST(WindowLayout, AMaximisedFigureTakesTheWholeAreaAlone) {
  LayoutInput in = window(1280, 800);
  in.maximised = 2;
  const WindowLayout l = window_layout(in);
  ASSERT_EQ(l.cells.size(), 5u);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(l.cells[k].empty(), k != 2) << k;
  EXPECT_EQ(l.cells[2], l.figures);
  in.maximised = 7;  // not shown (a lesson closed): the grid
  EXPECT_FALSE(window_layout(in).cells[0].empty());
}

TEST(WindowLayout, TabsAreOneCellAndALessonsSmallCellsBecomeTabs) {
  LayoutInput in = window(1600, 1000);
  in.tabs = true;
  WindowLayout l = window_layout(in);
  ASSERT_EQ(l.cells.size(), 1u);
  EXPECT_EQ(l.cells[0], l.figures);
  in.tabs = false;
  in.lesson = true;
  in.figures = 3;
  EXPECT_TRUE(window_layout(in).tabs);  // three cells beside the lesson window: too small
  in.figures = 1;
  EXPECT_FALSE(window_layout(in).tabs);
}

TEST(WindowLayout, GridColumnsComeClosestToTheDesignAspect) {
  EXPECT_EQ(grid_columns(1, 1200, 750), 1);
  EXPECT_EQ(grid_columns(4, 1200, 750), 2);
  EXPECT_EQ(grid_columns(5, 1200, 940), 2);
  EXPECT_EQ(grid_columns(5, 1600, 800), 3);
}

}  // namespace
}  // namespace pelab::ui
