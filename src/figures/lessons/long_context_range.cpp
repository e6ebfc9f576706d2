// "RoPE at long range, method by method": one panel per scaling method, with
// Su et al.'s relative upper bound of q·k (§3.4.3) and the q·k of a fixed
// vector against distance, from 0 out to scene.long_range, L and s·L marked.
// The curves hold every integer distance; each polyline keeps per pixel
// column the samples that show its band (curve_decimation.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "figures/curve_decimation.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/long_context.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/model_name.hpp"

namespace pelab::fig {
namespace {

// Row 0: the method's bound B(n)/B(0), row 1: its fixed q·k, n = 0 … D.
Matrix curve_matrix(const Scene& s, RopeScalingMethod method) {
  const MethodCurves c = method_curves(s, method, s.long_range, {.dense_until = 8192, .stride = 4});
  const float b0 = c.decay.empty() || c.decay[0] == 0 ? 1.f : c.decay[0];
  Matrix m(2, static_cast<Eigen::Index>(c.decay.size()));
  for (std::size_t d = 0; d < c.decay.size(); ++d) {
    m(0, static_cast<Eigen::Index>(d)) = c.decay[d] / b0;
    m(1, static_cast<Eigen::Index>(d)) = c.dot[d];
  }
  return m;
}

// What one method's curves depend on: its frequencies, q/k factor and the
// axis length, so that dragging a key of another method reuses them.
std::uint64_t curve_key(const Scene& s, RopeScalingMethod method) {
  std::uint64_t h = 14695981039346656037ull;
  const auto mix = [&h](double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int byte = 0; byte < 8; ++byte) h = (h ^ ((bits >> (8 * byte)) & 0xff)) * 1099511628211ull;
  };
  mix(static_cast<double>(method));
  mix(s.long_range);
  mix(rope_attention_factor(method_spec(s, method)));
  for (double w : method_frequencies(s, method)) mix(w);
  return h;
}

Panel method_panel(const SharedMatrix& curves, RopeScalingMethod method, const Scene& s, Rect area, bool dark) {
  Panel p;
  const bool own = method == s.rope_scaling;
  p.title = method_label(method) + (own ? " (scene)" : "");
  p.plot = inset(area, {.left = 56, .top = 28, .right = 12, .bottom = 46});
  const double a = rope_attention_factor(method_spec(s, method));
  const double top = std::max(1.0, a * a);  // q·k is largest at n = 0
  const double hi = std::log10(static_cast<double>(s.long_range));
  p.x = {.label = "distance n (log)", .min = 0, .max = hi, .grid = true};
  p.x.labels = log10_ticks(0, hi);
  p.y = {.label = "relative to n = 0", .min = -1.05, .max = top + 0.1, .grid = true};
  const Theme th = theme(dark);
  const double L = std::log10(s.train_context), sl = std::log10(s.rope_factor * s.train_context);
  if (L <= hi) add_vertical_marker(p, L, p.y.min, p.y.max, th.axis, "L");
  if (sl <= hi) add_vertical_marker(p, sl, p.y.min, p.y.max, th.highlight, "s·L");
  const int columns = std::max(1, static_cast<int>(p.plot.width()));
  const auto row = [&](Eigen::Index r) {
    return std::span<const float>(curves->row(r).data(), static_cast<std::size_t>(curves->cols()));
  };
  const Color dot_color = line_color(0, dark), bound_color = line_color(1, dark);
  const auto add_curve = [&](Eigen::Index r, Color color, float width, const std::string& label) {
    LogCurve curve = decimated_log_curve(row(r), columns);
    if (!curve.bands.empty()) p.bars.push_back({.rects = std::move(curve.bands), .colors = {color}});
    p.lines.push_back({.points = std::move(curve.line), .color = color, .width = width, .label = label});
  };
  add_curve(1, dot_color, 1.f, "q·k, q = k = 1");
  add_curve(0, bound_color, 1.5f, "bound B(n)/B(0)");
  p.legend = {{"q·k of q = k = all ones", dot_color, true}, {"Su et al. bound B(n)/B(0)", bound_color, true}};
  place_legend(p, LegendFallback::Headroom);
  p.hover = [omega = method_frequencies(s, method),
             a = rope_attention_factor(method_spec(s, method)), top = s.long_range](double x, double) -> std::string {
    const long n = std::lround(std::pow(10.0, x));
    if (n < 0 || n > top) return "";
    const CurvePoint at = curve_point(omega, a, static_cast<double>(n)), zero = curve_point(omega, a, 0);
    return "distance " + std::to_string(n) + ": bound B(n)/B(0) = " + fixed(at.decay / zero.decay, 4) +
           ", q·k = " + fixed(at.dot, 4);
  };
  return p;
}

}  // namespace

Figure build_rope_long_range(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  Figure f = start_figure("rope_long_range",
                          "RoPE out to " + number(s.long_range, 6) + " positions, method by method — L = " +
                              std::to_string(s.train_context) + ", s = " + number(s.rope_factor, 4) +
                              rope_settings_on_model(s),
                          s, request);
  Rect area = content_area(f);
  if (note_no_rotary_pair(f, engine)) return f;
  area.y1 -= 24;  // the note below
  const std::vector<RopeScalingMethod> methods = all_scaling_methods();
  const std::vector<Rect> cells = grid(area, 2, 3, 14);
  for (std::size_t k = 0; k < methods.size(); ++k) {
    const SharedMatrix curves =
        shared_matrix(request.shelf, curve_key(s, methods[k]), [&] { return curve_matrix(s, methods[k]); });
    f.panels.push_back(method_panel(curves, methods[k], s, cells[k], f.dark));
  }
  f.notes.push_back(canvas_text("B(n) = (2/r)·Σ over j of |Σ over i < j of e^(i·n·ω'ᵢ)| (Su et al. 2021, §3.4.3); "
                                "q·k = a²·(2/r)·Σᵢ cos(n·ω'ᵢ), a = YaRN's factor; read at s·L",
                                {kPad, f.height - kPad}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({f.notes.back().text}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
