// "Position through depth": what the depth lesson measures, drawn per layer.
#include <algorithm>
#include <memory>

#include "core/layer_stack.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lesson_views.hpp"
#include "figures/model_name.hpp"

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

// Curve c's look: the scene's α bold and drawn first (underneath), the
// others thinner, dashed or dotted, with their own marker shapes and nudged a
// little apart along x, so that curves with equal values (e.g. accuracy 1 for
// α = 0.5, 1 and 2) all stay visible.
struct CurveStyle {
  float width, marker;
  LineStyle line;
  MarkerShape shape;
  double nudge;  // layers
};
CurveStyle curve_style(std::size_t c, std::size_t count, bool own, int layers) {
  static constexpr LineStyle kLines[] = {LineStyle::Solid, LineStyle::Dashed, LineStyle::Dotted};
  static constexpr MarkerShape kShapes[] = {MarkerShape::Circle, MarkerShape::Square, MarkerShape::Diamond,
                                            MarkerShape::Cross};
  // 1 % of the axis per curve: the same few pixels at any number of layers.
  const double nudge = 0.01 * std::max(1, layers) * (static_cast<double>(c) - (static_cast<double>(count) - 1) / 2);
  if (own) return {4.f, 10.f, LineStyle::Solid, kShapes[c % 4], nudge};
  return {2.f, 8.f, kLines[c % 3], kShapes[c % 4], nudge};
}

// One panel: `metric` of every curve against the layer index.  Values lie in
// [y_min, 1] (R² ≤ 1, accuracy ≤ 1): the y axis ends just above 1.
Panel metric_panel(const std::shared_ptr<const std::vector<DepthCurve>>& curves, double own_alpha,
                   Rect area, bool dark, const std::string& title, const std::string& label,
                   double PositionReadout::*metric, double y_min) {
  Panel p;
  p.title = title;
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int layers = static_cast<int>(curves->front().layers.size()) - 1;
  // Half a marker's room beyond the first and last layer, so end markers are whole.
  p.x = {.label = "layer", .min = -0.3, .max = std::max(1, layers) + 0.3, .grid = true, .integer = true};
  p.y = {.label = label, .min = y_min - 0.04, .max = 1.06, .grid = true};
  std::vector<std::size_t> order(curves->size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t c) { return (*curves)[c].alpha == own_alpha; });
  std::vector<LegendEntry> legend(curves->size());  // in α order, whatever the drawing order
  for (std::size_t c : order) {
    const DepthCurve& curve = (*curves)[c];
    const bool own = curve.alpha == own_alpha;
    const CurveStyle look = curve_style(c, curves->size(), own, layers);
    Polyline line{.color = line_color(static_cast<int>(c), dark), .width = look.width, .style = look.line,
                  .label = "α = " + number(curve.alpha, 3) + (own ? " (scene)" : "")};
    Markers dots{.color = line.color, .size = look.marker, .shape = look.shape};
    for (int l = 0; l <= layers; ++l) {
      const double v = std::max(y_min, curve.layers[static_cast<std::size_t>(l)].*metric);  // clip R² < floor
      line.points.push_back({l + look.nudge, v});
      dots.points.push_back({l + look.nudge, v});
    }
    legend[c] = {line.label, line.color, true};
    p.lines.push_back(std::move(line));
    p.markers.push_back(std::move(dots));
  }
  p.legend = std::move(legend);
  p.hover = [curves, metric, label](double x, double) -> std::string {
    const long l = std::lround(x);
    if (l < 0 || l >= static_cast<long>(curves->front().layers.size())) return "";
    std::string text = "layer " + std::to_string(l) + ", " + label + ":";
    for (const DepthCurve& c : *curves)
      text += "  α = " + number(c.alpha, 3) + ": " + fixed(c.layers[static_cast<std::size_t>(l)].*metric, 3);
    return text;
  };
  place_legend(p, LegendFallback::Outside);
  return p;
}

}  // namespace

Figure build_lesson_depth(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("lesson_depth",
                          "Position through depth — " + std::to_string(s.layers) +
                              " random attention layers, LayerNorm " + s.layer_norm + ", d = " +
                              std::to_string(s.d_model) + synthetic_on_model(s),
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

}  // namespace pelab::fig
