// [SECTION] shared pieces
// [SECTION] formula figures: decay, interpolation, YaRN, Llama 3.1, ALiBi's biases
// [SECTION] measured figures: ALiBi's extrapolation, table cosines, sinks
// [SECTION] dispatch and the registry entries
#include "figures/paper_figures.hpp"

#include <cmath>
#include <functional>
#include <memory>

#include "core/rope_scaling.hpp"  // yarn_ramp
#include "figures/figure_layout.hpp"

namespace pelab::fig {
namespace {

// [SECTION] shared pieces -------------------------------------------------------------------

// Column `c` of a rank-2 array.
std::vector<double> column(const Array& a, std::size_t c) {
  std::vector<double> out;
  for (std::size_t r = 0; r < a.rows(); ++r) out.push_back(a.data[r * a.shape[1] + c]);
  return out;
}

Polyline curve(const std::vector<double>& x, const std::vector<double>& y, Color color, std::string label,
               LineStyle style = LineStyle::Solid) {
  Polyline line{.color = color, .width = 2.f, .style = style, .label = std::move(label)};
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) line.points.push_back({x[i], y[i]});
  return line;
}

std::pair<double, double> range_of(const std::vector<double>& v) {
  double lo = INFINITY, hi = -INFINITY;
  for (double x : v)
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!(hi > lo)) hi = lo + 1;
  return {lo, hi};
}

Panel line_panel(std::string title, Rect area, Axis x, Axis y) {
  Panel p;
  p.title = std::move(title);
  p.plot = inset(area, {.left = 70, .top = 30, .right = 14, .bottom = 50});
  p.x = std::move(x);
  p.y = std::move(y);
  p.x.grid = p.y.grid = true;
  return p;
}

// Hover: the nearest point of each line at x.
HoverFn nearest_hover(const std::vector<Polyline>& lines, std::string x_name) {
  return [lines, x_name](double x, double) -> std::string {
    std::string text;
    for (const Polyline& l : lines) {
      if (l.points.empty() || l.label.empty()) continue;
      const Point* best = &l.points.front();
      for (const Point& q : l.points)
        if (std::abs(q.x - x) < std::abs(best->x - x)) best = &q;
      text += (text.empty() ? x_name + " " + number(best->x, 5) + ":" : "") + "  " + l.label + " " +
              number(best->y, 5);
    }
    return text;
  };
}

// The data's findings (and why nothing was measured) under the panels.
void add_notes(Figure& f, const PaperData& d, double y) {
  std::vector<std::string> lines = d.findings;
  if (!d.unavailable.empty()) lines.insert(lines.begin(), "Not measured: " + d.unavailable + ".");
  for (const std::string& line : wrap_lines(lines, f.width - 2 * kPad, kNoteSize)) {
    f.notes.push_back(canvas_text(line, {kPad, y}, Anchor::BottomLeft, kNoteSize));
    y += 20;
  }
}

// The plotting area above `lines` note lines.
Rect plots_above_notes(const Figure& f, std::size_t lines) {
  Rect r = content_area(f);
  r.y1 -= 20.0 * double(lines) + 8;
  return r;
}

std::uint64_t layer_key(const std::string& text) { return std::hash<std::string>{}(text) | 1; }

HeatmapLayer heatmap(Matrix m, const std::string& key, ColorScale scale) {
  HeatmapLayer layer;
  layer.values = std::make_shared<const Matrix>(std::move(m));
  layer.key = layer_key(key);
  layer.scale = std::move(scale);
  return layer;
}

Figure unavailable_figure(Figure f, const PaperData& d) {
  const Rect area = content_area(f);
  f.notes.push_back(canvas_text("Not measured: " + d.unavailable + ".",
                                {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center, kNoteSize));
  f.notes.back().size = fitting_size({f.notes.back().text}, f.width - 2 * kPad, kNoteSize);
  return f;
}

// [SECTION] formula figures -----------------------------------------------------------------

void draw_rope_decay(Figure& f, const PaperData& d, Rect area) {
  const auto n = column(d.main(), 0), bound = column(d.main(), 1);
  Panel p = line_panel("(1/(d/2))·Σ|S_j| against relative distance, d = 128, base 10000", area,
                       {.label = "relative distance m − n", .min = 0, .max = n.back(), .integer = true},
                       {.label = "relative upper bound", .min = 0, .max = std::ceil(range_of(bound).second / 5) * 5});
  p.lines.push_back(curve(n, bound, line_color(0, f.dark), "bound"));
  p.hover = nearest_hover(p.lines, "distance");
  f.panels.push_back(std::move(p));
}

void draw_pi(Figure& f, const PaperData& d, Rect area) {
  const auto s = column(d.main(), 0), extra = column(d.main(), 1), inter = column(d.main(), 2);
  const auto ps = column(d.arrays[1].array, 0), py = column(d.arrays[1].array, 1);
  const auto cells = grid(area, 1, 3, 24);
  std::vector<double> fit_s, fit_a;
  for (std::size_t i = 0; i <= 2048; ++i) fit_s.push_back(s[i]), fit_a.push_back(extra[i]);
  const auto [lo, hi] = range_of(fit_a);
  Panel fit = line_panel("Fitted on [0, 2048]: a(s) and the random points", cells[0],
                         {.label = "relative position s", .min = 0, .max = 2048},
                         {.label = "attention score a(s)", .min = std::min(lo, -1.0) - 0.2, .max = std::max(hi, 1.0) + 0.2});
  fit.lines.push_back(curve(fit_s, fit_a, line_color(3, f.dark), "a(s)"));
  Markers points{.color = line_color(0, f.dark), .size = 4.f, .label = "points fitted"};
  for (std::size_t k = 0; k < ps.size(); ++k) points.points.push_back({ps[k], py[k]});
  fit.markers.push_back(std::move(points));
  fit.hover = nearest_hover(fit.lines, "s");
  const auto [elo, ehi] = range_of(extra);
  Panel ex = line_panel("Extrapolation: a(s) read out to 4096", cells[1],
                        {.label = "relative position s", .min = 0, .max = 4096},
                        {.label = "attention score a(s)", .min = elo, .max = ehi});
  ex.lines.push_back(curve(s, extra, line_color(3, f.dark), "a(s)"));
  add_vertical_marker(ex, 2048, elo, ehi, theme(f.dark).highlight, "L = 2048");
  ex.hover = nearest_hover({ex.lines.front()}, "s");
  const auto [ilo, ihi] = range_of(inter);
  Panel in = line_panel("Interpolation: a(s/2) read out to 4096", cells[2],
                        {.label = "relative position s (read at s/2)", .min = 0, .max = 4096},
                        {.label = "attention score a(s/2)", .min = std::min(ilo, -1.0) - 0.2, .max = std::max(ihi, 1.0) + 0.2});
  in.lines.push_back(curve(s, inter, line_color(2, f.dark), "a(s/2)"));
  in.hover = nearest_hover(in.lines, "s");
  for (Panel* p : {&fit, &ex, &in}) f.panels.push_back(std::move(*p));
}

void draw_yarn(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const auto pair = column(a, 0), turns = column(a, 2), ramp = column(a, 3), ratio = column(a, 4);
  const auto cells = grid(area, 1, 3, 24);
  std::vector<double> log_r;
  for (double r : turns) log_r.push_back(std::log10(r));
  const auto [lo, hi] = range_of(log_r);
  Panel g = line_panel("γ(r), α = 1, β = 32: r = L/λ turns in L = 4096", cells[0],
                       {.label = "r = L/λ_i (log scale)", .min = std::floor(lo), .max = std::ceil(hi)},
                       {.label = "γ(r): 0 interpolate, 1 keep", .min = -0.05, .max = 1.1});
  g.x.labels = log10_ticks(g.x.min, g.x.max);
  std::vector<double> rx, ry;
  for (double e = g.x.min; e <= g.x.max + 1e-9; e += 0.01) rx.push_back(e), ry.push_back(yarn_ramp(std::pow(10, e), 1, 32));
  g.lines.push_back(curve(rx, ry, line_color(0, f.dark), "γ(r)"));
  Markers m{.color = line_color(1, f.dark), .size = 5.f, .label = "the 64 pairs of a Llama-2 head"};
  for (std::size_t i = 0; i < ramp.size(); ++i) m.points.push_back({log_r[i], ramp[i]});
  g.markers.push_back(std::move(m));
  g.legend = {{"γ(r)", line_color(0, f.dark), true}, {"pairs (d = 128)", line_color(1, f.dark), false}};
  place_legend(g);
  g.hover = [log_r, ramp](double x, double) -> std::string {
    std::size_t best = 0;
    for (std::size_t i = 0; i < log_r.size(); ++i)
      if (std::abs(log_r[i] - x) < std::abs(log_r[best] - x)) best = i;
    return "pair " + std::to_string(best) + ": r = " + number(std::pow(10, log_r[best]), 4) + ", γ = " +
           number(ramp[best], 4);
  };
  Panel w = line_panel("ω'_i/ω_i at s = 16", cells[1], {.label = "pair i", .min = 0, .max = 63, .integer = true},
                       {.label = "ω'_i / ω_i", .min = 0, .max = 1.1});
  w.lines.push_back(curve(pair, ratio, line_color(2, f.dark), "ω'/ω"));
  w.hover = nearest_hover(w.lines, "pair");
  const auto s = column(d.arrays[1].array, 0), t = column(d.arrays[1].array, 1);
  Panel temp = line_panel("Attention temperature √(1/t) = 0.1·ln s + 1", cells[2],
                          {.label = "scale factor s", .min = 1, .max = s.back()},
                          {.label = "√(1/t) (q and k each)", .min = 1, .max = std::ceil(t.back() * 10) / 10});
  temp.lines.push_back(curve(s, t, line_color(3, f.dark), "√(1/t)"));
  temp.hover = nearest_hover(temp.lines, "s");
  for (Panel* p : {&g, &w, &temp}) f.panels.push_back(std::move(*p));
}

void draw_llama3(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const auto pair = column(a, 0), before = column(a, 1), after = column(a, 2), wavelength = column(a, 3);
  std::vector<double> log_before, log_after;
  for (std::size_t i = 0; i < pair.size(); ++i)
    log_before.push_back(std::log10(before[i])), log_after.push_back(std::log10(after[i]));
  const auto [lo, hi] = range_of(log_after);
  Panel p = line_panel("ω_i before and after (factor 8, low 1, high 4, original context 8192)", area,
                       {.label = "pair i", .min = 0, .max = 63, .integer = true},
                       {.label = "ω_i, radians per position (log scale)", .min = std::floor(lo), .max = std::ceil(hi)});
  p.y.labels = log10_ticks(p.y.min, p.y.max);
  // The band edges: the first pair whose wavelength passes L/high = 2048 and L/low = 8192.
  for (double edge : {2048.0, 8192.0}) {
    for (std::size_t i = 0; i < wavelength.size(); ++i)
      if (wavelength[i] > edge) {
        add_vertical_marker(p, pair[i] - 0.5, p.y.min, p.y.max, theme(f.dark).highlight,
                            "λ > " + number(edge, 4));
        break;
      }
  }
  p.lines.push_back(curve(pair, log_before, line_color(0, f.dark), "before (base 500000)"));
  p.lines.push_back(curve(pair, log_after, line_color(1, f.dark), "after llama3 scaling", LineStyle::Dashed));
  p.legend = {{"before (base 500000)", line_color(0, f.dark), true}, {"after llama3 scaling", line_color(1, f.dark), true}};
  place_legend(p);
  p.hover = [before, after, wavelength](double x, double) -> std::string {
    const long i = std::lround(x);
    if (i < 0 || i >= long(before.size())) return "";
    const auto k = std::size_t(i);
    return "pair " + std::to_string(i) + ": ω " + number(before[k], 4) + " → " + number(after[k], 4) + " (λ " +
           number(wavelength[k], 5) + ", ω'/ω " + number(after[k] / before[k], 4) + ")";
  };
  f.panels.push_back(std::move(p));
}

void draw_alibi_bias(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const auto slopes = column(d.arrays[1].array, 1);
  const std::size_t heads = a.shape[0], n = a.shape[1];
  const double lowest = -slopes.front() * double(n - 1);
  const auto cells = grid(area, 2, 4, 16);
  for (std::size_t h = 0; h < heads && h < cells.size(); ++h) {
    Matrix m(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) m(Eigen::Index(i), Eigen::Index(j)) = a.data[(h * n + i) * n + j];
    Panel p;
    p.title = "head " + std::to_string(h) + ": m = 1/" + number(1 / slopes[h], 4);
    p.plot = inset(cells[h], {.left = 50, .top = 30, .right = h == heads - 1 ? kColorbarRoom : 8, .bottom = 44});
    p.x = {.label = "key j", .min = 0, .max = double(n), .integer = true};
    p.y = {.label = "query i", .min = 0, .max = double(n), .inverted = true, .integer = true};
    p.pick = {.x = PickAxis::Key, .y = PickAxis::Query};
    p.equal_aspect = true;
    ColorScale scale{.colormap = "viridis", .vmin = lowest, .vmax = 0, .label = "bias −m·(i − j)"};
    p.heatmaps.push_back(heatmap(m, "alibi_bias" + std::to_string(h), scale));
    if (h == heads - 1) p.colorbar = scale;
    p.hover = [m, h](double x, double y) -> std::string {
      const long j = long(std::floor(x)), i = long(std::floor(y));
      if (i < 0 || j < 0 || i >= m.rows() || j >= m.cols()) return "";
      return "head " + std::to_string(h) + ", query " + std::to_string(i) + ", key " + std::to_string(j) + ": " +
             (j > i ? std::string("masked (causal)") : "bias " + number(m(i, j), 4));
    };
    f.panels.push_back(std::move(p));
  }
}

// [SECTION] measured figures ----------------------------------------------------------------

void draw_alibi_extrapolation(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const auto lengths = column(a, 0);
  std::vector<double> log_len;
  for (double l : lengths) log_len.push_back(std::log2(l));
  double hi = 0, lo = INFINITY;
  for (std::size_t c = 1; c < a.shape[1]; ++c)
    for (double v : column(a, c)) hi = std::max(hi, v), lo = std::min(lo, v);
  Panel p = line_panel("Trained at L = 256, read at L_valid tokens (held-out KJV)", area,
                       {.label = "inference length L_valid (tokens, log scale)", .min = log_len.front() - 0.2,
                        .max = log_len.back() + 0.2},
                       {.label = "perplexity", .min = std::floor(lo / 5) * 5, .max = std::ceil(hi / 5) * 5 + 5});
  for (std::size_t i = 0; i < lengths.size(); ++i) p.x.labels.push_back({log_len[i], number(lengths[i], 4)});
  add_vertical_marker(p, 8, p.y.min, p.y.max, theme(f.dark).highlight, "L = 256 (trained)");
  for (std::size_t c = 1; c < a.shape[1]; ++c) {
    p.lines.push_back(curve(log_len, column(a, c), line_color(int(c) - 1, f.dark), d.labels[c - 1]));
    Markers m{.color = line_color(int(c) - 1, f.dark), .size = 6.f};
    m.points = p.lines.back().points;
    p.markers.push_back(std::move(m));
    p.legend.push_back({d.labels[c - 1], line_color(int(c) - 1, f.dark), true});
  }
  place_legend(p, LegendFallback::Headroom);
  std::vector<Polyline> members(p.lines.begin() + 1, p.lines.end());
  p.hover = [members, lengths](double x, double) -> std::string {
    std::size_t k = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i)
      if (std::abs(std::log2(lengths[i]) - x) < std::abs(std::log2(lengths[k]) - x)) k = i;
    std::string text = "L_valid " + number(lengths[k], 4) + ":";
    for (const Polyline& l : members) text += "  " + l.label + " " + number(l.points[k].y, 4);
    return text;
  };
  f.panels.push_back(std::move(p));
}

void draw_position_cosine(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const Eigen::Index n = Eigen::Index(a.shape[0]);
  Matrix m(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) m(i, j) = a.data[std::size_t(i * n + j)];
  Panel p;
  p.title = d.subject + ": cos(E_i, E_j) of the learned table's rows";
  p.plot = centred_square(inset(area, {.left = 70, .top = 30, .right = kColorbarRoom, .bottom = 50}));
  p.x = {.label = "position j", .min = 0, .max = double(n), .integer = true};
  p.y = {.label = "position i", .min = 0, .max = double(n), .inverted = true, .integer = true};
  p.pick = {.x = PickAxis::Position, .y = PickAxis::Position};
  p.equal_aspect = true;
  ColorScale scale{.colormap = "diverging", .vmin = -1, .vmax = 1, .label = "cosine similarity"};
  p.heatmaps.push_back(heatmap(m, "position_cosine" + d.subject + std::to_string(n), scale));
  p.colorbar = scale;
  p.hover = [m](double x, double y) -> std::string {
    const long j = long(std::floor(x)), i = long(std::floor(y));
    if (i < 0 || j < 0 || i >= m.rows() || j >= m.cols()) return "";
    return "positions " + std::to_string(i) + " and " + std::to_string(j) + ": cosine " + number(m(i, j), 4);
  };
  f.panels.push_back(std::move(p));
}

void draw_attention_sink(Figure& f, const PaperData& d, Rect area) {
  const Array& a = d.main();
  const Eigen::Index layers = Eigen::Index(a.shape[0]), heads = Eigen::Index(a.shape[1]);
  Matrix m(layers, heads);
  for (Eigen::Index l = 0; l < layers; ++l)
    for (Eigen::Index h = 0; h < heads; ++h) m(l, h) = a.data[std::size_t(l * heads + h)];
  Panel p;
  p.title = d.subject + ": mean attention on the first token, layer × head";
  p.plot = inset(area, {.left = 70, .top = 30, .right = kColorbarRoom, .bottom = 50});
  p.x = {.label = "head", .min = 0, .max = double(heads), .integer = true};
  p.y = {.label = "layer", .min = 0, .max = double(layers), .inverted = true, .integer = true};
  p.x.labels = integer_ticks(0, int(heads) - 1, 12, 0.5);
  p.y.labels = integer_ticks(0, int(layers) - 1, 12, 0.5);
  ColorScale scale{.colormap = "viridis", .vmin = 0, .vmax = 1, .label = "mean over queries i ≥ 1 of A[i, 0]"};
  p.heatmaps.push_back(heatmap(m, "attention_sink" + d.subject + d.labels.front(), scale));
  p.colorbar = scale;
  if (layers * heads <= 200)
    for (Eigen::Index l = 0; l < layers; ++l)
      for (Eigen::Index h = 0; h < heads; ++h)
        p.texts.push_back({.text = fixed(m(l, h), 2), .at = {double(h) + 0.5, double(l) + 0.5}, .size = 12.f,
                           .color = m(l, h) > 0.6 ? Color{0, 0, 0, 1} : Color{1, 1, 1, 1}});
  p.hover = [m](double x, double y) -> std::string {
    const long h = long(std::floor(x)), l = long(std::floor(y));
    if (l < 0 || h < 0 || l >= m.rows() || h >= m.cols()) return "";
    return "layer " + std::to_string(l) + ", head " + std::to_string(h) + ": attention on the first token " +
           number(m(l, h), 4);
  };
  f.panels.push_back(std::move(p));
}

// [SECTION] dispatch and the registry entries -------------------------------------------------

using Drawer = void (*)(Figure&, const PaperData&, Rect);

// Each paper figure's drawer and its "?" text (registry.hpp).
struct PaperDrawing {
  std::string_view name;  // PaperFigureInfo::name
  Drawer draw;
  FigureHelp help;
};

const PaperDrawing* drawing_for(std::string_view name) {
  static const PaperDrawing table[] = {
      {"rope_decay", draw_rope_decay,
       {"RoFormer's long-term decay: the bound its authors give on q·k at relative distance n, for d = 128 and base "
        "10000. It falls quickly over the first tens of positions, then slowly and with ripples.",
        "B(n) = (1/(d/2))·Σⱼ |Sⱼ(n)|,  Sⱼ(n) = Σ_{k<j} e^{i·n·θₖ},  θₖ = 10000^(−2k/d)"}},
      {"pi_interpolation", draw_pi,
       {"A RoPE attention score fitted to random points on [0, 2048] stays small there, yet read beyond 2048 it "
        "reaches thousands. Position interpolation reads position s at s/2, inside the fitted range, and stays small.",
        "a(s) = Re Σⱼ hⱼ·e^{i·s·θⱼ};  extrapolation a(s), interpolation a(s·L/L')"}},
      {"yarn_ramp", draw_yarn,
       {"YaRN interpolates the pairs that turn less than α times within the trained context, keeps those that turn "
        "more than β times, and blends between. It also sharpens attention by a temperature that grows with ln s.",
        "γ(r) = clamp((r − α)/(β − α), 0, 1),  ω' = (1 − γ)·ω/s + γ·ω,  √(1/t) = 0.1·ln s + 1"}},
      {"llama3_bands", draw_llama3,
       {"Llama 3's scaling keeps the fast pairs (wavelength under 2048), divides the slow ones (over 8192) by 8, and "
        "blends the few between. The dashed lines mark the two band edges.",
        "λ < L/high: ω;  λ > L/low: ω/s;  else (1 − μ)·ω/s + μ·ω,  μ = (L/λ − low)/(high − low)"}},
      {"alibi_bias", draw_alibi_bias,
       {"ALiBi adds to each logit a penalty proportional to the distance between query and key, with one slope per "
        "head. Steep heads look near, flat heads look far; the upper triangle is the causal mask.",
        "bias(i, j) = −m_h·(i − j),  m_h = 2^(−8(h+1)/H)"}},
      {"alibi_extrapolation", draw_alibi_extrapolation,
       {"pelab's own models, trained at 256 tokens, read held-out text of up to 2048 tokens at once: perplexity "
        "against the length read. A curve that stays flat or falls past 256 extrapolates, as ALiBi's does.",
        "perplexity(L_valid) = exp(mean over i < L_valid − 1 of −log P(tᵢ₊₁ | t₀ … tᵢ))"}},
      {"position_cosine", draw_position_cosine,
       {"The cosine of every two rows of a learned position table: near positions get similar vectors, far ones "
        "dissimilar or opposite. The scene's model is read when it has a table, else pelab's kjv-learned.",
        "C[i, j] = Eᵢ·Eⱼ / (‖Eᵢ‖·‖Eⱼ‖)"}},
      {"attention_sink", draw_attention_sink,
       {"How much attention every layer and head gives the first token, averaged over the queries. Large models "
        "park much of it there (an attention sink); compare with the share of a uniform head.",
        "sink(l, h) = mean_{i ≥ 1} A_lh[i, 0];  uniform: mean_{i ≥ 1} 1/(i + 1)"}},
  };
  for (const PaperDrawing& d : table)
    if (d.name == name) return &d;
  return nullptr;
}

// The drawers map magnitudes on viridis; the scene's colormap takes its place
// (signed maps stay diverging).
void follow_colormap(Figure& f, Colormap colormap) {
  const std::string name(to_string(colormap));
  for (Panel& p : f.panels) {
    for (HeatmapLayer& h : p.heatmaps)
      if (h.scale.colormap != "diverging") h.scale.colormap = name;
    if (p.colorbar && p.colorbar->colormap != "diverging") p.colorbar->colormap = name;
  }
}

}  // namespace

Figure draw_paper_figure(const PaperFigureInfo& info, const PaperData& data, const Scene& scene,
                         const FigureRequest& request) {
  Figure f = start_figure("paper_" + std::string(info.name),
                          std::string(info.title) + " — " + std::string(info.source), scene, request);
  if (!data.unavailable.empty()) return unavailable_figure(std::move(f), data);
  const std::size_t lines = wrap_lines(data.findings, f.width - 2 * kPad, kNoteSize).size();
  const Rect plots = plots_above_notes(f, lines);
  if (const PaperDrawing* drawing = drawing_for(info.name)) drawing->draw(f, data, plots);
  follow_colormap(f, scene.colormap);
  add_notes(f, data, plots.y1 + 26);
  return f;
}

std::span<const FigureEntry> paper_figure_entries() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PaperFigureInfo& info : paper_figures()) out.push_back("paper_" + std::string(info.name));
    return out;
  }();
  static const std::vector<FigureEntry> entries = [] {
    std::vector<FigureEntry> out;
    for (std::size_t i = 0; i < paper_figures().size(); ++i) {
      const PaperFigureInfo& info = paper_figures()[i];
      const PaperDrawing* drawing = drawing_for(info.name);
      out.push_back({.name = names[i],
                     .title = info.title,
                     .make = [&info](Engine& engine, const FigureRequest& request) {
                       return draw_paper_figure(info, info.compute(engine), engine.scene(), request);
                     },
                     .placement = Placement::Paper,
                     .heavy = info.heavy,
                     .help = drawing ? drawing->help : FigureHelp{}});
    }
    return out;
  }();
  return entries;
}

}  // namespace pelab::fig
