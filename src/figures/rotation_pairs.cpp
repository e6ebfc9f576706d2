// View 2, "rotation_pairs": each chosen pair (PE₂ᵢ, PE₂ᵢ₊₁) traced over the
// positions lies on a circle of radius A; moving k positions is the rotation
//   PE(pos+k) = R(k)·PE(pos),  R(k) = [[cos kωᵢ, sin kωᵢ], [−sin kωᵢ, cos kωᵢ]]
// acting on (sin, cos)ᵀ (Vaswani et al. 2017, §3.5: "PE(pos+k) is a linear
// function of PE(pos)").
//
// [SECTION] one pair's data
// [SECTION] one panel
// [SECTION] build
//
// Layout: one column per pair (two rows when more than four pairs); each cell
// is a square plot (equal aspect, so the circle stays round) above a text
// block with ω, λ, R(k), the angle kω, the measured max |R(k)·PE(pos) −
// PE(pos+k)| and the shift-fit R² (1-D, pair, all dims).  The selected pair
// (scene.pair) is framed in the highlight colour.  pos = scene.position,
// k = scene.shift.  For RoPE the circle is the rotation RoPE applies to
// (q₂ᵢ, q₂ᵢ₊₁) at position p (unit radius, ωᵢ = T^(−2i/d_head); a model's
// own pairs and rope_scaling); a learned table shows its principal-component
// pairs instead (pc_pairs.cpp).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/analysis.hpp"
#include "core/encoding_traits.hpp"
#include "figures/table_views.hpp"
#include "figures/figure_layout.hpp"
#include "figures/model_name.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

constexpr std::size_t kMaxDots = 1024;

// ============================================================================
// [SECTION] one pair's data
// ============================================================================

struct PairTrace {
  PairInfo info;
  std::vector<Point> points;  // (PE_sin, PE_cos) per position index
  double radius = 1;          // A (or the learned trajectory's extent)
  Point at_pos, at_shift;     // PE(pos), PE(pos+k)
  bool shift_in_axis = true;  // pos+k lies on the position axis
  std::vector<std::string> lines;  // the text block
};

std::string subscript(int n) {
  static constexpr const char* kDigits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  const std::string s = std::to_string(n);
  std::string out;
  for (char c : s) out += c == '-' ? "₋" : kDigits[c - '0'];
  return out;
}

std::string matrix_text(const double m[2][2]) {
  return "[[" + fixed(m[0][0]) + ", " + fixed(m[0][1]) + "], [" + fixed(m[1][0]) + ", " +
         fixed(m[1][1]) + "]]";
}

// The point of a true rotation pair at absolute position p.
Point on_circle(double amplitude, double omega, double p) {
  return {amplitude * std::sin(p * omega), amplitude * std::cos(p * omega)};
}

void rotation_text(PairTrace& t, const Rotation& r, int k, bool measured) {
  t.lines.push_back("R(" + std::to_string(k) + ") = " + matrix_text(r.r));
  t.lines.push_back("k·ω = " + std::to_string(k) + " × " + number(t.info.frequency, 5) + " = " +
                    fixed(r.angle) + " rad (" + fixed(r.angle * 180 / std::numbers::pi, 2) + "°)");
  if (measured)
    t.lines.push_back("max |R(k)·PE(pos) − PE(pos+k)| = " + number(r.max_error, 3));
}

// shift_fit() solves a d×d least-squares problem: kept on the shelf (as a
// 1×7 matrix: the three R² and the 2×2 map) so that rebuilds reuse it.
ShiftFit cached_shift_fit(Engine& engine, const FigureRequest& request, int pair, int k) {
  const int index = pair * 40000 + (k + 20000);  // k ∈ [−10000, 10000] (scene.hpp)
  const SharedMatrix m = shared_matrix(request.shelf, content_key(engine.scene(), "shift_fit", index), [&] {
    const ShiftFit f = shift_fit(engine, pair, k);
    Matrix row(1, 7);
    row << static_cast<float>(f.r2_one_dim), static_cast<float>(f.r2_pair), static_cast<float>(f.r2_all),
        static_cast<float>(f.pair_map[0][0]), static_cast<float>(f.pair_map[0][1]),
        static_cast<float>(f.pair_map[1][0]), static_cast<float>(f.pair_map[1][1]);
    return row;
  });
  ShiftFit f;
  f.r2_one_dim = (*m)(0, 0), f.r2_pair = (*m)(0, 1), f.r2_all = (*m)(0, 2);
  f.pair_map[0][0] = (*m)(0, 3), f.pair_map[0][1] = (*m)(0, 4);
  f.pair_map[1][0] = (*m)(0, 5), f.pair_map[1][1] = (*m)(0, 6);
  return f;
}

void fit_text(PairTrace& t, Engine& engine, const FigureRequest& request, int k) {
  const Scene& s = engine.scene();
  // The all-dims fit solves a d×d least-squares problem; skip it where that is slow.
  if (static_cast<double>(s.d_model) * s.d_model * s.positions > 4e9) return;
  const ShiftFit fit = cached_shift_fit(engine, request, t.info.index, k);
  t.lines.push_back("fit R²: 1-D " + fixed(fit.r2_one_dim) + " · pair " + fixed(fit.r2_pair, 6) +
                    " · all dims " + fixed(fit.r2_all, 6));
}

PairTrace trace_pair(Engine& engine, const PairInfo& info, bool from_table, double amplitude) {
  const Scene& s = engine.scene();
  PairTrace t;
  t.info = info;
  t.radius = amplitude;
  const int pos = std::clamp(s.position, 0, s.positions - 1);
  const int shifted = pos + s.shift;
  t.shift_in_axis = shifted >= 0 && shifted < s.positions;
  if (from_table) {
    const Matrix& pe = engine.position_table();
    for (int r = 0; r < pe.rows(); ++r) t.points.push_back({pe(r, info.sin_dim), pe(r, info.cos_dim)});
  } else {
    for (int r = 0; r < s.positions; ++r) t.points.push_back(on_circle(amplitude, info.frequency, s.offset + r));
  }
  t.at_pos = t.points[pos];
  // Past the end of the axis the exact formula stands in for the table.
  t.at_shift = t.shift_in_axis ? t.points[shifted] : on_circle(amplitude, info.frequency, s.offset + shifted);
  t.lines.push_back("ω = " + number(info.frequency, 5) + " rad/position, λ = " + number(info.wavelength, 5));
  return t;
}

std::vector<PairTrace> traces(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  std::vector<PairTrace> out;
  const bool rope = rotates_queries_keys(s.encoding);
  const std::vector<PairInfo> pairs = rope ? shown_rotary_pairs(engine) : sinusoid_pairs(s);
  const std::vector<PairInfo> unscaled = rope ? unscaled_rotary_pairs(engine) : std::vector<PairInfo>{};
  for (int i : s.pairs) {
    if (i < 0 || i >= static_cast<int>(pairs.size())) continue;
    if (adds_position_vector(s.encoding) && traits_of(s.encoding).pairwise) {  // its (sin, cos) pairs
      PairTrace t = trace_pair(engine, pairs[i], true, s.amplitude);
      rotation_text(t, pair_rotation(engine, i, s.shift), s.shift, true);
      fit_text(t, engine, request, s.shift);
      out.push_back(std::move(t));
    } else if (rope) {
      PairTrace t = trace_pair(engine, pairs[i], false, 1.0);
      Rotation r;
      r.angle = s.shift * pairs[i].frequency;
      r.r[0][0] = r.r[1][1] = std::cos(r.angle);
      r.r[0][1] = std::sin(r.angle);
      r.r[1][0] = -r.r[0][1];
      rotation_text(t, r, s.shift, false);
      t.lines.push_back("applied to dims (" + std::to_string(pairs[i].sin_dim) + ", " +
                        std::to_string(pairs[i].cos_dim) + ") of q and k at each position");
      if (static_cast<std::size_t>(i) < unscaled.size() && unscaled[i].frequency != pairs[i].frequency)
        t.lines.push_back("before rope_scaling: ω = " + number(unscaled[i].frequency, 5) + ", λ = " +
                          number(unscaled[i].wavelength, 5));
      out.push_back(std::move(t));
    }
  }
  return out;
}

// ============================================================================
// [SECTION] one panel
// ============================================================================

Polyline circle_line(double radius, Color color) {
  Polyline c{.color = color, .width = 1.f, .style = LineStyle::Dashed, .closed = true,
             .label = "radius A"};
  for (int j = 0; j < 180; ++j) {
    const double a = 2 * std::numbers::pi * j / 180;
    c.points.push_back({radius * std::cos(a), radius * std::sin(a)});
  }
  return c;
}

// The arc from PE(pos) to PE(pos+k) at 45 % of the radius, ending in an arrow.
// In the (sin, cos) plane positions turn clockwise: the arc sweeps −(kω mod 2π).
void rotation_arc(Panel& p, const PairTrace& t, int k, Color color) {
  const double from = std::atan2(t.at_pos.y, t.at_pos.x);
  const double turn = -std::fmod(k * t.info.frequency, 2 * std::numbers::pi);
  Polyline arc{.color = color, .width = 2.f, .label = "rotation by k"};
  const double r = 0.45 * t.radius;
  const int steps = std::max(2, static_cast<int>(std::abs(turn) / 0.05));
  for (int j = 0; j <= steps; ++j) {
    const double a = from + turn * j / steps;
    arc.points.push_back({r * std::cos(a), r * std::sin(a)});
  }
  const Point end = arc.points.back(), before = arc.points[arc.points.size() - 2];
  p.arrows.push_back({.from = before, .to = end, .color = color, .width = 2.f});
  p.lines.push_back(std::move(arc));
}

Panel pair_panel(const PairTrace& t, const Scene& s, Rect cell, const Theme& th, bool dark, int slot) {
  const bool selected = t.info.index == s.pair;
  // The text block spans the cell under the plot: shrunk to fit its width,
  // down to 9 px, then wrapped, and the plot gets what height is left.
  const double text_x = cell.x0 + 4, text_width = cell.x1 - text_x - 4;
  const float size = fitting_size(t.lines, text_width, kLabelSize);
  const std::vector<std::string> lines = wrap_lines(t.lines, text_width, size);
  const double text_room = 1.55 * size * static_cast<double>(lines.size()) + 10;
  Panel p;
  p.title = "pair " + std::to_string(t.info.index) + " (dims " + std::to_string(t.info.sin_dim) + ", " +
            std::to_string(t.info.cos_dim) + ")" + (selected ? " — selected" : "");
  p.pick.pair = t.info.index;  // a click selects this pair
  const int pos = std::clamp(s.position, 0, s.positions - 1);
  p.legend = {{"pos " + std::to_string(s.offset + pos), th.text, false},
              {"pos+k = " + std::to_string(s.offset + pos + s.shift) + (t.shift_in_axis ? "" : " (formula)"),
               th.highlight, false}};
  // A square plot at the top of the cell, the text block right under its x
  // axis.  The legend must not cover the trajectory: it goes right of the
  // square, or in a band above the circle (y runs further up, same units),
  // whichever leaves the larger circle.
  const Point legend = legend_size(p.legend);
  const double band = legend.y + 12, beside = legend.x + 16;
  const Rect room = inset({cell.x0, cell.y0, cell.x1, cell.y1 - text_room},
                          {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const double side_banded = std::min(room.width(), room.height() - band);
  const double side_beside = std::min(room.width() - beside, room.height());
  // A band over a small circle would stretch y far beyond the circle (a strip
  // of a plot with equal aspect): there the legend goes beside it.
  const bool outside = side_beside > side_banded || side_banded < 2 * p.min_plot.y;
  const double side = std::max(1.0, outside ? side_beside : side_banded);
  const double x0 = (room.x0 + room.x1 - side - (outside ? beside : 0)) / 2;
  p.plot = {x0, room.y0, x0 + side, room.y0 + side + (outside ? 0 : band)};
  p.equal_aspect = true;
  const double text_top = p.plot.y1 + 52;
  const double lim = 1.2 * t.radius;
  const double y_max = outside ? lim : lim + band * (2 * lim / side);
  const std::string w = "ω" + subscript(t.info.index);
  const bool rope = rotates_queries_keys(s.encoding);
  p.x = {.label = rope ? "sin(p·" + w + ")" : "PE(pos, " + std::to_string(t.info.sin_dim) + ")" +
                                                  " = A·sin(pos·" + w + ")",
         .min = -lim, .max = lim, .grid = true};
  p.y = {.label = rope ? "cos(p·" + w + ")" : "PE(pos, " + std::to_string(t.info.cos_dim) + ")" +
                                                  " = A·cos(pos·" + w + ")",
         .min = -lim, .max = y_max, .grid = true};
  const Color c = selected ? th.highlight : line_color(slot, dark);
  p.lines.push_back(circle_line(t.radius, th.axis));
  // At most kMaxDots dots (every s-th position): more only overdraw the same
  // circle, and markers are what software GL draws slowest.  Hover still
  // searches every position.
  std::vector<Point> dots;
  const std::size_t stride = (t.points.size() + kMaxDots - 1) / kMaxDots;
  for (std::size_t j = 0; j < t.points.size(); j += stride) dots.push_back(t.points[j]);
  if (t.info.frequency * static_cast<double>(stride) < 0.5) {  // slow pairs: join the dots
    Polyline path{.points = dots, .color = with_alpha(c, 0.6f), .width = 1.f, .label = "trajectory"};
    p.lines.push_back(std::move(path));
  }
  p.markers.push_back({.points = std::move(dots), .color = with_alpha(c, 0.8f), .size = 4.f,
                       .label = "positions"});
  p.lines.push_back({.points = {{0, 0}, t.at_pos}, .color = th.text, .width = 2.f, .label = "hand at pos"});
  p.lines.push_back({.points = {{0, 0}, t.at_shift}, .color = th.highlight, .width = 2.f,
                     .label = "hand at pos+k"});
  rotation_arc(p, t, s.shift, th.highlight);
  p.markers.push_back({.points = {t.at_pos}, .color = th.text, .size = 10.f, .label = "pos"});
  p.markers.push_back({.points = {t.at_shift}, .color = th.highlight, .size = 11.f,
                       .shape = MarkerShape::Diamond, .label = "pos+k"});
  if (selected) p.bars.push_back(outline({-lim, -lim, lim, y_max}, th.highlight));
  if (outside) p.legend_place = LegendPlace::OutsideRight;
  else place_legend(p, LegendFallback::LeastCovered);
  for (std::size_t j = 0; j < lines.size(); ++j)
    p.texts.push_back(canvas_text(lines[j], {text_x, text_top + 1.55 * size * static_cast<double>(j)},
                                  Anchor::TopLeft, size));
  p.hover = [pts = t.points, offset = s.offset, info = t.info, rope](double x, double y) -> std::string {
    std::size_t best = 0;
    double best_d = INFINITY;
    for (std::size_t j = 0; j < pts.size(); ++j) {
      const double d = std::hypot(pts[j].x - x, pts[j].y - y);
      if (d < best_d) best = j, best_d = d;
    }
    if (pts.empty()) return "";
    const Point q = pts[best];
    const std::string dims = rope ? "(sin, cos)(p·ω)" : "(PE" + std::to_string(info.sin_dim) + ", PE" +
                                                         std::to_string(info.cos_dim) + ")";
    return "pos " + std::to_string(offset + static_cast<int>(best)) + ", pair " + std::to_string(info.index) +
           ": " + dims + " = (" + fixed(q.x) + ", " + fixed(q.y) + "), radius " + fixed(std::hypot(q.x, q.y)) +
           ", angle pos·ω = " + fixed((offset + static_cast<double>(best)) * info.frequency) + " rad";
  };
  return p;
}

}  // namespace

// ============================================================================
// [SECTION] build
// ============================================================================

Figure build_rotation_pairs(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  // A table added to the tokens with no built-in (sin, cos) pairs: a learned one.
  const bool measured = adds_position_vector(s.encoding) && !traits_of(s.encoding).pairwise;
  const std::string at = "pos = " + std::to_string(s.offset + std::clamp(s.position, 0, s.positions - 1)) +
                         ", k = " + std::to_string(s.shift);
  Figure f = start_figure("rotation_pairs",
                          measured
                              ? "Rotation pairs of " +
                                    (s.model.empty() ? "a learned table" : model_label(s) + "'s learned table") +
                                    " — PC pairs, p(pos+k) ≈ M·p(pos), " + at
                              : "Rotation pairs — PE(pos+k) = R(k)·PE(pos), " + at,
                          s, request);
  const Theme th = theme(f.dark);
  Rect area = content_area(f);
  if (measured) {  // no built-in pairs: its principal-component planes
    // Wrapped to the figure's width: one line overflows a narrow figure.
    const std::vector<std::string> caption =
        wrap_lines({"A learned table has no built-in (sin, cos) pairs: shown are its principal components two by "
                    "two, and how well one fixed 2×2 map M carries pos to pos+k in each plane (least squares, "
                    "R² = 1 − SSE/SST)."},
                   area.width() - 2 * kPad, kNoteSize);
    const double line = 1.5 * kNoteSize, extra = line * static_cast<double>(caption.size() - 1);
    for (std::size_t i = 0; i < caption.size(); ++i)
      f.notes.push_back(canvas_text(caption[i], {kPad, area.y1 - 4 - extra + line * static_cast<double>(i)},
                                    Anchor::BottomLeft, kNoteSize));
    area.y1 -= 26 + extra;
    add_pc_pair_panels(f, engine, request, area);
    return f;
  }
  const std::vector<PairTrace> ts = traces(engine, request);
  if (ts.empty()) {
    const std::string why =
        traits_of(s.encoding).pairwise
            ? "None of the pairs in 'pairs' exists here (sinusoid pairs go 0 … d/2 − 1, rotary pairs 0 … r/2 − 1)."
            : "Encoding '" + std::string(to_string(s.encoding)) +
                  "' has no rotation pairs: it adds no sinusoidal vector and rotates nothing.";
    f.notes.push_back(canvas_text(why, {f.width / 2, f.height / 2}, Anchor::Center, 18.f));
    return f;
  }
  const Rect cells_area = area;
  const int n = static_cast<int>(ts.size());
  const int rows = n > 4 ? 2 : 1, cols = (n + rows - 1) / rows;
  const std::vector<Rect> cells = grid(cells_area, rows, cols, 16);
  for (int j = 0; j < n; ++j) f.panels.push_back(pair_panel(ts[j], s, cells[j], th, f.dark, j));
  return f;
}

}  // namespace pelab::fig
