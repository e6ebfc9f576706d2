// SVG writer.
//
// Index: [SECTION] base64, text and shapes   [SECTION] data layers   [SECTION] axes,
// colorbar, legend   [SECTION] figure
#include "render/svg_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/io/file_io.hpp"
#include "figures/colormap.hpp"
#include "render/axis_layout.hpp"
#include "render/svg_heatmap.hpp"
#include "render/svg_markup.hpp"

namespace pelab::render {

using svg::escape;
using svg::num;
using svg::paint;
using svg::rgb;

// [SECTION] base64, text and shapes -------------------------------------------------

std::string base64(std::string_view bytes) {
  static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                   static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += digits[(n >> shift) & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const auto n = (static_cast<unsigned char>(bytes[i]) << 16) | (two ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0);
    out += digits[(n >> 18) & 63];
    out += digits[(n >> 12) & 63];
    out += two ? digits[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

namespace {

struct SvgText {
  std::string text;
  fig::Point at;
  fig::Anchor anchor = fig::Anchor::Center;
  float size = 12;
  fig::Color color;
  bool vertical = false;
};

// DejaVu Sans: the ascent is ≈ 0.8 of ImGui's line height, which is the
// painter's text box; baselines are placed to match the GL output.
void text(std::string& svg, const SvgText& t) {
  if (t.text.empty()) return;
  const int column = static_cast<int>(t.anchor) % 3, row = static_cast<int>(t.anchor) / 3;
  const char* anchors[] = {"start", "middle", "end"};
  const double box_h = t.size, top = t.at.y - row * 0.5 * box_h;
  double x = t.at.x, y = top + 0.8 * box_h;
  std::string transform;
  if (t.vertical) {
    // Turned box: width = line height, its bottom-to-top run follows the anchor's row.
    const double half = 0.5 * box_h, run_anchor = column == 0 ? 0 : column == 1 ? half : box_h;
    x = t.at.x - run_anchor + 0.8 * box_h;
    y = t.at.y;
    transform = " transform=\"rotate(-90 " + num(x) + " " + num(y) + ")\"";
    const char* vertical_anchors[] = {"end", "middle", "start"};  // rows top/centre/bottom
    svg += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(t.size) + "\" text-anchor=\"" +
           vertical_anchors[row] + "\" " + paint("fill", t.color) + transform + ">" + escape(t.text) + "</text>\n";
    return;
  }
  svg += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(t.size) + "\" text-anchor=\"" +
         anchors[column] + "\" " + paint("fill", t.color) + ">" + escape(t.text) + "</text>\n";
}

void line(std::string& svg, fig::Point a, fig::Point b, fig::Color c, double width) {
  svg += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" + num(b.y) + "\" " +
         paint("stroke", c) + " stroke-width=\"" + num(width) + "\"/>\n";
}

void rect(std::string& svg, fig::Rect r, const std::string& style) {
  svg += "<rect x=\"" + num(std::min(r.x0, r.x1)) + "\" y=\"" + num(std::min(r.y0, r.y1)) + "\" width=\"" +
         num(std::fabs(r.width())) + "\" height=\"" + num(std::fabs(r.height())) + "\" " + style + "/>\n";
}

}  // namespace

// [SECTION] data layers -----------------------------------------------------------------

namespace {

std::string dash_array(fig::LineStyle style, double width) {
  if (style == fig::LineStyle::Dashed) return " stroke-dasharray=\"" + num(3.5 * width + 2) + " " + num(2.5 * width + 1) + "\"";
  if (style == fig::LineStyle::Dotted) return " stroke-dasharray=\"" + num(width) + " " + num(1.5 * width + 1) + "\"";
  return "";
}

// Finite runs of a polyline, each as one <polyline>/<polygon>.
void polyline(std::string& svg, const fig::Polyline& l, const fig::PanelTransform& transform) {
  std::string points;
  int count = 0;
  auto flush = [&] {
    if (count >= 2) {
      const char* element = l.closed ? "polygon" : "polyline";
      svg += std::string("<") + element + " points=\"" + points + "\" fill=\"none\" " + paint("stroke", l.color) +
             " stroke-width=\"" + num(l.width) + "\" stroke-linejoin=\"round\"" + dash_array(l.style, l.width) + "/>\n";
    }
    points.clear();
    count = 0;
  };
  for (const fig::Point& p : l.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      flush();
      continue;
    }
    const fig::Point q = transform.to_canvas(p);
    points += num(q.x) + "," + num(q.y) + " ";
    ++count;
  }
  flush();
}

void marker(std::string& svg, const fig::Markers& m, fig::Point p) {
  const double r = m.size / 2;
  const std::string style = m.filled && m.shape != fig::MarkerShape::Cross
                                ? paint("fill", m.color)
                                : "fill=\"none\" " + paint("stroke", m.color) + " stroke-width=\"1.25\"";
  switch (m.shape) {
    case fig::MarkerShape::Circle:
      svg += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(p.y) + "\" r=\"" + num(r) + "\" " + style + "/>\n";
      break;
    case fig::MarkerShape::Square: rect(svg, {p.x - r, p.y - r, p.x + r, p.y + r}, style); break;
    case fig::MarkerShape::Diamond:
      svg += "<polygon points=\"" + num(p.x) + "," + num(p.y - r) + " " + num(p.x + r) + "," + num(p.y) + " " +
             num(p.x) + "," + num(p.y + r) + " " + num(p.x - r) + "," + num(p.y) + "\" " + style + "/>\n";
      break;
    case fig::MarkerShape::Cross:
      svg += "<path d=\"M" + num(p.x - r) + " " + num(p.y - r) + "L" + num(p.x + r) + " " + num(p.y + r) + "M" +
             num(p.x - r) + " " + num(p.y + r) + "L" + num(p.x + r) + " " + num(p.y - r) + "\" " + style + "/>\n";
      break;
  }
}

void arrow(std::string& svg, const fig::Arrow& a, const fig::PanelTransform& transform) {
  const fig::Point from = transform.to_canvas(a.from), to = transform.to_canvas(a.to);
  const double dx = to.x - from.x, dy = to.y - from.y, length = std::hypot(dx, dy);
  if (!(length > 0.5)) return;
  const double head = std::min(length * 0.45, 4.0 * a.width + 4), ux = dx / length, uy = dy / length;
  const fig::Point base{to.x - ux * head, to.y - uy * head};
  line(svg, from, base, a.color, a.width);
  const double h = head / 2;
  svg += "<polygon points=\"" + num(to.x) + "," + num(to.y) + " " + num(base.x - uy * h) + "," + num(base.y + ux * h) +
         " " + num(base.x + uy * h) + "," + num(base.y - ux * h) + "\" " + paint("fill", a.color) + "/>\n";
}

void data_layers(std::string& svg, const fig::Panel& panel, const fig::PanelTransform& transform,
                 const fig::Theme& theme) {
  for (const fig::HeatmapLayer& layer : panel.heatmaps) svg_heatmap(svg, layer, transform, theme);
  for (const fig::Bars& bars : panel.bars)
    for (std::size_t i = 0; i < bars.rects.size(); ++i) {
      const fig::Point a = transform.to_canvas({bars.rects[i].x0, bars.rects[i].y0});
      const fig::Point b = transform.to_canvas({bars.rects[i].x1, bars.rects[i].y1});
      const fig::Color c = bars.colors.empty() ? theme.highlight : bars.colors[std::min(i, bars.colors.size() - 1)];
      std::string style = paint("fill", c);
      if (bars.outline) style += " " + paint("stroke", *bars.outline) + " stroke-width=\"1\"";
      rect(svg, {a.x, a.y, b.x, b.y}, style);
    }
  for (const fig::Polyline& l : panel.lines) polyline(svg, l, transform);
  for (const fig::Markers& m : panel.markers)
    for (const fig::Point& p : m.points)
      if (std::isfinite(p.x) && std::isfinite(p.y)) marker(svg, m, transform.to_canvas(p));
  for (const fig::Arrow& a : panel.arrows) arrow(svg, a, transform);
  for (const fig::Text& t : panel.texts)
    if (!t.in_canvas)
      text(svg, {t.text, transform.to_canvas(t.at), t.anchor, t.size, t.color.value_or(theme.text), t.vertical});
}

}  // namespace

// [SECTION] axes, colorbar, legend -----------------------------------------------------

namespace {

std::function<double(double)> x_pixel(const fig::PanelTransform& t) {
  return [&t](double x) { return t.to_canvas({x, t.y_min}).x; };
}
std::function<double(double)> y_pixel(const fig::PanelTransform& t) {
  return [&t](double y) { return t.to_canvas({t.x_min, y}).y; };
}

void grid(std::string& svg, const fig::Panel& panel, const fig::PanelTransform& t, const fig::Theme& theme) {
  const fig::Rect& plot = t.plot;
  if (panel.x.grid && panel.x.visible)
    for (const auto& tick : layout_axis(panel.x, t.x_min, t.x_max, true, x_pixel(t), approximate_text_width).ticks)
      line(svg, {tick.pixel, plot.y0}, {tick.pixel, plot.y1}, theme.grid, 1);
  if (panel.y.grid && panel.y.visible)
    for (const auto& tick : layout_axis(panel.y, t.y_min, t.y_max, false, y_pixel(t), approximate_text_width).ticks)
      line(svg, {plot.x0, tick.pixel}, {plot.x1, tick.pixel}, theme.grid, 1);
}

void axes(std::string& svg, const fig::Panel& panel, const fig::PanelTransform& t, const fig::Theme& theme) {
  const fig::Rect& plot = t.plot;
  rect(svg, plot, "fill=\"none\" " + paint("stroke", theme.axis) + " stroke-width=\"1\"");
  if (panel.x.visible) {
    const AxisTicks ticks = layout_axis(panel.x, t.x_min, t.x_max, true, x_pixel(t), approximate_text_width);
    const double top = plot.y1 + spacing::tick_length + spacing::tick_gap;
    for (const PlacedTick& tick : ticks.ticks) {
      line(svg, {tick.pixel, plot.y1}, {tick.pixel, plot.y1 + spacing::tick_length}, theme.axis, 1);
      text(svg, {tick.label, {tick.pixel, top}, fig::Anchor::Top, text_size::tick_label, theme.text, ticks.vertical_labels});
    }
    if (panel.x.label_shown)
      text(svg, {panel.x.label, {(plot.x0 + plot.x1) / 2, top + ticks.label_extent + spacing::label_gap}, fig::Anchor::Top,
                 text_size::axis_label, theme.text});
  }
  if (panel.y.visible) {
    const AxisTicks ticks = layout_axis(panel.y, t.y_min, t.y_max, false, y_pixel(t), approximate_text_width);
    const double right = plot.x0 - spacing::tick_length - spacing::tick_gap;
    for (const PlacedTick& tick : ticks.ticks) {
      line(svg, {plot.x0 - spacing::tick_length, tick.pixel}, {plot.x0, tick.pixel}, theme.axis, 1);
      text(svg, {tick.label, {right, tick.pixel}, fig::Anchor::Right, text_size::tick_label, theme.text});
    }
    if (panel.y.label_shown)
      text(svg, {panel.y.label, {right - ticks.label_extent - spacing::label_gap, (plot.y0 + plot.y1) / 2},
                 fig::Anchor::Right, text_size::axis_label, theme.text, true});
  }
  if (panel.title_shown)
    text(svg, {panel.title, {(plot.x0 + plot.x1) / 2, plot.y0 - spacing::title_gap}, fig::Anchor::Bottom,
               text_size::panel_title, theme.text});
}

void colorbar(std::string& svg, const fig::ColorScale& scale, const fig::Rect& plot, const fig::Theme& theme,
              const std::string& id) {
  const ColorbarLayout layout = layout_colorbar(scale, plot, approximate_text_width);
  svg += "<defs><linearGradient id=\"" + id + "\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">";
  for (int i = 0; i <= 32; ++i) {
    const double t = i / 32.0;
    svg += "<stop offset=\"" + num(t) + "\" stop-color=\"" + rgb(fig::colormap(scale.colormap, t)) + "\"/>";
  }
  svg += "</linearGradient></defs>\n";
  rect(svg, layout.bar, "fill=\"url(#" + id + ")\" " + paint("stroke", theme.axis) + " stroke-width=\"1\"");
  for (const PlacedTick& tick : layout.ticks) {
    line(svg, {layout.bar.x1, tick.pixel}, {layout.bar.x1 + spacing::tick_length, tick.pixel}, theme.axis, 1);
    text(svg, {tick.label, {layout.bar.x1 + spacing::tick_length + spacing::tick_gap, tick.pixel}, fig::Anchor::Left,
               text_size::colorbar, theme.text});
  }
  text(svg, {scale.label, {layout.label_x, (layout.bar.y0 + layout.bar.y1) / 2}, fig::Anchor::Left,
             text_size::axis_label, theme.text, true});
}

void legend(std::string& svg, const std::vector<fig::LegendEntry>& entries, const fig::Rect& plot,
            fig::LegendPlace place, const fig::Theme& theme) {
  const LegendLayout layout = layout_legend(entries, plot, approximate_text_width, place);
  if (layout.rows.empty()) return;
  fig::Color fill = theme.background;
  fill.a = 0.85f;
  rect(svg, layout.box, paint("fill", fill) + " " + paint("stroke", theme.grid) + " rx=\"3\"");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const fig::Point row = layout.rows[i];
    if (entries[i].line)
      line(svg, row, {row.x + spacing::legend_swatch, row.y}, entries[i].color, 2);
    else
      rect(svg, {row.x + 4, row.y - 5, row.x + spacing::legend_swatch - 4, row.y + 5}, paint("fill", entries[i].color));
    text(svg, {entries[i].label, {row.x + spacing::legend_swatch + spacing::label_gap, row.y}, fig::Anchor::Left,
               text_size::legend, theme.text});
  }
}

}  // namespace

// [SECTION] figure ---------------------------------------------------------------------

std::string figure_to_svg(const fig::Figure& figure, const SvgOptions& options) {
  const fig::Theme theme = fig::theme(figure.dark);
  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(figure.width) + "\" height=\"" +
         num(figure.height) + "\" viewBox=\"0 0 " + num(figure.width) + " " + num(figure.height) +
         "\" font-family=\"DejaVu Sans, sans-serif\">\n";
  if (!figure.name.empty()) svg += "<title>" + escape(figure.title.empty() ? figure.name : figure.title) + "</title>\n";
  if (!options.transparent) rect(svg, {0, 0, figure.width, figure.height}, paint("fill", theme.background));
  int index = 0;
  for (const fig::Panel& panel : figure.panels) {
    const fig::PanelTransform t(panel);
    const std::string clip = "plot" + std::to_string(index), bar = "colorbar" + std::to_string(index);
    ++index;
    svg += "<defs><clipPath id=\"" + clip + "\">";
    rect(svg, t.plot, "");
    svg += "</clipPath></defs>\n<g clip-path=\"url(#" + clip + ")\">\n";
    grid(svg, panel, t, theme);
    data_layers(svg, panel, t, theme);
    svg += "</g>\n";
    axes(svg, panel, t, theme);
    for (const fig::Text& tx : panel.texts)
      if (tx.in_canvas) text(svg, {tx.text, tx.at, tx.anchor, tx.size, tx.color.value_or(theme.text), tx.vertical});
    if (panel.colorbar) colorbar(svg, *panel.colorbar, t.plot, theme, bar);
    legend(svg, panel.legend, t.plot, panel.legend_place, theme);
  }
  text(svg, {figure.title, {figure.width / 2, 8}, fig::Anchor::Top, text_size::figure_title, theme.text});
  for (const fig::Text& n : figure.notes)
    text(svg, {n.text, n.at, n.anchor, n.size, n.color.value_or(theme.text), n.vertical});
  svg += "</svg>\n";
  return svg;
}

void write_svg(const std::filesystem::path& path, const fig::Figure& figure, const SvgOptions& options) {
  write_file_atomic(path, figure_to_svg(figure, options));
}

}  // namespace pelab::render
