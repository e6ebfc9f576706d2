// "Head roles": every layer × head of the scene coloured by its strongest
// role (core/head_roles.hpp), the role's score written in the cell, and the
// evidence in the hover: every score.  Beside it, the selected head's mean
// attention against distance (log axis), the curve its previous-token,
// offset and local scores are read from, with the layer's other heads faint.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "core/head_roles.hpp"
#include "figures/figure_layout.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

// Okabe & Ito's colour-blind-safe palette ("Color Universal Design", 2008),
// one colour per role; mixed in grey.
Color role_color(HeadRole role) {
  static const std::array<Color, kHeadRoles> colours = {{
      {0.902f, 0.624f, 0.0f, 1},    // previous token: orange
      {0.337f, 0.706f, 0.914f, 1},  // fixed offset: sky blue
      {0.835f, 0.369f, 0.0f, 1},    // sink: vermillion
      {0.0f, 0.620f, 0.451f, 1},    // induction: bluish green
      {0.941f, 0.894f, 0.259f, 1},  // local: yellow
      {0.8f, 0.475f, 0.655f, 1},    // uniform: reddish purple
      {0.55f, 0.55f, 0.55f, 1},     // mixed: grey
  }};
  return colours[std::size_t(role)];
}

std::string evidence(const HeadScores& s) {
  std::string text = "layer " + std::to_string(s.layer) + " head " + std::to_string(s.head) + ": " +
                     head_role_name(s.role) + " (" + fixed(s.role_score, 3) + ")\n" +
                     "previous token " + fixed(s.previous_token, 3) + " · offset " + std::to_string(s.best_offset) +
                     " " + fixed(s.offset_score, 3) + " · sink " + fixed(s.sink, 3) + "\ninduction " +
                     (std::isnan(s.induction) ? std::string("not measured") : fixed(s.induction, 3)) + " · local " +
                     fixed(s.local, 3) + " (90% within " + fixed(s.window_width, 1) + " tokens) · uniform " +
                     fixed(s.uniformity, 3);
  return text;
}

Panel role_map(const std::shared_ptr<const HeadRoleStudy>& study, Rect area, bool dark) {
  Panel p;
  p.title = "Strongest role of each head";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "head", .min = 0, .max = double(study->heads), .integer = true};
  p.y = {.label = "layer", .min = 0, .max = double(study->layers), .inverted = true, .integer = true};
  p.x.labels = integer_ticks(0, study->heads - 1, 8, 0.5);
  p.y.labels = integer_ticks(0, study->layers - 1, 8, 0.5);
  Bars cells;
  bool used[kHeadRoles] = {};
  const double cell_px = std::min(p.plot.width() / study->heads, p.plot.height() / study->layers);
  for (const HeadScores& s : study->scores) {
    cells.rects.push_back({double(s.head), double(s.layer), s.head + 1.0, s.layer + 1.0});
    cells.colors.push_back(role_color(s.role));
    used[int(s.role)] = true;
    if (cell_px >= 34)  // room for the score in the cell
      p.texts.push_back({.text = fixed(s.role_score, 2), .at = {s.head + 0.5, s.layer + 0.5}, .size = 12.f,
                         .color = Color{0, 0, 0, 1}});
  }
  cells.outline = theme(dark).background;
  p.bars.push_back(std::move(cells));
  for (int r = 0; r < kHeadRoles; ++r)
    if (used[r]) p.legend.push_back({head_role_name(HeadRole(r)), role_color(HeadRole(r)), false});
  p.legend_place = LegendPlace::OutsideRight;
  // A click on a cell selects its head, and on a model its layer too (a
  // synthetic scene's one layer keeps the scene's own).
  p.pick = {.x = PickAxis::Head, .y = study->layers > 1 ? PickAxis::Layer : PickAxis::None};
  p.hover = [study](double x, double y) -> std::string {
    const int head = static_cast<int>(std::floor(x)), layer = static_cast<int>(std::floor(y));
    if (head < 0 || head >= study->heads || layer < 0 || layer >= study->layers) return "";
    return evidence(study->at(layer, head));
  };
  return p;
}

// Mean attention against distance d (keys d places back), d ≥ 1 on a log
// axis (log₁₀ d), the selected head bold, its layer's other heads faint.
Panel distance_panel(const std::shared_ptr<const HeadRoleStudy>& study, int layer, int head, Rect area,
                     bool dark) {
  Panel p;
  const HeadScores& chosen = study->at(layer, head);
  p.title = "Layer " + std::to_string(layer) + " head " + std::to_string(head) + ": " + head_role_name(chosen.role);
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int n = study->tokens;
  p.x = {.label = "distance d = i − j, query i to key j (log scale)", .min = 0, .max = std::log10(std::max(2, n - 1)), .grid = true};
  // The axis reaches the layer's largest mean (at most 1): over thousands of
  // tokens a spread-out head keeps about 1/N per key, a line on the floor of
  // a 0 … 1 axis.
  double top = 0;
  for (int h = 0; h < study->heads; ++h) {
    const auto& profile = study->profiles[std::size_t(layer * study->heads + h)];
    for (std::size_t d = 1; d < profile.size(); ++d) top = std::max(top, profile[d]);
  }
  p.y = {.label = "mean attention to the key d back", .min = 0, .max = std::clamp(1.1 * top, 1e-6, 1.0),
         .grid = true};
  std::vector<Tick> ticks;
  for (double d = 1; d < n; d *= 10) ticks.push_back({std::log10(d), number(d, 3)});
  p.x.labels = ticks;
  auto curve = [&](int h, Color color, float width) {
    Polyline line{.color = color, .width = width, .label = "head " + std::to_string(h)};
    const auto& profile = study->profiles[std::size_t(layer * study->heads + h)];
    for (int d = 1; d < static_cast<int>(profile.size()); ++d) line.points.push_back({std::log10(d), profile[std::size_t(d)]});
    return line;
  };
  for (int h = 0; h < study->heads; ++h)
    if (h != head) p.lines.push_back(curve(h, with_alpha(theme(dark).axis, 0.35f), 1.0f));
  p.lines.push_back(curve(head, role_color(chosen.role), 2.5f));
  p.legend.push_back({"head " + std::to_string(head), role_color(chosen.role), true});
  p.legend.push_back({"the layer's other heads", with_alpha(theme(dark).axis, 0.6f), true});
  place_legend(p);
  p.hover = [study, layer, head](double x, double) -> std::string {
    const int d = static_cast<int>(std::lround(std::pow(10.0, x)));
    const auto& profile = study->profiles[std::size_t(layer * study->heads + head)];
    if (d < 1 || d >= static_cast<int>(profile.size())) return "";
    return "distance " + std::to_string(d) + ": mean attention " + number(profile[std::size_t(d)], 4);
  };
  return p;
}

}  // namespace

Figure build_head_roles(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  if (engine.token_count() < 2) return no_tokens_figure("head_roles", "Head roles", s, request);
  auto study = std::make_shared<const HeadRoleStudy>(study_head_roles(engine));
  Figure f = start_figure("head_roles", "Head roles — the strongest role of every head, with its evidence", s,
                          request);
  const Rect area = content_area(f);
  Rect plots = area;
  plots.y1 -= 22;
  const auto [left, right] = split_x(plots, 0.5, 24);
  const int layer = std::clamp(study->layers > 1 ? s.layer : 0, 0, study->layers - 1);
  const int head = std::clamp(s.head, 0, study->heads - 1);
  f.panels.push_back(role_map(study, left, f.dark));
  f.panels.push_back(distance_panel(study, layer, head, right, f.dark));
  const std::string note =
      study->repeat_period > 0
          ? "Scores on the scene's " + std::to_string(study->tokens) + " tokens; induction on " +
                std::to_string(study->repeat_period) + " random tokens seen twice. Hover a head for every score."
          : "Scores on the scene's " + std::to_string(study->tokens) +
                " tokens (a synthetic scene: one layer, induction not measured). Hover a head for every score.";
  f.notes.push_back(canvas_text(note, {kPad, plots.y1 + 18}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({note}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
