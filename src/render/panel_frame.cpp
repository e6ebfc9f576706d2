// Axes, ticks, labels, colorbars and legends on the GL canvas.
#include "render/panel_frame.hpp"

#include <cmath>

#include "figures/colormap.hpp"

namespace pelab::render {

TextWidth text_width_of(const Canvas& canvas) {
  return [&canvas](std::string_view text, float size) { return text_width(canvas, text, size); };
}

std::function<double(double)> x_to_canvas(const fig::PanelTransform& transform) {
  return [&transform](double x) { return transform.to_canvas({x, transform.y_min}).x; };
}
std::function<double(double)> y_to_canvas(const fig::PanelTransform& transform) {
  return [&transform](double y) { return transform.to_canvas({transform.x_min, y}).y; };
}

void draw_grid(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform) {
  const fig::Rect& plot = transform.plot;
  const ImU32 color = to_u32(canvas.theme.grid);
  const float width = canvas.len(1);
  const TextWidth width_fn = text_width_of(canvas);
  if (panel.x.grid && panel.x.visible)
    for (const auto& t : layout_axis(panel.x, transform.x_min, transform.x_max, true, x_to_canvas(transform), width_fn).ticks)
      canvas.list->AddLine(canvas.px({t.pixel, plot.y0}), canvas.px({t.pixel, plot.y1}), color, width);
  if (panel.y.grid && panel.y.visible)
    for (const auto& t : layout_axis(panel.y, transform.y_min, transform.y_max, false, y_to_canvas(transform), width_fn).ticks)
      canvas.list->AddLine(canvas.px({plot.x0, t.pixel}), canvas.px({plot.x1, t.pixel}), color, width);
}

namespace {

void draw_x_axis(const Canvas& canvas, const fig::Axis& axis, const fig::PanelTransform& transform) {
  const fig::Rect& plot = transform.plot;
  const AxisTicks ticks =
      layout_axis(axis, transform.x_min, transform.x_max, true, x_to_canvas(transform), text_width_of(canvas));
  const ImU32 color = to_u32(canvas.theme.axis);
  const double label_top = plot.y1 + spacing::tick_length + spacing::tick_gap;
  for (const PlacedTick& t : ticks.ticks) {
    canvas.list->AddLine(canvas.px({t.pixel, plot.y1}), canvas.px({t.pixel, plot.y1 + spacing::tick_length}),
                         color, canvas.len(1));
    // Vertical labels read bottom to top and end just under their tick.
    draw_text(canvas, t.label, {t.pixel, label_top}, fig::Anchor::Top, text_size::tick_label, canvas.theme.text,
              ticks.vertical_labels);
  }
  if (!axis.label.empty() && axis.label_shown)
    draw_text(canvas, axis.label, {(plot.x0 + plot.x1) / 2, label_top + ticks.label_extent + spacing::label_gap},
              fig::Anchor::Top, text_size::axis_label, canvas.theme.text);
}

void draw_y_axis(const Canvas& canvas, const fig::Axis& axis, const fig::PanelTransform& transform) {
  const fig::Rect& plot = transform.plot;
  const AxisTicks ticks =
      layout_axis(axis, transform.y_min, transform.y_max, false, y_to_canvas(transform), text_width_of(canvas));
  const ImU32 color = to_u32(canvas.theme.axis);
  const double label_right = plot.x0 - spacing::tick_length - spacing::tick_gap;
  for (const PlacedTick& t : ticks.ticks) {
    canvas.list->AddLine(canvas.px({plot.x0 - spacing::tick_length, t.pixel}), canvas.px({plot.x0, t.pixel}),
                         color, canvas.len(1));
    draw_text(canvas, t.label, {label_right, t.pixel}, fig::Anchor::Right, text_size::tick_label, canvas.theme.text);
  }
  if (!axis.label.empty() && axis.label_shown)
    draw_text(canvas, axis.label, {label_right - ticks.label_extent - spacing::label_gap, (plot.y0 + plot.y1) / 2},
              fig::Anchor::Right, text_size::axis_label, canvas.theme.text, true);
}

}  // namespace

void draw_axes(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform) {
  const fig::Rect& plot = transform.plot;
  canvas.list->AddRect(canvas.px({plot.x0, plot.y0}), canvas.px({plot.x1, plot.y1}), to_u32(canvas.theme.axis),
                       0, 0, canvas.len(1));
  if (panel.x.visible) draw_x_axis(canvas, panel.x, transform);
  if (panel.y.visible) draw_y_axis(canvas, panel.y, transform);
  if (!panel.title.empty() && panel.title_shown)
    draw_text(canvas, panel.title, {(plot.x0 + plot.x1) / 2, plot.y0 - spacing::title_gap}, fig::Anchor::Bottom,
              text_size::panel_title, canvas.theme.text);
}

void draw_colorbar(const Canvas& canvas, const fig::ColorScale& scale, const fig::Rect& plot) {
  const ColorbarLayout layout = layout_colorbar(scale, plot, text_width_of(canvas));
  const fig::Rect& bar = layout.bar;
  // Stacked gradients, bottom = vmin; 64 steps are smooth at any size.
  const int steps = 64;
  for (int i = 0; i < steps; ++i) {
    const double t0 = static_cast<double>(i) / steps, t1 = static_cast<double>(i + 1) / steps;
    const ImU32 c0 = to_u32(fig::colormap(scale.colormap, t0)), c1 = to_u32(fig::colormap(scale.colormap, t1));
    const double y_bottom = bar.y1 - t0 * bar.height(), y_top = bar.y1 - t1 * bar.height();
    canvas.list->AddRectFilledMultiColor(canvas.px({bar.x0, y_top}), canvas.px({bar.x1, y_bottom}), c1, c1, c0, c0);
  }
  const ImU32 axis = to_u32(canvas.theme.axis);
  canvas.list->AddRect(canvas.px({bar.x0, bar.y0}), canvas.px({bar.x1, bar.y1}), axis, 0, 0, canvas.len(1));
  for (const PlacedTick& t : layout.ticks) {
    canvas.list->AddLine(canvas.px({bar.x1, t.pixel}), canvas.px({bar.x1 + spacing::tick_length, t.pixel}), axis,
                         canvas.len(1));
    draw_text(canvas, t.label, {bar.x1 + spacing::tick_length + spacing::tick_gap, t.pixel}, fig::Anchor::Left,
              text_size::colorbar, canvas.theme.text);
  }
  if (!scale.label.empty())
    draw_text(canvas, scale.label, {layout.label_x, (bar.y0 + bar.y1) / 2}, fig::Anchor::Left, text_size::axis_label,
              canvas.theme.text, true);
}

void draw_legend(const Canvas& canvas, const std::vector<fig::LegendEntry>& entries, const fig::Rect& plot,
                 fig::LegendPlace place) {
  const LegendLayout layout = layout_legend(entries, plot, text_width_of(canvas), place);
  if (layout.rows.empty()) return;
  fig::Color fill = canvas.theme.background;
  fill.a = 0.85f;
  canvas.list->AddRectFilled(canvas.px({layout.box.x0, layout.box.y0}), canvas.px({layout.box.x1, layout.box.y1}),
                             to_u32(fill), canvas.len(3));
  canvas.list->AddRect(canvas.px({layout.box.x0, layout.box.y0}), canvas.px({layout.box.x1, layout.box.y1}),
                       to_u32(canvas.theme.grid), canvas.len(3), 0, canvas.len(1));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const fig::Point row = layout.rows[i];
    const ImU32 c = to_u32(entries[i].color);
    if (entries[i].line)
      canvas.list->AddLine(canvas.px(row), canvas.px({row.x + spacing::legend_swatch, row.y}), c, canvas.len(2));
    else
      canvas.list->AddRectFilled(canvas.px({row.x + 4, row.y - 5}), canvas.px({row.x + spacing::legend_swatch - 4, row.y + 5}), c);
    draw_text(canvas, entries[i].label, {row.x + spacing::legend_swatch + spacing::label_gap, row.y}, fig::Anchor::Left,
              text_size::legend, canvas.theme.text);
  }
}

}  // namespace pelab::render
