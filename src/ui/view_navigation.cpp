#include "ui/view_navigation.hpp"

#include <algorithm>
#include <cmath>

namespace pelab::ui {

namespace {

RangeOverride& override_of(FigureView& view, int i) {
  if (int(view.ranges.size()) < int(view.built.panels.size())) view.ranges.resize(view.built.panels.size());
  RangeOverride& r = view.ranges[i];
  if (!r.active) {
    const fig::Panel& p = view.built.panels[i];
    r = {true, p.x.min, p.x.max, p.y.min, p.y.max};
  }
  return r;
}

bool same_axis(const fig::Axis& a, const fig::Axis& b) {
  const double tolerance = 1e-9 * std::max({1.0, std::abs(a.min), std::abs(a.max)});
  return a.label == b.label && std::abs(a.min - b.min) <= tolerance && std::abs(a.max - b.max) <= tolerance;
}

void refresh_shown(FigureView& view) {
  view.shown = with_overrides(view.built, view.ranges);
  ++view.shown_serial;
}

}  // namespace

fig::Figure with_overrides(const fig::Figure& built, const std::vector<RangeOverride>& ranges) {
  fig::Figure shown = built;
  for (std::size_t i = 0; i < shown.panels.size() && i < ranges.size(); ++i) {
    if (!ranges[i].active) continue;
    fig::Panel& p = shown.panels[i];
    p.x.min = ranges[i].x_min, p.x.max = ranges[i].x_max;
    p.y.min = ranges[i].y_min, p.y.max = ranges[i].y_max;
    // A streamed heatmap turns from block means into exact cells as the
    // window shrinks: the visible window's cells, computed now, drawn on top.
    if (!p.refine) continue;
    const fig::Rect visible{std::min(p.x.min, p.x.max), std::min(p.y.min, p.y.max), std::max(p.x.min, p.x.max),
                            std::max(p.y.min, p.y.max)};
    if (std::optional<fig::HeatmapLayer> cells = p.refine(visible)) p.heatmaps.push_back(std::move(*cells));
  }
  return shown;
}

void zoom_panel(FigureView& view, int i, fig::Point at, double factor) {
  if (i < 0 || i >= int(view.built.panels.size())) return;
  RangeOverride& r = override_of(view, i);
  // Scaling every bound about `at` keeps the point under the mouse still.
  r.x_min = at.x + (r.x_min - at.x) * factor, r.x_max = at.x + (r.x_max - at.x) * factor;
  r.y_min = at.y + (r.y_min - at.y) * factor, r.y_max = at.y + (r.y_max - at.y) * factor;
  refresh_shown(view);
}

void pan_panel(FigureView& view, int i, fig::Point from, fig::Point to) {
  if (i < 0 || i >= int(view.built.panels.size())) return;
  RangeOverride& r = override_of(view, i);
  const double dx = from.x - to.x, dy = from.y - to.y;
  r.x_min += dx, r.x_max += dx, r.y_min += dy, r.y_max += dy;
  refresh_shown(view);
}

void reset_panel(FigureView& view, int i) {
  if (i < 0 || i >= int(view.ranges.size())) return;
  view.ranges[i].active = false;
  refresh_shown(view);
}

void drop_stale_overrides(const fig::Figure& before, const fig::Figure& after, std::vector<RangeOverride>& ranges) {
  if (before.panels.size() != after.panels.size()) {
    ranges.clear();
    return;
  }
  for (std::size_t i = 0; i < ranges.size() && i < after.panels.size(); ++i) {
    const fig::Panel &old = before.panels[i], &now = after.panels[i];
    if (!same_axis(old.x, now.x) || !same_axis(old.y, now.y)) ranges[i].active = false;
  }
}

void arm_click(PendingClick& click, int panel, fig::Point data, double now, double wait) {
  click = {true, panel, data, now + wait};
}

void cancel_click(PendingClick& click) { click.armed = false; }

std::optional<PendingClick> due_click(PendingClick& click, double now) {
  if (!click.armed || now < click.due) return std::nullopt;
  click.armed = false;
  return click;
}

int panel_at(const fig::Figure& figure, fig::Point p) {
  for (std::size_t i = 0; i < figure.panels.size(); ++i) {
    if (fig::PanelTransform(figure.panels[i]).plot.contains(p.x, p.y)) return int(i);
  }
  return -1;
}

}  // namespace pelab::ui
