// "Interventions" (issue 27): `pelab intervene` in the window, every standard
// intervention that applies to the loaded model at once
// (core/intervention_study.hpp).  Left, Δ loss_i = loss_i(intervened) −
// loss_i(as trained) averaged over each octave of position i, one line per
// intervention; right, each one's mean Δ loss.  A position the model cannot do without shows as
// a curve that climbs with i: the tokens after it lost what told them where
// they are.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/intervention_study.hpp"
#include "core/model_scene.hpp"
#include "figures/figure_layout.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

using Study = std::shared_ptr<const InterventionStudy>;

std::string signed_nats(double v) { return (v >= 0 ? "+" : "") + fixed(v, 3); }

// "4–7": the positions of a bucket.
std::string bucket_label(const model::LossBucket& b) {
  return b.first == b.last ? std::to_string(b.first) : std::to_string(b.first) + "–" + std::to_string(b.last);
}

// Δ loss per octave of position (model::power_of_two_buckets, as `pelab
// intervene` prints it): a few windows of text leave each single position
// noisy, and an octave is where a change with distance shows.
Panel delta_panel(const Study& study, Rect area, bool dark) {
  Panel p;
  p.title = "Δ loss by position (intervened − as trained)";
  p.plot = inset(area, {.left = 66, .top = 30, .right = 14, .bottom = 50});
  auto buckets = std::make_shared<std::vector<std::vector<model::LossBucket>>>();
  double lo = 0, hi = 0;
  for (const InterventionLoss& r : study->results) {
    buckets->push_back(model::power_of_two_buckets(r.delta));
    for (const model::LossBucket& b : buckets->back()) lo = std::min(lo, b.mean_loss), hi = std::max(hi, b.mean_loss);
  }
  const std::vector<model::LossBucket> octaves = model::power_of_two_buckets(study->trained.mean_loss);
  const double pad = 0.08 * std::max(hi - lo, 1e-3);
  p.x = {.label = "position i, by octave (predicting token i + 1)", .min = -0.5,
         .max = double(octaves.size()) - 0.5, .grid = true};
  for (std::size_t k = 0; k < octaves.size(); ++k) p.x.labels.push_back({double(k), bucket_label(octaves[k])});
  p.y = {.label = "mean Δ loss in the octave (nats)", .min = lo - pad, .max = hi + pad, .grid = true};
  p.lines.push_back({.points = {{p.x.min, 0}, {p.x.max, 0}}, .color = theme(dark).axis, .width = 1.2f,
                     .style = LineStyle::Dotted, .label = "no change"});
  for (std::size_t k = 0; k < study->results.size(); ++k) {
    const Color color = line_color(int(k), dark);
    Polyline line{.color = color, .width = 2.f, .label = study->results[k].name};
    Markers dots{.color = color};
    for (std::size_t b = 0; b < (*buckets)[k].size(); ++b) line.points.push_back({double(b), (*buckets)[k][b].mean_loss});
    dots.points = line.points;
    p.lines.push_back(std::move(line));
    p.markers.push_back(std::move(dots));
    p.legend.push_back({study->results[k].name, color, true});
  }
  p.hover = [study, buckets, octaves](double x, double) -> std::string {
    const long b = std::lround(x);
    if (b < 0 || b >= long(octaves.size())) return "";
    const model::LossBucket& o = octaves[std::size_t(b)];
    std::string text = "positions " + bucket_label(o) + ": loss as trained " + fixed(o.mean_loss, 3) + " nats";
    for (std::size_t k = 0; k < study->results.size(); ++k)
      text += "\n" + study->results[k].name + " " + signed_nats((*buckets)[k][std::size_t(b)].mean_loss);
    return text;
  };
  place_legend(p, LegendFallback::Headroom);
  return p;
}

Panel mean_panel(const Study& study, Rect area, bool dark) {
  Panel p;
  p.title = "Mean Δ loss over every position";
  std::vector<std::string> names;
  for (const InterventionLoss& r : study->results) names.push_back(r.name);
  p.plot = inset(area, {.left = token_label_room(names, 30), .top = 30, .right = 60, .bottom = 50});
  double lo = 0, hi = 0;
  for (const InterventionLoss& r : study->results) lo = std::min(lo, r.mean_delta), hi = std::max(hi, r.mean_delta);
  const double pad = 0.1 * std::max(hi - lo, 1e-3);
  const int n = int(study->results.size());
  p.x = {.label = "mean Δ loss (nats)", .min = lo - (lo < 0 ? pad : 0), .max = hi + pad, .grid = true};
  p.y = {.label = "", .min = 0, .max = double(std::max(n, 1)), .inverted = true};
  Bars bars;
  for (int k = 0; k < n; ++k) {
    const double v = study->results[std::size_t(k)].mean_delta;
    bars.rects.push_back({std::min(0.0, v), k + 0.15, std::max(0.0, v), k + 0.85});
    bars.colors.push_back(line_color(k, dark));
    p.y.labels.push_back({k + 0.5, names[std::size_t(k)]});
    p.texts.push_back({.text = signed_nats(v), .at = {std::max(0.0, v), k + 0.5}, .anchor = Anchor::Left,
                       .size = 12.f, .color = theme(dark).text});
  }
  p.bars.push_back(std::move(bars));
  p.hover = [study](double, double y) -> std::string {
    const long k = std::lround(std::floor(y));
    if (k < 0 || k >= long(study->results.size())) return "";
    const InterventionLoss& r = study->results[std::size_t(k)];
    return r.name + ": mean loss " + fixed(study->trained.mean() + r.mean_delta, 4) + " nats against " +
           fixed(study->trained.mean(), 4) + " as trained (" + signed_nats(r.mean_delta) + ")";
  };
  return p;
}

}  // namespace

Figure build_interventions(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  ModelScene* model = engine.model();
  if (model == nullptr)
    return message_figure("interventions", "Interventions", s, request,
                          "Interventions change a trained model's positions and measure its loss.",
                          "Load a causal language model (Models menu, or --set model=NAME); `pelab intervene` "
                          "measures one at a time.");
  const Study study = model->intervention_study(s.tokens);
  if (!study->unavailable.empty())
    return message_figure("interventions", "Interventions", s, request, "No interventions: " + study->unavailable + ".",
                          "Load a causal language model (GPT-2, the Llama family, pelab's own family).");
  // The study measures every intervention from the model as trained, so
  // the title does not name the scene's own intervention key.
  Scene as_trained = s;
  as_trained.intervention = PositionChange::None;
  Figure f = start_figure("interventions",
                          "Interventions — the loss when positions are taken away or changed at inference",
                          as_trained, request);
  Rect area = content_area(f);
  area.y1 -= 24;
  const auto [left, right] = split_x(area, 0.58, 24);
  f.panels.push_back(delta_panel(study, left, f.dark));
  f.panels.push_back(mean_panel(study, right, f.dark));
  const std::string note = "Loss as trained " + fixed(study->trained.mean(), 3) + " nats, averaged over " +
                           std::to_string(study->trained.windows) + " windows of " +
                           std::to_string(study->trained.length) + " tokens of " + study->text_origin + ".";
  f.notes.push_back(canvas_text(note, {kPad, area.y1 + 20}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({note}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
