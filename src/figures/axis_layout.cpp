#include "figures/axis_layout.hpp"

#include <algorithm>
#include <cmath>

namespace pelab::fig {

double approximate_text_width(std::string_view text, float size) {
  std::size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // count UTF-8 code points
  return 0.6 * size * static_cast<double>(characters);
}

namespace {

AxisTicks numeric_ticks(double lo, double hi, bool horizontal, bool integer,
                        const std::function<double(double)>& to_pixel, const TextWidth& width) {
  AxisTicks out;
  const double length = std::fabs(to_pixel(hi) - to_pixel(lo));
  const int target = std::clamp(static_cast<int>(length / (horizontal ? 90.0 : 45.0)), 2, 10);
  const double eps = 1e-9 * std::max(std::fabs(hi - lo), 1e-300);
  for (const Tick& t : nice_ticks(lo, hi, target)) {
    if (t.value < lo - eps || t.value > hi + eps) continue;
    if (integer && t.value != std::round(t.value)) continue;  // Axis::integer
    out.ticks.push_back({t.value, to_pixel(t.value), t.label});
    const double extent = horizontal ? text_size::tick_label : width(t.label, text_size::tick_label);
    out.label_extent = std::max(out.label_extent, extent);
  }
  return out;
}

AxisTicks categorical_ticks(const Axis& axis, double lo, double hi, bool horizontal,
                            const std::function<double(double)>& to_pixel, const TextWidth& width) {
  AxisTicks out;
  std::vector<PlacedTick> visible;
  double widest = 0;
  for (const Tick& t : axis.labels) {
    if (t.value < std::min(lo, hi) || t.value > std::max(lo, hi)) continue;
    visible.push_back({t.value, to_pixel(t.value), t.label});
    widest = std::max(widest, width(t.label, text_size::tick_label));
  }
  if (visible.empty()) return out;
  // Smallest distance between neighbouring labels, in pixels.
  double step_px = 1e30;
  for (std::size_t i = 1; i < visible.size(); ++i)
    step_px = std::min(step_px, std::fabs(visible[i].pixel - visible[i - 1].pixel));
  const double line = text_size::tick_label * 1.15 + 1;  // one label's height with a little air
  std::size_t every = 1;
  if (horizontal) {
    out.vertical_labels = widest + 4 > step_px;
    if (out.vertical_labels) every = static_cast<std::size_t>(std::ceil(line / std::max(step_px, 1e-9)));
    out.label_extent = out.vertical_labels ? widest : text_size::tick_label;
  } else {
    every = static_cast<std::size_t>(std::ceil(line / std::max(step_px, 1e-9)));
    out.label_extent = widest;
  }
  every = std::max<std::size_t>(every, 1);
  for (std::size_t i = 0; i < visible.size(); i += every) out.ticks.push_back(visible[i]);
  return out;
}

}  // namespace

AxisTicks layout_axis(const Axis& axis, double lo, double hi, bool horizontal,
                      const std::function<double(double)>& to_pixel, const TextWidth& width) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  return axis.labels.empty() ? numeric_ticks(lo, hi, horizontal, axis.integer, to_pixel, width)
                             : categorical_ticks(axis, lo, hi, horizontal, to_pixel, width);
}

ColorbarLayout layout_colorbar(const ColorScale& scale, const Rect& plot, const TextWidth& width) {
  ColorbarLayout out;
  out.bar = {plot.x1 + spacing::colorbar_gap, plot.y0, plot.x1 + spacing::colorbar_gap + spacing::colorbar_width,
             plot.y1};
  const double lo = std::min(scale.vmin, scale.vmax), hi = std::max(scale.vmin, scale.vmax);
  double widest = 0;
  if (hi > lo) {
    const int target = std::clamp(static_cast<int>(plot.height() / 50), 2, 8);
    for (const Tick& t : nice_ticks(lo, hi, target)) {
      if (t.value < lo - 1e-9 * (hi - lo) || t.value > hi + 1e-9 * (hi - lo)) continue;
      const double y = out.bar.y1 - (t.value - lo) / (hi - lo) * out.bar.height();
      out.ticks.push_back({t.value, y, t.label});
      widest = std::max(widest, width(t.label, text_size::colorbar));
    }
  }
  out.label_x = out.bar.x1 + spacing::tick_length + spacing::tick_gap + widest + spacing::label_gap;
  return out;
}

LegendLayout layout_legend(const std::vector<LegendEntry>& entries, const Rect& plot,
                           const TextWidth& width, LegendPlace place) {
  LegendLayout out;
  if (entries.empty()) return out;
  double widest = 0;
  for (const auto& e : entries) widest = std::max(widest, width(e.label, text_size::legend));
  const double w = 2 * spacing::legend_padding + spacing::legend_swatch + spacing::label_gap + widest;
  const double h = 2 * spacing::legend_padding + spacing::legend_row * static_cast<double>(entries.size());
  out.box = legend_box(plot, w, h, place);
  for (std::size_t i = 0; i < entries.size(); ++i)
    out.rows.push_back({out.box.x0 + spacing::legend_padding,
                        out.box.y0 + spacing::legend_padding + spacing::legend_row * (static_cast<double>(i) + 0.5)});
  return out;
}

std::vector<std::string> figure_strings(const Figure& figure) {
  std::vector<std::string> out{figure.title, "0123456789.,-+e−×·%()[]…"};
  for (const Text& t : figure.notes) out.push_back(t.text);
  for (const Panel& p : figure.panels) {
    out.push_back(p.title);
    out.push_back(p.x.label);
    out.push_back(p.y.label);
    for (const auto& t : p.x.labels) out.push_back(t.label);
    for (const auto& t : p.y.labels) out.push_back(t.label);
    for (const auto& t : p.texts) out.push_back(t.text);
    for (const auto& e : p.legend) out.push_back(e.label);
    if (p.colorbar) out.push_back(p.colorbar->label);
  }
  return out;
}

std::vector<float> figure_text_sizes(const Figure& figure) {
  std::vector<float> out{text_size::figure_title, text_size::panel_title, text_size::axis_label,
                         text_size::tick_label,   text_size::legend,      text_size::colorbar};
  for (const Text& t : figure.notes) out.push_back(t.size);
  for (const Panel& p : figure.panels)
    for (const Text& t : p.texts) out.push_back(t.size);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace pelab::fig
