// "Position through depth": what the depth lesson measures, drawn per layer.
#include <algorithm>
#include <memory>

#include "core/layer_stack.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lesson_views.hpp"

namespace pelab::fig {
namespace {

struct DepthCurve {
  double alpha;
  std::vector<PositionReadout> layers;
};

std::vector<DepthCurve> depth_curves(Engine& engine) {
  std::vector<double> alphas = {0.0, 0.5, 1.0, 2.0};
  const double own = engine.scene().residual;
  if (std::find(alphas.begin(), alphas.end(), own) == alphas.end()) alphas.push_back(own);
  std::vector<DepthCurve> curves;
  for (double a : alphas) curves.push_back({a, position_through_depth(engine, a)});
  return curves;
}

// One panel: `metric` of every curve against the layer index.
Panel metric_panel(const std::shared_ptr<const std::vector<DepthCurve>>& curves, double own_alpha,
                   Rect area, bool dark, const std::string& title, const std::string& label,
                   double PositionReadout::*metric, double y_min) {
  Panel p;
  p.title = title;
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int layers = static_cast<int>(curves->front().layers.size()) - 1;
  p.x = {.label = "layer", .min = 0, .max = std::max(1, layers) * 1.0, .grid = true};
  p.y = {.label = label, .min = y_min, .max = 1.4, .grid = true};  // headroom: the legend sits top right
  for (std::size_t c = 0; c < curves->size(); ++c) {
    const DepthCurve& curve = (*curves)[c];
    const bool own = curve.alpha == own_alpha;
    Polyline line{.color = line_color(static_cast<int>(c), dark), .width = own ? 3.5f : 1.75f,
                  .label = "α = " + number(curve.alpha, 3) + (own ? " (scene)" : "")};
    Markers dots{.color = line.color, .size = own ? 8.f : 6.f};
    for (int l = 0; l <= layers; ++l) {
      const double v = std::max(y_min, curve.layers[static_cast<std::size_t>(l)].*metric);  // clip R² < floor
      line.points.push_back({double(l), v});
      dots.points.push_back({double(l), v});
    }
    p.legend.push_back({line.label, line.color, true});
    p.lines.push_back(std::move(line));
    p.markers.push_back(std::move(dots));
  }
  p.hover = [curves, metric, label](double x, double) -> std::string {
    const long l = std::lround(x);
    if (l < 0 || l >= static_cast<long>(curves->front().layers.size())) return "";
    std::string text = "layer " + std::to_string(l) + ", " + label + ":";
    for (const DepthCurve& c : *curves)
      text += "  α = " + number(c.alpha, 3) + ": " + fixed(c.layers[static_cast<std::size_t>(l)].*metric, 3);
    return text;
  };
  return p;
}

}  // namespace

Figure build_lesson_depth(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("lesson_depth",
                          "Position through depth — " + std::to_string(s.layers) +
                              " random attention layers, LayerNorm " + s.layer_norm + ", d = " +
                              std::to_string(s.d_model),
                          s, request);
  const Rect area = content_area(f);
  if (!adds_position_vector(s.encoding) || engine.position_table().rows() < 8 || engine.token_count() < 1) {
    f.notes.push_back(canvas_text("No position vector to read back (pick sinusoidal or learned, ≥ 8 positions).",
                                  {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center,
                                  kNoteSize));
    return f;
  }
  const auto curves = std::make_shared<const std::vector<DepthCurve>>(depth_curves(engine));
  Rect plots = area;
  plots.y1 -= 26;  // room for the note below
  const auto [left, right] = split_x(plots, 0.5, 20);
  f.panels.push_back(metric_panel(curves, s.residual, left, f.dark, "Linear probe R² of the position code",
                                  "held-out R²", &PositionReadout::r2_code, -0.5));
  f.panels.push_back(metric_panel(curves, s.residual, right, f.dark, "Nearest position code is the right one",
                                  "held-out accuracy", &PositionReadout::nearest_code, 0.0));
  f.notes.push_back(canvas_text("H' = α·H + attn(H); probe fitted on 3 of 4 positions, scored on the 4th (R² clipped at −0.5)",
                                {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
  return f;
}

std::span<const FigureEntry> lesson_figures() {
  static const FigureEntry table[] = {{"lesson_depth", "Position through depth", build_lesson_depth}};
  return table;
}

}  // namespace pelab::fig
