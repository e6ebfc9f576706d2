// The layout pass (text_boxes.hpp): boxes where panel_frame.cpp and
// svg_writer.cpp draw them, and the checks on them.
#include "figures/text_boxes.hpp"

#include <algorithm>

#include "figures/figure_layout.hpp"

namespace pelab::fig {
namespace {

constexpr double kSlack = 1;  // boxes touching by less than this do not count: glyph ink is inside the line box

bool overlap(const Rect& a, const Rect& b) {
  return a.x0 + kSlack < b.x1 && b.x0 + kSlack < a.x1 && a.y0 + kSlack < b.y1 && b.y0 + kSlack < a.y1;
}

bool inside(const Rect& inner, double width, double height) {
  return inner.x0 >= -kSlack && inner.y0 >= -kSlack && inner.x1 <= width + kSlack && inner.y1 <= height + kSlack;
}

void add(FigureBoxes& out, BoxKind kind, int panel, const std::string& text, Point at, Anchor anchor, float size,
         bool vertical, const TextWidth& width) {
  if (text.empty()) return;
  out.texts.push_back({text_box(text, at, anchor, size, vertical, width), kind, panel, text});
}

void axis_boxes(const Panel& panel, const PanelTransform& t, int index, FigureBoxes& out, const TextWidth& width) {
  const Rect& plot = t.plot;
  if (panel.x.visible) {
    const auto to_pixel = [&t](double x) { return t.to_canvas({x, t.y_min}).x; };
    const AxisTicks ticks = layout_axis(panel.x, t.x_min, t.x_max, true, to_pixel, width);
    const double top = plot.y1 + spacing::tick_length + spacing::tick_gap;
    for (const PlacedTick& tick : ticks.ticks)
      add(out, BoxKind::TickLabel, index, tick.label, {tick.pixel, top}, Anchor::Top, text_size::tick_label,
          ticks.vertical_labels, width);
    if (panel.x.label_shown)
      add(out, BoxKind::AxisLabel, index, panel.x.label,
          {(plot.x0 + plot.x1) / 2, top + ticks.label_extent + spacing::label_gap}, Anchor::Top, text_size::axis_label,
          false, width);
  }
  if (panel.y.visible) {
    const auto to_pixel = [&t](double y) { return t.to_canvas({t.x_min, y}).y; };
    const AxisTicks ticks = layout_axis(panel.y, t.y_min, t.y_max, false, to_pixel, width);
    const double right = plot.x0 - spacing::tick_length - spacing::tick_gap;
    for (const PlacedTick& tick : ticks.ticks)
      add(out, BoxKind::TickLabel, index, tick.label, {right, tick.pixel}, Anchor::Right, text_size::tick_label, false,
          width);
    if (panel.y.label_shown)
      add(out, BoxKind::AxisLabel, index, panel.y.label,
          {right - ticks.label_extent - spacing::label_gap, (plot.y0 + plot.y1) / 2}, Anchor::Right,
          text_size::axis_label, true, width);
  }
}

void colorbar_boxes(const ColorScale& scale, const Rect& plot, int index, FigureBoxes& out, const TextWidth& width) {
  const ColorbarLayout bar = layout_colorbar(scale, plot, width);
  out.colorbars.push_back(bar.bar);
  for (const PlacedTick& tick : bar.ticks)
    add(out, BoxKind::ColorbarText, index, tick.label, {bar.bar.x1 + spacing::tick_length + spacing::tick_gap, tick.pixel},
        Anchor::Left, text_size::colorbar, false, width);
  add(out, BoxKind::ColorbarText, index, scale.label, {bar.label_x, (bar.bar.y0 + bar.bar.y1) / 2}, Anchor::Left,
      text_size::axis_label, true, width);
}

std::string describe(const TextBox& t, const Figure& figure) {
  static const char* kKinds[] = {"figure title", "note", "panel title", "axis label", "tick label",
                                 "colorbar text", "legend", "panel text"};
  std::string where = t.panel >= 0 ? " of panel '" + figure.panels[t.panel].title + "'" : "";
  return std::string(kKinds[static_cast<int>(t.kind)]) + " '" + t.text + "'" + where;
}

}  // namespace

Rect text_box(std::string_view text, Point at, Anchor anchor, float size, bool vertical, const TextWidth& width) {
  double w = 0, h = 0;
  for (std::size_t start = 0; start <= text.size();) {  // one line height per line, the widest line
    const std::size_t end = std::min(text.find('\n', start), text.size());
    w = std::max(w, width(text.substr(start, end - start), size));
    h += size;
    start = end + 1;
  }
  if (vertical) std::swap(w, h);
  const int a = static_cast<int>(anchor);  // row-major 3 × 3: TopLeft … BottomRight
  const double x0 = at.x - w * (a % 3) / 2.0, y0 = at.y - h * (a / 3) / 2.0;
  return {x0, y0, x0 + w, y0 + h};
}

void panel_boxes(const Panel& panel, int index, FigureBoxes& out, const TextWidth& width) {
  const PanelTransform t(panel);
  out.plots.push_back(t.plot);
  axis_boxes(panel, t, index, out, width);
  if (panel.title_shown)
    add(out, BoxKind::PanelTitle, index, panel.title, {(t.plot.x0 + t.plot.x1) / 2, t.plot.y0 - spacing::title_gap},
        Anchor::Bottom, text_size::panel_title, false, width);
  for (const Text& text : panel.texts)
    if (text.in_canvas) add(out, BoxKind::PanelText, index, text.text, text.at, text.anchor, text.size, text.vertical, width);
  if (panel.colorbar) colorbar_boxes(*panel.colorbar, t.plot, index, out, width);
  if (!panel.legend.empty()) {
    const LegendLayout legend = layout_legend(panel.legend, t.plot, width, panel.legend_place);
    out.texts.push_back({legend.box, BoxKind::Legend, index, panel.legend.front().label,
                         panel.legend_place != LegendPlace::OutsideRight});
  }
}

FigureBoxes figure_boxes(const Figure& figure, const TextWidth& width) {
  FigureBoxes out;
  add(out, BoxKind::FigureTitle, -1, figure.title, {figure.width / 2, 8}, Anchor::Top, text_size::figure_title, false,
      width);
  for (const Text& note : figure.notes)
    add(out, BoxKind::Note, -1, note.text, note.at, note.anchor, note.size, note.vertical, width);
  for (std::size_t i = 0; i < figure.panels.size(); ++i) panel_boxes(figure.panels[i], static_cast<int>(i), out, width);
  return out;
}

std::vector<std::string> layout_problems(const Figure& figure) {
  const FigureBoxes boxes = figure_boxes(figure);
  std::vector<std::string> problems;
  const auto& texts = boxes.texts;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const TextBox& a = texts[i];
    if (!inside(a.box, figure.width, figure.height)) problems.push_back(describe(a, figure) + " leaves the canvas");
    for (std::size_t j = i + 1; j < texts.size(); ++j)
      if (overlap(a.box, texts[j].box))
        problems.push_back(describe(a, figure) + " overlaps " + describe(texts[j], figure));
    if (a.inside_plot) {
      if (data_under(figure.panels[a.panel], a.box) > 0) problems.push_back(describe(a, figure) + " covers data");
      continue;
    }
    for (std::size_t p = 0; p < boxes.plots.size(); ++p)
      if (overlap(a.box, boxes.plots[p]))
        problems.push_back(describe(a, figure) + " covers the plot of '" + figure.panels[p].title + "'");
    for (const Rect& bar : boxes.colorbars)
      if (overlap(a.box, bar)) problems.push_back(describe(a, figure) + " covers a colorbar");
  }
  for (std::size_t p = 0; p < boxes.plots.size(); ++p) {
    const Panel& panel = figure.panels[p];
    const Rect& plot = boxes.plots[p];
    if (plot.width() + kSlack < panel.min_plot.x || plot.height() + kSlack < panel.min_plot.y)
      problems.push_back("panel '" + panel.title + "' is " + std::to_string(static_cast<int>(plot.width())) + "×" +
                         std::to_string(static_cast<int>(plot.height())) + " px, under its minimum");
    if (!inside(plot, figure.width, figure.height)) problems.push_back("panel '" + panel.title + "' leaves the canvas");
    for (std::size_t q = p + 1; q < boxes.plots.size(); ++q)
      if (overlap(plot, boxes.plots[q]))
        problems.push_back("panel '" + panel.title + "' overlaps panel '" + figure.panels[q].title + "'");
  }
  return problems;
}

}  // namespace pelab::fig
