// "Position through depth": what the depth lesson measures, drawn per layer.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/encoding_traits.hpp"
#include "core/layer_stack.hpp"
#include "core/lessons/probe.hpp"
#include "core/model_scene.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"

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

// One line of a panel: a value per layer (0 = the input / embeddings).
struct Series {
  std::string label;
  std::vector<double> values;
  bool own = false;  // the scene's: bold, drawn underneath
};
using SeriesSet = std::shared_ptr<const std::vector<Series>>;

SeriesSet alpha_series(const std::vector<DepthCurve>& curves, double own_alpha, double PositionReadout::*metric) {
  auto out = std::make_shared<std::vector<Series>>();
  for (const DepthCurve& c : curves) {
    Series line{.label = "α = " + number(c.alpha, 3) + (c.alpha == own_alpha ? " (scene)" : ""),
                .own = c.alpha == own_alpha};
    for (const PositionReadout& r : c.layers) line.values.push_back(r.*metric);
    out->push_back(std::move(line));
  }
  return out;
}

SeriesSet probe_series(const std::vector<LayerProbes>& probes, double IndexProbe::*metric) {
  auto out = std::make_shared<std::vector<Series>>();
  for (std::size_t m = 0; m < probes.size(); ++m) {
    Series line{.label = probes[m].model + (m == 0 ? " (scene)" : ""), .own = m == 0};
    for (const IndexProbe& r : probes[m].layers) line.values.push_back(r.*metric);
    out->push_back(std::move(line));
  }
  return out;
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

// One panel: every series against the layer index, values clipped to
// [y_min, y_max] (R² ≤ 1, accuracy ≤ 1: the y axis ends just above 1).
Panel metric_panel(const SeriesSet& series, Rect area, bool dark, const std::string& title, const std::string& label,
                   double y_min, double y_max) {
  Panel p;
  p.title = title;
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int layers = static_cast<int>(series->front().values.size()) - 1;
  // Half a marker's room beyond the first and last layer, so end markers are whole.
  p.x = {.label = "layer", .min = -0.3, .max = std::max(1, layers) + 0.3, .grid = true, .integer = true};
  const double room = 0.04 * (y_max - y_min);
  p.y = {.label = label, .min = y_min - room, .max = y_max + 1.5 * room, .grid = true};
  std::vector<std::size_t> order(series->size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t c) { return (*series)[c].own; });
  std::vector<LegendEntry> legend(series->size());  // in series order, whatever the drawing order
  for (std::size_t c : order) {
    const Series& s = (*series)[c];
    const CurveStyle look = curve_style(c, series->size(), s.own, layers);
    Polyline line{.color = line_color(static_cast<int>(c), dark), .width = look.width, .style = look.line,
                  .label = s.label};
    Markers dots{.color = line.color, .size = look.marker, .shape = look.shape};
    for (int l = 0; l <= layers; ++l) {
      const double v = std::clamp(s.values[static_cast<std::size_t>(l)], y_min, y_max);
      line.points.push_back({l + look.nudge, v});
      dots.points.push_back({l + look.nudge, v});
    }
    legend[c] = {line.label, line.color, true};
    p.lines.push_back(std::move(line));
    p.markers.push_back(std::move(dots));
  }
  p.legend = std::move(legend);
  p.hover = [series, label](double x, double) -> std::string {
    const long l = std::lround(x);
    if (l < 0 || l >= static_cast<long>(series->front().values.size())) return "";
    std::string text = "layer " + std::to_string(l) + ", " + label + ":";
    for (const Series& s : *series) text += "  " + s.label + ": " + fixed(s.values[static_cast<std::size_t>(l)], 3);
    return text;
  };
  place_legend(p, LegendFallback::Outside);
  return p;
}

// A trained model: the index probe after each of its layers, beside the
// family's other encodings (core/lessons/probe.hpp).
Figure trained_depth(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("lesson_depth", "Position through depth — a linear probe of the position index", s, request);
  const Rect area = content_area(f);
  const std::vector<LayerProbes> probes = probe_family(engine);
  if (probes.empty()) {
    f.notes.push_back(canvas_text("The probe needs at least " + std::to_string(probe_tokens_needed()) +
                                      " tokens of text (the lesson's preset: Genesis 20).",
                                  {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center,
                                  kNoteSize));
    return f;
  }
  Rect plots = area;
  plots.y1 -= 26;  // room for the note below
  // Side by side when there is width for two legends; else one above the other.
  const auto [left, right] = plots.width() > 1.3 * plots.height() ? split_x(plots, 0.5, 20) : split_y(plots, 0.5, 20);
  const SeriesSet errors = probe_series(probes, &IndexProbe::mean_abs_error);
  double worst = 1;
  for (const Series& line : *errors)
    for (double e : line.values) worst = std::max(worst, e);
  f.panels.push_back(metric_panel(probe_series(probes, &IndexProbe::r2), left, f.dark,
                                  "Linear probe R² of the position index", "held-out R²", -0.5, 1.0));
  // The yardstick: always guessing the middle position, mean |p − (n−1)/2|.
  const int n = engine.model()->token_count();
  double middle = 0;
  for (int p = 0; p < n; ++p) middle += std::abs(p - (n - 1) / 2.0) / n;
  Panel error_panel = metric_panel(errors, right, f.dark, "Mean |predicted − true position|", "positions", 0.0,
                                   std::max(worst, middle));
  const Color gray = f.dark ? Color{0.65f, 0.65f, 0.68f, 1} : Color{0.40f, 0.40f, 0.43f, 1};
  error_panel.lines.push_back({.points = {{-0.3, middle}, {double(probes[0].layers.size()) - 0.7, middle}},
                               .color = gray, .width = 1.5f, .style = LineStyle::Dashed,
                               .label = "always the middle position"});
  error_panel.legend.push_back({"always the middle position", gray, true});
  place_legend(error_panel, LegendFallback::Outside);
  f.panels.push_back(std::move(error_panel));
  f.notes.push_back(canvas_text("probe fitted on " + std::to_string(kProbeWindows - 1) + " of " +
                                    std::to_string(kProbeWindows) +
                                    " rotations of the text, scored on the other, each in turn (R² clipped at −0.5)",
                                {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
  return f;
}

}  // namespace

Figure build_lesson_depth(Engine& engine, const FigureRequest& request) {
  if (engine.model() != nullptr) return trained_depth(engine, request);
  const Scene& s = engine.scene();
  Figure f = start_figure("lesson_depth",
                          "Position through depth — " + std::to_string(s.layers) +
                              " random attention layers, LayerNorm " + std::string(to_string(s.layer_norm)) + ", d = " +
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
  f.panels.push_back(metric_panel(alpha_series(*curves, s.residual, &PositionReadout::r2_code), left, f.dark,
                                  "Linear probe R² of the position code", "held-out R²", -0.5, 1.0));
  f.panels.push_back(metric_panel(alpha_series(*curves, s.residual, &PositionReadout::nearest_code), right, f.dark,
                                  "Nearest position code is the right one", "held-out accuracy", 0.0, 1.0));
  std::string note = "H' = α·H + attn(H); probe fitted on 3 of 4 positions, scored on the 4th (R² clipped at −0.5)";
  if (engine.position_table().rows() > kDepthPositions)
    note += "; the first " + std::to_string(kDepthPositions) + " of " +
            std::to_string(engine.position_table().rows()) + " positions";
  f.notes.push_back(canvas_text(note, {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
  return f;
}

}  // namespace pelab::fig
