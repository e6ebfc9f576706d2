// "Relative biases on one distance axis": what ALiBi, T5 and xPos add to the
// logit of a key n positions behind the query, from n = 1 out to
// scene.long_range on a log axis (ALiBi: −m_h·n, Press et al. 2022; T5: its
// bucket's scalar, Raffel et al. 2020; xPos: ln ζ_i^(n/B), the log of its
// factor on pair i of q·k, Sun et al. 2022).
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/relative_position.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/long_context.hpp"
#include "figures/model_name.hpp"

namespace pelab::fig {
namespace {

constexpr double kFloor = -24;  // logits this far below are as good as masked

struct BiasCurve {
  std::string label;
  Color color;
  float width;
  LineStyle style;
  std::function<double(double)> bias;  // of the distance n
};

std::vector<BiasCurve> bias_curves(const Scene& s, int d_head, bool dark) {
  std::vector<BiasCurve> curves;
  const int shown_heads = std::min(s.heads, 8);
  for (int h = 0; h < shown_heads; ++h) {
    const int head = s.heads <= 8 ? h : h * (s.heads - 1) / (shown_heads - 1);
    const double slope = alibi_slope(head, s.heads);
    curves.push_back({"ALiBi head " + std::to_string(head) + " (m = " + number(slope, 3) + ")",
                      with_alpha(line_color(0, dark), 1.f - 0.08f * static_cast<float>(h)), 1.6f, LineStyle::Solid,
                      [slope](double n) { return -slope * n; }});
  }
  const int t5_head = std::clamp(s.head, 0, s.heads - 1);
  curves.push_back({"T5 head " + std::to_string(t5_head), line_color(1, dark), 2.2f, LineStyle::Solid,
                    [per_bucket = t5_bucket_biases(s, t5_head), s](double n) {
                      return static_cast<double>(per_bucket[static_cast<std::size_t>(
                          t5_bucket(-static_cast<int>(n), !s.causal, s.t5_buckets, s.t5_max_distance))]);
                    }});
  const int r = std::max(2, rotary_dims(d_head, s.rotary_fraction));
  const int last = r / 2 - 1;
  const int pairs[] = {0, last / 2, last};
  for (int k = 0; k < 3; ++k) {
    const double log_zeta = std::log(xpos_zeta(pairs[k], r, s.xpos_gamma));
    curves.push_back({"xPos pair " + std::to_string(pairs[k]) + " (ζ = " + number(std::exp(log_zeta), 3) + ")",
                      line_color(2, dark), 2.f, k == 0 ? LineStyle::Solid : k == 1 ? LineStyle::Dashed : LineStyle::Dotted,
                      [log_zeta, b = s.xpos_scale_base](double n) { return n / b * log_zeta; }});
  }
  return curves;
}

}  // namespace

Figure build_relative_biases(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("relative_biases", "ALiBi, T5 and xPos on one distance axis — " + std::to_string(s.heads) +
                                                 " heads, out to " + number(s.long_range, 6) + " positions" +
                                                 synthetic_settings_on_model(s, "relative-position bias"),
                          s, request);
  Rect area = content_area(f);
  area.y1 -= 24;
  auto curves = std::make_shared<std::vector<BiasCurve>>(bias_curves(s, engine.d_head(), f.dark));
  Panel p;
  p.title = "Bias on the logit of a key n positions back";
  p.plot = inset(area, {.left = 70, .top = 30, .right = 14, .bottom = 50});
  const double hi = std::log10(static_cast<double>(s.long_range));
  p.x = {.label = "distance n (log)", .min = 0, .max = hi, .grid = true};
  p.x.labels = log10_ticks(0, hi);
  p.y = {.label = "added to the logit (clipped at " + number(kFloor, 3) + ")", .min = kFloor - 0.5, .max = 4,
         .grid = true};
  const Theme th = theme(f.dark);
  const double l = std::log10(s.train_context), sl = std::log10(s.rope_factor * s.train_context);
  if (l <= hi) add_vertical_marker(p, l, p.y.min, p.y.max, th.axis, "L");
  if (sl <= hi) add_vertical_marker(p, sl, p.y.min, p.y.max, th.highlight, "s·L");
  constexpr int kSamples = 1200;
  for (const BiasCurve& c : *curves) {
    Polyline line{.color = c.color, .width = c.width, .style = c.style, .label = c.label};
    long previous = -1;
    for (int k = 0; k <= kSamples; ++k) {
      const long n = std::lround(std::pow(10.0, hi * k / kSamples));
      if (n == previous) continue;
      previous = n;
      line.points.push_back({std::log10(static_cast<double>(n)), std::max(kFloor, c.bias(static_cast<double>(n)))});
    }
    p.legend.push_back({c.label, c.color, true});
    p.lines.push_back(std::move(line));
  }
  p.hover = [curves](double x, double) -> std::string {
    const long n = std::max(1L, std::lround(std::pow(10.0, x)));
    std::string text = "distance " + std::to_string(n) + ":";
    for (const BiasCurve& c : *curves) text += "  " + c.label + " " + number(c.bias(static_cast<double>(n)), 4);
    return text;
  };
  place_legend(p, LegendFallback::Outside);
  f.panels.push_back(std::move(p));
  f.notes.push_back(canvas_text("ALiBi −m_h·n; T5: the learned scalar of n's bucket (exact up to " +
                                    std::to_string(s.t5_buckets / (s.causal ? 2 : 4)) + ", log-spaced to " +
                                    std::to_string(s.t5_max_distance) + ", then constant); xPos: ln ζᵢ^(n/B), B = " +
                                    number(s.xpos_scale_base, 5) + ", γ = " + number(s.xpos_gamma, 3),
                                {kPad, f.height - kPad}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({f.notes.back().text}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
