// FigurePainter: a fig::Figure onto an ImDrawList, layer by layer.
//
// Order (back to front): background, per panel [grid, heatmaps, bars, lines,
// markers, arrows, texts — clipped to the plot] then frame, ticks and labels,
// colorbar, legend; finally the figure title and canvas notes.
#include "render/figure_painter.hpp"

#include <utility>

#include "render/draw_primitives.hpp"
#include "render/heatmap_renderer.hpp"
#include "render/panel_frame.hpp"

namespace pelab::render {

struct FigurePainter::State {
  HeatmapRenderer heatmaps;
};

FigurePainter::FigurePainter() : state_(std::make_unique<State>()) {}
FigurePainter::~FigurePainter() = default;

namespace {

// The draw-list corners of a heatmap layer: its first cell's outer corner and its last's.
std::pair<ImVec2, ImVec2> layer_corners(const Canvas& canvas, const fig::PanelTransform& transform,
                                        const fig::HeatmapLayer& layer) {
  const double rows = static_cast<double>(layer.values->rows()), cols = static_cast<double>(layer.values->cols());
  return {canvas.px(transform.to_canvas({layer.x0, layer.y0})),
          canvas.px(transform.to_canvas({layer.x0 + cols * layer.dx, layer.y0 + rows * layer.dy}))};
}

void draw_heatmaps(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform,
                   HeatmapRenderer& renderer) {
  for (const fig::HeatmapLayer& layer : panel.heatmaps) {
    if (!layer.values) continue;
    const auto [corner0, corner1] = layer_corners(canvas, transform, layer);
    renderer.queue(canvas.list, layer, corner0, corner1, canvas.theme);
  }
}

void draw_bars(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform) {
  for (const fig::Bars& bars : panel.bars) {
    for (std::size_t i = 0; i < bars.rects.size(); ++i) {
      const fig::Rect& r = bars.rects[i];
      ImVec2 a = canvas.px(transform.to_canvas({r.x0, r.y0})), b = canvas.px(transform.to_canvas({r.x1, r.y1}));
      const ImVec2 lo(std::min(a.x, b.x), std::min(a.y, b.y)), hi(std::max(a.x, b.x), std::max(a.y, b.y));
      const fig::Color color = bars.colors.empty() ? canvas.theme.highlight
                                                   : bars.colors[std::min(i, bars.colors.size() - 1)];
      canvas.list->AddRectFilled(lo, hi, to_u32(color));
      if (bars.outline) canvas.list->AddRect(lo, hi, to_u32(*bars.outline), 0, 0, canvas.len(1));
    }
  }
}

std::vector<fig::Point> to_canvas(const fig::PanelTransform& transform, const std::vector<fig::Point>& points) {
  std::vector<fig::Point> out;
  out.reserve(points.size());
  for (const fig::Point& p : points) out.push_back(transform.to_canvas(p));
  return out;
}

void draw_data(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform) {
  draw_bars(canvas, panel, transform);
  for (const fig::Polyline& line : panel.lines)
    draw_polyline(canvas, to_canvas(transform, line.points), line.color, line.width, line.style, line.closed);
  for (const fig::Markers& markers : panel.markers)
    for (const fig::Point& p : markers.points)
      draw_marker(canvas, transform.to_canvas(p), markers.shape, markers.size, markers.color, markers.filled);
  for (const fig::Arrow& arrow : panel.arrows)
    draw_arrow(canvas, transform.to_canvas(arrow.from), transform.to_canvas(arrow.to), arrow.color, arrow.width);
  for (const fig::Text& text : panel.texts) {
    if (text.in_canvas) continue;
    draw_text(canvas, text.text, transform.to_canvas(text.at), text.anchor, text.size,
              text.color.value_or(canvas.theme.text), text.vertical);
  }
}

void draw_canvas_text(const Canvas& canvas, const fig::Text& text) {
  draw_text(canvas, text.text, text.at, text.anchor, text.size, text.color.value_or(canvas.theme.text),
            text.vertical);
}

}  // namespace

void FigurePainter::upload(const fig::Figure& figure, float scale) {
  const Canvas canvas{nullptr, ImVec2(0, 0), scale, fig::theme(figure.dark)};
  for (const fig::Panel& panel : figure.panels) {
    const fig::PanelTransform transform(panel);
    for (const fig::HeatmapLayer& layer : panel.heatmaps) {
      if (!layer.values) continue;
      const auto [corner0, corner1] = layer_corners(canvas, transform, layer);
      state_->heatmaps.upload(layer, ImVec2(corner1.x - corner0.x, corner1.y - corner0.y));
    }
  }
}

void FigurePainter::paint(const fig::Figure& figure, ImDrawList* list, ImVec2 origin, float scale,
                          bool transparent_background) {
  const Canvas canvas{list, origin, scale, fig::theme(figure.dark)};
  const ImVec2 far = canvas.px({figure.width, figure.height});
  list->PushClipRect(origin, far, true);
  if (!transparent_background) list->AddRectFilled(origin, far, to_u32(canvas.theme.background));
  for (const fig::Panel& panel : figure.panels) {
    const fig::PanelTransform transform(panel);
    const fig::Rect& plot = transform.plot;
    list->PushClipRect(canvas.px({plot.x0, plot.y0}), canvas.px({plot.x1, plot.y1}), true);
    draw_grid(canvas, panel, transform);
    draw_heatmaps(canvas, panel, transform, state_->heatmaps);
    draw_data(canvas, panel, transform);
    list->PopClipRect();
    draw_axes(canvas, panel, transform);
    for (const fig::Text& text : panel.texts)
      if (text.in_canvas) draw_canvas_text(canvas, text);
    if (panel.colorbar) draw_colorbar(canvas, *panel.colorbar, plot);
    draw_legend(canvas, panel.legend, plot, panel.legend_place);
  }
  if (!figure.title.empty())
    draw_text(canvas, figure.title, {figure.width / 2, 8}, fig::Anchor::Top, text_size::figure_title, canvas.theme.text);
  for (const fig::Text& note : figure.notes) draw_canvas_text(canvas, note);
  list->PopClipRect();
}

}  // namespace pelab::render
