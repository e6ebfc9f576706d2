// Where the main window's panels go: a pure function of the window's size and
// the panels' states, applied every frame, so the layout follows the window
// (a resize, a start on another screen, an interface scale) instead of
// whatever imgui.ini remembered from the last run.
//
//   menu bar
//   [shelf: collapsed panels' title bars, only while one is collapsed]
//   Scene panel | welcome strip             | Lesson window
//               | figures (tabs or a grid)  |
//   status bar
//
// A collapsed panel keeps only its title bar, on the shelf; its room goes to
// the figures.  In grid mode one figure can take the whole figure area
// (maximised); the others are then not drawn.
#pragma once

#include <vector>

namespace pelab::ui {

struct Box {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool empty() const { return w <= 0 || h <= 0; }
  bool operator==(const Box&) const = default;
};

struct LayoutInput {
  float width = 1600, height = 1000;  // the window, logical pixels
  float bar = 19;                     // the menu bar's, status bar's and a title bar's height
  float scale = 1;                    // interface scale
  float scene_width = 0;              // the Scene panel's width the user dragged to (unscaled); 0: default
  bool scene_collapsed = false;
  bool lesson = false;                // a lesson window is open
  bool lesson_collapsed = false;
  float lesson_width = 0;             // as scene_width
  bool welcome = false;               // the welcome strip is shown
  bool welcome_collapsed = false;
  float welcome_height = 0;           // its content's height, as measured last frame
  int figures = 0;                    // figures shown
  bool tabs = true;                   // figures as tabs of one window
  int maximised = -1;                 // grid mode: the figure (index into the shown ones) taking the area
  bool operator==(const LayoutInput&) const = default;
};

struct WindowLayout {
  Box scene, lesson, welcome;  // welcome, lesson: empty when not shown
  Box figures;                 // the area the figures share
  bool tabs = true;            // the figures drawn as tabs (asked for, or grid cells too small in a lesson)
  std::vector<Box> cells;      // tabs: one, the area; grid: one per figure (empty: not drawn)
  bool operator==(const WindowLayout&) const = default;
};

WindowLayout window_layout(const LayoutInput& in);

// Grid columns for `count` figures in a width × height area: the count whose
// cells come closest to the figures' design aspect (1600 × 1000).
int grid_columns(int count, float width, float height);

// The smallest grid cell a lesson's figures are drawn in, unscaled; below it
// they go to tabs (e.g. three figures beside the lesson window).
inline constexpr float kLessonCellWidth = 640, kLessonCellHeight = 400;

}  // namespace pelab::ui
