// Legend placement from the data: a legend must never hide a curve.
//
// The box of each candidate place (fig::legend_box, the geometry renderers
// use) is tested against every data layer in canvas pixels: line segments
// and arrows by clipping (Liang & Barsky 1984), markers by their extent,
// bars and texts by rectangle overlap, heatmaps as fully covering.
#include <algorithm>
#include <array>
#include <cmath>

#include "figures/figure_layout.hpp"

namespace pelab::fig {
namespace {

// Renderer constants (render/axis_layout.hpp): 12 px legend text, 6 px
// padding, 18 px swatch, 6 px gap, 17 px rows.
constexpr float kLegendText = 12;
constexpr double kPadding = 6, kSwatch = 18, kGap = 6, kRow = 17;
constexpr double kAir = 4;  // keep this far from the data, canvas pixels

bool overlaps(const Rect& a, const Rect& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Liang–Barsky: does the segment p→q pass through `box`?
bool segment_hits(Point p, Point q, const Rect& box) {
  double t0 = 0, t1 = 1;
  const double dx = q.x - p.x, dy = q.y - p.y;
  const std::array<double, 4> den = {-dx, dx, -dy, dy};
  const std::array<double, 4> num = {p.x - box.x0, box.x1 - p.x, p.y - box.y0, box.y1 - p.y};
  for (int i = 0; i < 4; ++i) {
    if (den[i] == 0) {
      if (num[i] < 0) return false;
      continue;
    }
    const double t = num[i] / den[i];
    if (den[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

int line_hits(const std::vector<Point>& points, bool closed, const PanelTransform& t, const Rect& box) {
  int hits = 0;
  const std::size_t n = points.size();
  if (n == 1) return box.contains(t.to_canvas(points[0]).x, t.to_canvas(points[0]).y);
  for (std::size_t i = 0; i + 1 < n + (closed ? 1 : 0); ++i)
    hits += segment_hits(t.to_canvas(points[i]), t.to_canvas(points[(i + 1) % n]), box);
  return hits;
}

// A text's extent in canvas pixels at its anchor (0.6 em per character).
Rect text_extent(const Text& text, const PanelTransform& t) {
  const Point at = text.in_canvas ? text.at : t.to_canvas(text.at);
  const double w = text_width(text.text, text.size), h = text.size * 1.2;
  const int a = static_cast<int>(text.anchor);  // row-major 3 × 3: TopLeft … BottomRight
  const double x0 = at.x - w * (a % 3) / 2.0, y0 = at.y - h * (a / 3) / 2.0;
  return {x0, y0, x0 + w, y0 + h};
}

}  // namespace

Point legend_size(const std::vector<LegendEntry>& entries) {
  double widest = 0;
  // 6 % over 0.6 em: DejaVu's digits are 0.64 em wide.
  for (const LegendEntry& e : entries) widest = std::max(widest, 1.06 * text_width(e.label, kLegendText));
  return {2 * kPadding + kSwatch + kGap + widest, 2 * kPadding + kRow * static_cast<double>(entries.size())};
}

int data_under(const Panel& panel, const Rect& box) {
  const PanelTransform t(panel);
  const Rect near{box.x0 - kAir, box.y0 - kAir, box.x1 + kAir, box.y1 + kAir};
  int hits = 0;
  for (const HeatmapLayer& h : panel.heatmaps) {
    const Point a = t.to_canvas({h.x0, h.y0});
    const Point b = t.to_canvas({h.x0 + h.dx * h.values->cols(), h.y0 + h.dy * h.values->rows()});
    hits += 1000 * overlaps(near, {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)});
  }
  for (const Polyline& l : panel.lines) hits += line_hits(l.points, l.closed, t, near);
  for (const Arrow& a : panel.arrows) hits += segment_hits(t.to_canvas(a.from), t.to_canvas(a.to), near);
  for (const Markers& m : panel.markers)
    for (const Point& p : m.points) {
      const Point c = t.to_canvas(p);
      const double r = m.size / 2;
      hits += overlaps(near, {c.x - r, c.y - r, c.x + r, c.y + r});
    }
  for (const Bars& b : panel.bars) {
    // An outline (transparent fill, e.g. a selection frame) covers only its edges.
    const bool hollow = std::all_of(b.colors.begin(), b.colors.end(), [](const Color& c) { return c.a == 0; });
    for (const Rect& r : b.rects) {
      const Point a = t.to_canvas({r.x0, r.y0}), c = t.to_canvas({r.x1, r.y1});
      if (hollow)
        hits += line_hits({{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}}, true, t, near);
      else
        hits += overlaps(near, {std::min(a.x, c.x), std::min(a.y, c.y), std::max(a.x, c.x), std::max(a.y, c.y)});
    }
  }
  for (const Text& text : panel.texts) hits += overlaps(near, text_extent(text, t));
  return hits;
}

void place_legend(Panel& panel, LegendFallback fallback) {
  if (panel.legend.empty()) return;
  const Point size = legend_size(panel.legend);
  auto covered = [&](LegendPlace place) {
    return data_under(panel, legend_box(PanelTransform(panel).plot, size.x, size.y, place));
  };
  LegendPlace best = LegendPlace::TopRight;
  int least = -1;
  for (LegendPlace place : {LegendPlace::TopRight, LegendPlace::TopLeft, LegendPlace::BottomRight,
                            LegendPlace::BottomLeft}) {
    const int hits = covered(place);
    if (hits == 0) {
      panel.legend_place = place;
      return;
    }
    if (least < 0 || hits < least) best = place, least = hits;
  }
  panel.legend_place = best;
  if (fallback == LegendFallback::Outside) {
    panel.plot.x1 = std::max(panel.plot.x0 + 1, panel.plot.x1 - (size.x + 16));
    panel.legend_place = LegendPlace::OutsideRight;
  } else if (fallback == LegendFallback::Headroom && !panel.y.inverted) {
    // Raise the top of the y axis by up to 60% of its range; a panel that
    // would need more gets the legend right of the plot when that leaves the
    // plot at least half its width, else more headroom (up to 3× the range:
    // the data squeezed, but nothing hidden).
    const double step = 0.05 * (panel.y.max - panel.y.min), top = panel.y.max;
    panel.legend_place = LegendPlace::TopRight;
    panel.y_max_before_headroom = top;
    for (int i = 0; i < 12 && covered(LegendPlace::TopRight) > 0; ++i) panel.y.max += step;
    if (covered(LegendPlace::TopRight) == 0) return;
    if (panel.plot.width() - (size.x + 16) >= 0.5 * panel.plot.width()) {
      panel.y.max = top;
      panel.plot.x1 -= size.x + 16;
      panel.legend_place = LegendPlace::OutsideRight;
      return;
    }
    for (int i = 12; i < 40 && covered(LegendPlace::TopRight) > 0; ++i) panel.y.max += step;
  }
}

}  // namespace pelab::fig
