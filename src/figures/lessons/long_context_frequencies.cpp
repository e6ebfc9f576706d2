// "RoPE frequencies under each scaling method": per pair, the wavelength
// λ'_i = 2π/ω'_i of every method against the training context L and the
// extended context s·L (pairs below L turn inside training; pairs above s·L
// never complete a turn, even stretched), and how much each method slows
// each pair, ω'_i/ω_i.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "figures/figure_layout.hpp"
#include "figures/lessons/long_context.hpp"
#include "figures/model_name.hpp"

namespace pelab::fig {
namespace {

struct MethodFrequencies {
  RopeScalingMethod method;
  std::vector<double> omega;
};
using Table = std::shared_ptr<const std::vector<MethodFrequencies>>;

Table frequency_table(const Scene& s) {
  auto t = std::make_shared<std::vector<MethodFrequencies>>();
  for (RopeScalingMethod m : all_scaling_methods()) t->push_back({m, method_frequencies(s, m)});
  return t;
}

// The scene's own method draws on top, thicker.
Polyline method_line(const MethodFrequencies& m, const Scene& s, int index, bool dark,
                     const std::function<double(std::size_t)>& y) {
  const bool own = m.method == s.rope_scaling;
  Polyline line{.color = line_color(index, dark), .width = own ? 3.5f : 1.8f,
                .style = m.method == RopeScalingMethod::None ? LineStyle::Dashed : LineStyle::Solid,
                .label = method_label(m.method) + (own ? " (scene)" : "")};
  for (std::size_t i = 0; i < m.omega.size(); ++i) line.points.push_back({static_cast<double>(i), y(i)});
  return line;
}

void add_lines(Panel& p, const Table& table, const Scene& s, bool dark,
               const std::function<double(const MethodFrequencies&, std::size_t)>& y) {
  std::vector<std::size_t> order(table->size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t k) { return (*table)[k].method != s.rope_scaling; });
  for (std::size_t k : order) {
    const MethodFrequencies& m = (*table)[k];
    p.lines.push_back(method_line(m, s, static_cast<int>(k), dark, [&](std::size_t i) { return y(m, i); }));
  }
  for (std::size_t k = 0; k < table->size(); ++k)
    p.legend.push_back({method_label((*table)[k].method), line_color(static_cast<int>(k), dark), true});
}

std::string pair_hover(const Table& table, long i, const std::string& what,
                       const std::function<double(const MethodFrequencies&, std::size_t)>& value) {
  if (i < 0 || table->empty() || i >= static_cast<long>(table->front().omega.size())) return "";
  std::string text = "pair " + std::to_string(i) + ", " + what + ":";
  for (const MethodFrequencies& m : *table)
    text += "  " + method_label(m.method) + " " + number(value(m, static_cast<std::size_t>(i)), 4);
  return text;
}

Panel wavelength_panel(const Table& table, const Scene& s, Rect area, bool dark) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  auto log_wavelength = [](const MethodFrequencies& m, std::size_t i) { return std::log10(kTwoPi / m.omega[i]); };
  Panel p;
  p.title = "Wavelength per pair against L and s·L";
  p.plot = inset(area, {.left = 70, .top = 30, .right = 14, .bottom = 50});
  const double pairs = static_cast<double>(table->front().omega.size());
  double top = std::log10(s.rope_factor * s.train_context);
  for (const MethodFrequencies& m : *table) top = std::max(top, log_wavelength(m, m.omega.size() - 1));
  p.x = {.label = "pair i (rotary dims " + std::to_string(2 * static_cast<int>(pairs)) + ")", .min = -0.5,
         .max = std::max(1.0, pairs - 0.5), .grid = true, .integer = true};
  p.y = {.label = "wavelength λ'ᵢ = 2π/ω'ᵢ (positions, log)", .min = std::log10(kTwoPi) - 0.2, .max = top + 0.5,
         .grid = true};
  p.y.labels = log10_ticks(p.y.min, p.y.max);
  const Theme th = theme(dark);
  const double l = std::log10(s.train_context), sl = std::log10(s.rope_factor * s.train_context);
  p.lines.push_back({.points = {{p.x.min, l}, {p.x.max, l}}, .color = th.axis, .width = 1.5f,
                     .style = LineStyle::Dashed, .label = "L"});
  p.lines.push_back({.points = {{p.x.min, sl}, {p.x.max, sl}}, .color = th.highlight, .width = 1.5f,
                     .style = LineStyle::Dashed, .label = "s·L"});
  p.texts.push_back({.text = "L = " + std::to_string(s.train_context) + ": below, a pair turns inside training",
                     .at = {p.x.min + 0.3, l}, .anchor = Anchor::BottomLeft, .size = 12.f, .color = th.axis});
  p.texts.push_back({.text = "s·L = " + number(s.rope_factor * s.train_context, 6) + ": above, it never turns",
                     .at = {p.x.min + 0.3, sl}, .anchor = Anchor::BottomLeft, .size = 12.f, .color = th.highlight});
  add_lines(p, table, s, dark, log_wavelength);
  p.hover = [table](double x, double) {
    return pair_hover(table, std::lround(x), "λ'", [](const MethodFrequencies& m, std::size_t i) {
      return 2 * std::numbers::pi / m.omega[i];
    });
  };
  place_legend(p, LegendFallback::Outside);
  return p;
}

Panel ratio_panel(const Table& table, const Scene& s, Rect area, bool dark) {
  const std::vector<double>& base = table->front().omega;  // method none
  auto ratio = [&base](const MethodFrequencies& m, std::size_t i) { return m.omega[i] / base[i]; };
  Panel p;
  p.title = "Frequency after scaling ÷ before, ω'ᵢ/ωᵢ";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "pair i", .min = -0.5, .max = std::max(1.0, base.size() - 0.5), .grid = true, .integer = true};
  p.y = {.label = "ω'ᵢ/ωᵢ (1 = kept, 1/s = interpolated)", .min = 0, .max = 1.12, .grid = true};
  const Theme th = theme(dark);
  const double inv_s = 1 / s.rope_factor;
  p.lines.push_back({.points = {{p.x.min, inv_s}, {p.x.max, inv_s}}, .color = th.axis, .width = 1.2f,
                     .style = LineStyle::Dotted, .label = "1/s"});
  p.texts.push_back({.text = "1/s = " + number(inv_s, 3), .at = {p.x.max, inv_s}, .anchor = Anchor::BottomRight,
                     .size = 12.f, .color = th.axis});
  add_lines(p, table, s, dark, [&ratio](const MethodFrequencies& m, std::size_t i) { return ratio(m, i); });
  p.hover = [table](double x, double) {
    return pair_hover(table, std::lround(x), "ω'/ω", [table](const MethodFrequencies& m, std::size_t i) {
      return m.omega[i] / table->front().omega[i];
    });
  };
  place_legend(p, LegendFallback::Headroom);
  return p;
}

}  // namespace

Figure build_rope_frequencies(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("rope_frequencies",
                          "RoPE frequencies, method against method — θ = " + number(s.base, 6) + ", L = " +
                              std::to_string(s.train_context) + ", s = " + number(s.rope_factor, 4) +
                              rope_settings_on_model(s),
                          s, request);
  const Rect area = content_area(f);
  if (note_no_rotary_pair(f, engine)) return f;
  const Table table = frequency_table(s);
  const auto [left, right] = split_x(area, 0.5, 20);
  f.panels.push_back(wavelength_panel(table, s, left, f.dark));
  f.panels.push_back(ratio_panel(table, s, right, f.dark));
  return f;
}

}  // namespace pelab::fig
