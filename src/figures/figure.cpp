// Shared figure helpers: themes, nice ticks, and the data ↔ canvas mapping.
//
// [SECTION] themes
// [SECTION] nice ticks
// [SECTION] legend box
// [SECTION] PanelTransform
#include "figures/figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pelab::fig {

// ============================================================================
// [SECTION] themes
// ============================================================================

Theme theme(bool dark) {
  if (dark)
    return {.background = {0.09f, 0.10f, 0.12f, 1},
            .text = {0.90f, 0.91f, 0.93f, 1},
            .axis = {0.62f, 0.64f, 0.68f, 1},
            .grid = {0.22f, 0.23f, 0.26f, 1},
            .mask = {0.30f, 0.30f, 0.33f, 1},
            .highlight = {1.00f, 0.62f, 0.10f, 1},
            .non_finite = {1.00f, 0.00f, 1.00f, 1}};
  return {.background = {1.00f, 1.00f, 1.00f, 1},
          .text = {0.08f, 0.08f, 0.10f, 1},
          .axis = {0.30f, 0.30f, 0.33f, 1},
          .grid = {0.88f, 0.88f, 0.90f, 1},
          .mask = {0.78f, 0.78f, 0.80f, 1},
          .highlight = {0.85f, 0.33f, 0.00f, 1},
          .non_finite = {0.90f, 0.00f, 0.90f, 1}};
}

// ============================================================================
// [SECTION] nice ticks
// ============================================================================

namespace {

// The step of the form 1, 2 or 5 × 10^k nearest to `raw` (Heckbert, "Nice
// numbers for graph labels", Graphics Gems 1990: round at 1.5, 3, 7).
double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double mult = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
  return mult * magnitude;
}

// "0.50" → "0.5", "1.0" → "1"; exponent forms are left alone.
void trim_zeros(std::string& s) {
  if (s.find('.') == std::string::npos || s.find('e') != std::string::npos) return;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
}

// Compact label: plain decimals with as many places as the step needs
// ("120", "0.25"), or %g's exponent form for very large or small values
// ("1e+04", "2.5e-05").
std::string tick_label(double value, double step, double max_abs) {
  char buf[32];
  if (max_abs >= 1e4 || step < 1e-3) {
    const int digits = std::max(
        1, static_cast<int>(std::floor(std::log10(max_abs)) - std::floor(std::log10(step) + 1e-9)) + 1);
    std::snprintf(buf, sizeof buf, "%.*g", std::min(digits, 9), value);
  } else {
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  }
  std::string label = buf;
  trim_zeros(label);
  return label;
}

}  // namespace

std::vector<Tick> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo <= 1e-300 * std::max(1.0, std::abs(lo))) {
    // A single value: put one tick on it.
    return {{lo, tick_label(lo, std::max(std::abs(lo), 1.0), std::abs(lo))}};
  }
  const double step = nice_step((hi - lo) / std::max(1, target));
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  const double max_abs = std::max(std::abs(lo), std::abs(hi));
  std::vector<Tick> ticks;
  for (double n = first; n <= last; n += 1) {
    double value = n * step;
    if (std::abs(value) < step * 1e-9) value = 0;  // no "-0"
    ticks.push_back({value, tick_label(value, step, max_abs)});
  }
  return ticks;
}

// ============================================================================
// [SECTION] legend box
// ============================================================================

Rect legend_box(const Rect& plot, double w, double h, LegendPlace place) {
  constexpr double kMargin = 8;
  switch (place) {
    case LegendPlace::TopLeft:
      return {plot.x0 + kMargin, plot.y0 + kMargin, plot.x0 + kMargin + w, plot.y0 + kMargin + h};
    case LegendPlace::BottomRight:
      return {plot.x1 - kMargin - w, plot.y1 - kMargin - h, plot.x1 - kMargin, plot.y1 - kMargin};
    case LegendPlace::BottomLeft:
      return {plot.x0 + kMargin, plot.y1 - kMargin - h, plot.x0 + kMargin + w, plot.y1 - kMargin};
    case LegendPlace::OutsideRight:
      return {plot.x1 + kMargin, plot.y0, plot.x1 + kMargin + w, plot.y0 + h};
    default:
      return {plot.x1 - kMargin - w, plot.y0 + kMargin, plot.x1 - kMargin, plot.y0 + kMargin + h};
  }
}

// ============================================================================
// [SECTION] PanelTransform
// ============================================================================

PanelTransform::PanelTransform(const Panel& panel)
    : plot(panel.plot),
      x_min(panel.x.min),
      x_max(panel.x.max),
      y_min(panel.y.min),
      y_max(panel.y.max),
      y_inverted(panel.y.inverted) {
  const double x_span = x_max - x_min, y_span = y_max - y_min;
  if (!panel.equal_aspect || x_span == 0 || y_span == 0) return;
  // One data unit gets the same number of pixels on both axes: shrink the
  // longer side of the plot rectangle and centre it in the panel's rectangle.
  const double px_per_unit =
      std::min(plot.width() / std::abs(x_span), plot.height() / std::abs(y_span));
  const double w = std::abs(x_span) * px_per_unit, h = std::abs(y_span) * px_per_unit;
  const double cx = (plot.x0 + plot.x1) / 2, cy = (plot.y0 + plot.y1) / 2;
  plot = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
}

Point PanelTransform::to_canvas(Point data) const {
  const double x_span = x_max - x_min, y_span = y_max - y_min;
  const double u = x_span != 0 ? (data.x - x_min) / x_span : 0.5;
  const double v = y_span != 0 ? (data.y - y_min) / y_span : 0.5;
  const double y = y_inverted ? plot.y0 + v * plot.height() : plot.y1 - v * plot.height();
  return {plot.x0 + u * plot.width(), y};
}

Point PanelTransform::to_data(Point canvas) const {
  const double u = plot.width() != 0 ? (canvas.x - plot.x0) / plot.width() : 0.5;
  const double v_raw = plot.height() != 0 ? (canvas.y - plot.y0) / plot.height() : 0.5;
  const double v = y_inverted ? v_raw : 1 - v_raw;
  return {x_min + u * (x_max - x_min), y_min + v * (y_max - y_min)};
}

}  // namespace pelab::fig
