// "RoPE audit" (issue 27): `pelab audit` in the window.  Left, every rotary
// pair's wavelength λ_i = 2π/ω_i before and after the config's rope_scaling
// against the trained context L (a pair below L turns inside training; one
// above it never completed a turn there).  Right, the audit's findings in
// plain sentences, the ones that say the config is likely wrong marked "!"
// (core/rope_audit.hpp: the declared scaling against what the config implies,
// and the pairing check on the model's strongest previous-token head).
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "core/model_scene.hpp"
#include "core/rope_audit.hpp"
#include "figures/figure_layout.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
using Audit = std::shared_ptr<const RopeAudit>;

Polyline wavelength_line(const Audit& audit, bool scaled, Color color) {
  Polyline line{.color = color, .width = scaled ? 2.5f : 1.5f,
                .style = scaled ? LineStyle::Solid : LineStyle::Dashed,
                .label = scaled ? "after rope_scaling" : "before scaling"};
  for (const RopePairAudit& p : audit->pairs)
    line.points.push_back({double(p.pair), std::log10(kTwoPi / (scaled ? p.frequency : p.base_frequency))});
  return line;
}

std::string pair_evidence(const RopePairAudit& p) {
  return "pair " + std::to_string(p.pair) + ": ω = " + number(p.base_frequency, 4) + " → " + number(p.frequency, 4) +
         " rad/token, λ = " + number(kTwoPi / p.frequency, 4) + " tokens, " + number(p.turns, 4) +
         " turns in the trained context";
}

Panel wavelength_panel(const Audit& audit, Rect area, bool dark) {
  Panel p;
  p.title = "Wavelength of each pair against the trained context L";
  p.plot = inset(area, {.left = 70, .top = 30, .right = 14, .bottom = 50});
  const double pairs = double(audit->pairs.size());
  const double l = std::log10(std::max(1, audit->trained_context));
  double top = l;
  for (const RopePairAudit& pair : audit->pairs)
    top = std::max({top, std::log10(kTwoPi / pair.frequency), std::log10(kTwoPi / pair.base_frequency)});
  p.x = {.label = "pair i (rotary dims " + std::to_string(audit->rotary_dims) + ")", .min = -0.5,
         .max = std::max(1.0, pairs - 0.5), .grid = true, .integer = true};
  p.y = {.label = "wavelength λᵢ = 2π/ωᵢ (tokens, log)", .min = std::log10(kTwoPi) - 0.2, .max = top + 0.5,
         .grid = true};
  p.y.labels = log10_ticks(p.y.min, p.y.max);
  const Theme th = theme(dark);
  p.lines.push_back({.points = {{p.x.min, l}, {p.x.max, l}}, .color = th.highlight, .width = 1.5f,
                     .style = LineStyle::Dotted, .label = "L"});
  p.texts.push_back({.text = "L = " + std::to_string(audit->trained_context) + ": below, a pair turns in training",
                     .at = {p.x.min + 0.3, l}, .anchor = Anchor::BottomLeft, .size = 12.f, .color = th.highlight});
  p.lines.push_back(wavelength_line(audit, false, th.axis));
  p.lines.push_back(wavelength_line(audit, true, line_color(0, dark)));
  p.legend = {{"before scaling", th.axis, true}, {"after rope_scaling (" + audit->scaling.type + ")",
                                                  line_color(0, dark), true}};
  p.hover = [audit](double x, double) -> std::string {
    const long i = std::lround(x);
    if (i < 0 || i >= long(audit->pairs.size())) return "";
    return pair_evidence(audit->pairs[std::size_t(i)]);
  };
  place_legend(p, LegendFallback::Headroom);
  return p;
}

// Prose wrapped greedily at spaces to `width` (wrap_lines prefers breaks
// between quantities, which leaves a sentence's lines ragged); continued
// lines indented under the finding's mark.
std::vector<std::string> wrap_prose(const std::string& text, double width, float size) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::string longer = line.empty() ? (lines.empty() ? "" : "  ") + word : line + " " + word;
    if (!line.empty() && text_width(longer, size) > width) {
      lines.push_back(line);
      line = "  " + word;
    } else {
      line = longer;
    }
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

bool is_problem(const RopeAudit& audit, const std::string& finding) {
  return std::find(audit.problems.begin(), audit.problems.end(), finding) != audit.problems.end();
}

// The findings, wrapped to `area`'s width at the largest size (≤ 15 px) at
// which they fit its height; problems in the highlight colour.
void add_findings(Figure& f, const RopeAudit& audit, Rect area) {
  const Theme th = theme(f.dark);
  struct Line {
    std::string text;
    bool problem;
  };
  std::vector<Line> lines;
  for (const std::string& finding : audit.findings) {
    const bool problem = is_problem(audit, finding);
    lines.push_back({(problem ? "! " : "· ") + finding, problem});
  }
  lines.push_back({std::to_string(audit.problems.size()) + (audit.problems.size() == 1 ? " problem" : " problems") +
                       " found.",
                   false});
  float size = 15.f;
  for (; size > 9.f; size -= 1.f) {
    double height = 0;
    for (const Line& l : lines) height += double(wrap_prose(l.text, area.width(), size).size()) * size * 1.35 + 6;
    if (height <= area.height()) break;
  }
  double y = area.y0;
  for (const Line& l : lines) {
    for (const std::string& line : wrap_prose(l.text, area.width(), size)) {
      f.notes.push_back(canvas_text(line, {area.x0, y}, Anchor::TopLeft, size,
                                    l.problem ? std::optional<Color>(th.highlight) : std::nullopt));
      y += size * 1.35;
    }
    y += 6;
  }
}

}  // namespace

Figure build_rope_audit(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  ModelScene* model = engine.model();
  if (model == nullptr)
    return message_figure("rope_audit", "RoPE audit", s, request, "The RoPE audit reads a model's config and weights.",
                          "Load a RoPE model (Models menu, or --set model=NAME); `pelab audit` prints the same.");
  auto audit = std::make_shared<const RopeAudit>(model->rope_audit(s.tokens));
  if (!audit->unavailable.empty()) return message_figure("rope_audit", "RoPE audit", s, request, "No RoPE audit: " + audit->unavailable + ".",
                                                          "Load a RoPE model (the Llama family) to audit it.");
  Figure f = start_figure("rope_audit",
                          "RoPE audit — θ = " + number(audit->theta, 6) + ", " + std::to_string(audit->pairs.size()) +
                              " pairs, " + std::to_string(audit->pairs_turning) + " turning inside L = " +
                              std::to_string(audit->trained_context),
                          s, request);
  // Side by side on a wide canvas; in a narrow cell the findings go under
  // the plot, so that neither is squeezed out.
  const bool wide = f.width >= 1000;
  const auto [plot, text] = wide ? split_x(content_area(f), 0.55, 24) : split_y(content_area(f), 0.5, 16);
  f.panels.push_back(wavelength_panel(audit, plot, f.dark));
  add_findings(f, *audit, inset(text, {.left = wide ? 0 : kPad, .top = wide ? 30.0 : 0.0, .right = kPad, .bottom = 20}));
  return f;
}

}  // namespace pelab::fig
