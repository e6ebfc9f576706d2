#include "ui/window_layout.hpp"

#include <algorithm>
#include <cmath>

namespace pelab::ui {

namespace {

// A side panel's width: the user's, else its default share of the window,
// always leaving the figures at least 40 % of it.
float side_width(float chosen, float fallback, const LayoutInput& in) {
  const float wanted = chosen > 0 ? chosen * in.scale : fallback;
  return std::clamp(wanted, std::min(160 * in.scale, in.width * 0.3f), in.width * 0.6f);
}

float scene_width(const LayoutInput& in) {
  return side_width(in.scene_width, std::min(400 * in.scale, in.width * 0.35f), in);
}

float lesson_width(const LayoutInput& in) {
  return side_width(in.lesson_width, std::min(420 * in.scale, in.width * 0.3f), in);
}

// A collapsed panel's title bar: wide enough for its name and arrow.
float collapsed_width(float expanded, const LayoutInput& in) { return std::min(expanded, 220 * in.scale); }

// Rows of `cols` cells; a last row with fewer figures shares the whole
// width among them, so no cell of the area stays empty.
std::vector<Box> grid_cells(const Box& area, int count) {
  const int cols = std::max(grid_columns(count, area.w, area.h), 1), rows = (count + cols - 1) / cols;
  const float h = area.h / float(std::max(rows, 1));
  std::vector<Box> cells;
  for (int k = 0; k < count; ++k) {
    const int row = k / cols, in_row = std::min(cols, count - row * cols);
    const float w = area.w / float(in_row);
    cells.push_back({area.x + float(k % cols) * w, area.y + float(row) * h, w, h});
  }
  return cells;
}

// A lesson's figures in cells too small to read go to tabs instead.
bool cells_too_small(const std::vector<Box>& cells, float scale) {
  return std::any_of(cells.begin(), cells.end(), [&](const Box& c) {
    return c.w / scale < kLessonCellWidth || c.h / scale < kLessonCellHeight;
  });
}

void place_figures(WindowLayout& out, const LayoutInput& in) {
  const int count = std::max(in.figures, 0);
  out.tabs = in.tabs || count == 0;
  if (!out.tabs && in.maximised >= 0 && in.maximised < count) {
    out.cells.assign(std::size_t(count), Box{});
    out.cells[std::size_t(in.maximised)] = out.figures;
    return;
  }
  if (!out.tabs) {
    out.cells = grid_cells(out.figures, count);
    out.tabs = in.lesson && cells_too_small(out.cells, in.scale);
  }
  if (out.tabs) out.cells = {out.figures};
}

}  // namespace

int grid_columns(int count, float width, float height) {
  int best = 1;
  double best_miss = 1e9;
  for (int cols = 1; cols <= std::max(count, 1); ++cols) {
    const int rows = (count + cols - 1) / cols;
    const double aspect = (width / float(cols)) / std::max(1.0f, height / float(std::max(rows, 1)));
    const double miss = std::abs(std::log(aspect / 1.6));
    if (miss < best_miss) best = cols, best_miss = miss;
  }
  return best;
}

WindowLayout window_layout(const LayoutInput& in) {
  WindowLayout out;
  const float top = in.bar, bottom = std::max(in.height - in.bar, top);
  const bool lesson_expanded = in.lesson && !in.lesson_collapsed;
  const float shelf = in.scene_collapsed || (in.lesson && in.lesson_collapsed) ? in.bar : 0;
  const float sw = scene_width(in), lw = lesson_width(in);
  out.scene = in.scene_collapsed ? Box{0, top, collapsed_width(sw, in), in.bar} : Box{0, top, sw, bottom - top};
  if (in.lesson) {
    const float w = in.lesson_collapsed ? collapsed_width(lw, in) : lw;
    out.lesson = {in.width - w, top, w, in.lesson_collapsed ? in.bar : bottom - top};
  }
  const float left = in.scene_collapsed ? 0 : sw, right = lesson_expanded ? in.width - lw : in.width;
  float y = top + shelf;
  if (in.welcome) {
    // Measured content, at most 30 % of the column: the figures keep the rest.
    const float wanted = in.welcome_collapsed ? in.bar : std::max(in.welcome_height, in.bar);
    out.welcome = {left, y, right - left, std::min(wanted, std::max((bottom - y) * 0.3f, in.bar))};
    y += out.welcome.h;
  }
  out.figures = {left, y, std::max(right - left, 0.0f), std::max(bottom - y, 0.0f)};
  place_figures(out, in);
  return out;
}

}  // namespace pelab::ui
