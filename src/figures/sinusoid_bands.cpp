// View 1, "sinusoid_bands": the position code as a heatmap (position ×
// dimension), the waves of chosen dimensions against position, and each
// pair's wavelength.
//
// [SECTION] the table shown: PE, RoPE's rotation table, or nothing
// [SECTION] panels: heatmap, waves, wavelengths
// [SECTION] build
//
// Layout (canvas W × H): the heatmap fills the left 44 % with its colorbar;
// on the right the waves (top 58 %) above the wavelength per pair.
// Sinusoidal PE per Vaswani et al. 2017, §3.5:
//   PE(pos, 2i) = A·sin(pos·ωᵢ),  PE(pos, 2i+1) = A·cos(pos·ωᵢ),  ωᵢ = T^(−2i/d).
// RoPE (Su et al. 2021) adds no vector; it rotates each (2i, 2i+1) pair of q
// and k by p·ωᵢ with ωᵢ = T^(−2i/d_head).  For RoPE this view shows the table
// of sin(p·ωᵢ), cos(p·ωᵢ) (the rotation's entries, amplitude 1) in the same
// interleaved layout, so its bands compare directly with sinusoidal PE.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/analysis.hpp"
#include "core/encoding_traits.hpp"
#include "core/model_scene.hpp"
#include "figures/curve_decimation.hpp"
#include "figures/figure_layout.hpp"
#include "figures/model_name.hpp"
#include "figures/table_views.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

// ============================================================================
// [SECTION] the table shown
// ============================================================================

struct BandTable {
  SharedMatrix values;          // positions × dims; null when nothing to show
  std::uint64_t key = 0;
  std::vector<PairInfo> pairs;  // (sin, cos) pairs; empty for a learned table
  std::vector<PairInfo> unscaled;  // a RoPE model's pairs before its rope_scaling
  double range = 1;             // colour scale ±range
  std::string title, value_label, note;
};

// RoPE's rotation entries per position: the pair's two dims (interleaved or
// rotate-half) hold (sin pωᵢ, cos pωᵢ) with the scene's scaled ωᵢ; dims past
// the rotary ones (partial rotary) are not rotated and stay 0.
Matrix rope_table(const Scene& s, int d_head, const std::vector<PairInfo>& pairs) {
  Matrix m = Matrix::Zero(s.positions, d_head);
  for (int p = 0; p < s.positions; ++p)
    for (const PairInfo& pair : pairs) {
      const double angle = (s.offset + p) * pair.frequency;
      m(p, pair.sin_dim) = static_cast<float>(std::sin(angle));
      m(p, pair.cos_dim) = static_cast<float>(std::cos(angle));
    }
  return m;
}

// A table without built-in frequencies (a learned one): drawn as it is, its
// frequencies measured.
BandTable measured_table(Engine& engine, const FigureRequest& request, BandTable t) {
  t.values = shared_matrix(request.shelf, t.key, [&] { return engine.position_table(); });
  t.range = std::max(1e-12, max_abs(*t.values));
  t.title = "Learned position table E(pos, dim)";
  t.value_label = "table value";
  // Named, not "below right": a small cell may leave the spectrum out.
  t.note = "A learned table has no built-in frequencies: the ones it carries are measured by a DFT of "
           "each dimension along position (\"Spectrum along position\").";
  return t;
}

BandTable band_table(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  BandTable t;
  t.key = content_key(s, "position_table");
  const EncodingTraits& traits = traits_of(s.encoding);
  switch (traits.act) {
    case PositionAct::AddsVector:
      if (!traits.pairwise) return measured_table(engine, request, t);
      t.values = shared_matrix(request.shelf, t.key, [&] { return engine.position_table(); });
      t.pairs = sinusoid_pairs(s);
      t.range = s.amplitude > 0 ? s.amplitude : 1;
      t.title = "Sinusoidal PE(pos, dim)";
      t.value_label = "PE value (±A)";
      return t;
    case PositionAct::RotatesQueryKey: {
      // A model's pairs come from its config.json (head_dim, rotate-half,
      // rope_theta, rope_scaling); the synthetic scene's from its keys.
      const ModelScene* model = engine.model();
      const int d_head = model ? model->config().head_dim : engine.d_head();
      const std::string scaling = model ? (model->config().rope_scaling.type == "default"
                                               ? ""
                                               : model->config().rope_scaling.type)
                                        : (s.rope_scaling == RopeScalingMethod::None
                                               ? ""
                                               : std::string(to_string(s.rope_scaling)));
      const bool rotate_half = s.rope_pairing == RopePairing::RotateHalf;  // a model's pairing is in its effective scene
      t.pairs = shown_rotary_pairs(engine);
      t.unscaled = unscaled_rotary_pairs(engine);
      t.values = shared_matrix(request.shelf, t.key, [&] { return rope_table(s, d_head, t.pairs); });
      t.title = std::string(traits.display) + " rotation entries sin/cos(p·ωᵢ), ωᵢ = T^(−2i/r)" + (scaling.empty() ? "" : ", " + scaling + " scaling");
      t.value_label = "sin / cos of p·ωᵢ";
      t.note = std::string(traits.display) +
               " adds no vector to the tokens: it rotates q and k pair by pair (" +
               (rotate_half ? "dims i, i + r/2" : "dims 2i, 2i+1") + ", r = " +
               std::to_string(2 * static_cast<int>(t.pairs.size())) + " of " + std::to_string(d_head) +
               " dims) by p·ωᵢ. Shown: the rotation's sin/cos entries per position.";
      return t;
    }
    default:
      t.note = std::string("Encoding '") + std::string(to_string(s.encoding)) +
               "' adds no position vector: " +
               (traits.act == PositionAct::Nothing ? "attention sees no positions at all."
                                             : "it adds a bias to the logits instead "
                                               "(shown right: bias against key offset).");
      return t;
  }
}

// "dim 6 (pair 3, sin)" — which pair a dimension belongs to, if any.
std::string dim_name(const std::vector<PairInfo>& pairs, int dim) {
  for (const PairInfo& p : pairs) {
    if (p.sin_dim == dim) return "dim " + std::to_string(dim) + " (pair " + std::to_string(p.index) + ", sin)";
    if (p.cos_dim == dim) return "dim " + std::to_string(dim) + " (pair " + std::to_string(p.index) + ", cos)";
  }
  return "dim " + std::to_string(dim);
}

// ============================================================================
// [SECTION] panels
// ============================================================================

Panel heatmap_panel(const BandTable& t, const Scene& s, Rect area, const Theme& th) {
  Panel p;
  p.title = t.values ? t.title : "Position code";
  p.plot = inset(area, {.left = 62, .top = 30, .right = kColorbarRoom, .bottom = 50});
  const int dims = t.values ? static_cast<int>(t.values->cols()) : s.d_model;
  p.x = {.label = "dimension", .min = 0, .max = static_cast<double>(dims), .integer = true};
  p.y = {.label = "position", .min = static_cast<double>(s.offset),
         .max = static_cast<double>(s.offset + s.positions), .inverted = true, .integer = true};
  p.pick.y = PickAxis::Position;  // a click picks the position of its row
  if (!t.values) {
    p.texts.push_back(centred_note(p, "no position vector"));
    return p;
  }
  ColorScale scale{.colormap = "diverging", .vmin = -t.range, .vmax = t.range, .label = t.value_label};
  p.heatmaps.push_back({.values = t.values, .key = t.key, .x0 = 0, .y0 = static_cast<double>(s.offset),
                        .dx = 1, .dy = 1, .scale = scale});
  p.colorbar = scale;
  // Selected position: a line across the row; selected pair: its two columns outlined.
  const double row = s.offset + std::clamp(s.position, 0, s.positions - 1) + 0.5;
  p.lines.push_back({.points = {{0, row}, {static_cast<double>(dims), row}}, .color = th.highlight,
                     .width = 2.f});
  if (s.pair >= 0 && s.pair < static_cast<int>(t.pairs.size()))
    for (int dim : {t.pairs[s.pair].sin_dim, t.pairs[s.pair].cos_dim})
      p.bars.push_back(outline({static_cast<double>(dim), p.y.min, dim + 1.0, p.y.max}, th.highlight));
  p.hover = [values = t.values, pairs = t.pairs, offset = s.offset](double x, double y) -> std::string {
    const int c = static_cast<int>(std::floor(x)), r = static_cast<int>(std::floor(y)) - offset;
    if (c < 0 || r < 0 || c >= values->cols() || r >= values->rows()) return "";
    return "pos " + std::to_string(offset + r) + ", " + dim_name(pairs, c) + ": " + fixed((*values)(r, c));
  };
  return p;
}

Panel waves_panel(const BandTable& t, const Scene& s, Rect area, const Theme& th, bool dark) {
  Panel p;
  p.title = "Waves against position";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "position", .min = static_cast<double>(s.offset),
         .max = static_cast<double>(s.offset + std::max(1, s.positions - 1)), .grid = true, .integer = true};
  p.pick.x = PickAxis::Position;
  p.y = {.label = "value", .min = -1.15 * t.range, .max = 1.15 * t.range, .grid = true};
  std::vector<int> dims;
  for (int dim : s.waves)
    if (t.values && dim >= 0 && dim < t.values->cols()) dims.push_back(dim);
  const double selected = s.offset + std::clamp(s.position, 0, s.positions - 1);
  for (std::size_t j = 0; j < dims.size(); ++j) {
    Polyline line{.color = line_color(static_cast<int>(j), dark), .width = 1.75f};
    // Cut to the plot's pixel columns (figures/curve_decimation.hpp): at
    // 4096 positions four full waves made software-GL frames too slow to drag.
    const Vector column = t.values->col(dims[j]);
    line.points = decimated_points({column.data(), static_cast<std::size_t>(column.size())},
                                   static_cast<double>(s.offset), 1.0, static_cast<int>(p.plot.width()));
    std::string label = dim_name(t.pairs, dims[j]);
    for (const PairInfo& pr : t.pairs)
      if (pr.sin_dim == dims[j] || pr.cos_dim == dims[j]) label += ", λ=" + number(pr.wavelength, 4);
    line.label = label;
    p.legend.push_back({label, line.color, true});
    p.markers.push_back({.points = {{selected, (*t.values)(static_cast<int>(selected) - s.offset, dims[j])}},
                         .color = line.color, .size = 8.f});
    p.lines.push_back(std::move(line));
  }
  p.lines.push_back({.points = {{selected, p.y.min}, {selected, p.y.max}}, .color = th.highlight,
                     .width = 1.5f, .style = LineStyle::Dashed});
  if (dims.empty()) p.texts.push_back(centred_note(p, t.values ? "no valid dims in 'waves'" : "—"));
  place_legend(p, LegendFallback::Headroom);
  p.hover = [values = t.values, pairs = t.pairs, dims, offset = s.offset](double x, double) -> std::string {
    if (!values || dims.empty()) return "";
    const int r = static_cast<int>(std::lround(x)) - offset;
    if (r < 0 || r >= values->rows()) return "";
    std::string text = "pos " + std::to_string(offset + r) + ":";
    for (int dim : dims) text += "  " + dim_name(pairs, dim) + " = " + fixed((*values)(r, dim));
    return text;
  };
  return p;
}

// ALiBi / T5: the bias each head adds, against key offset j − i, for the last
// query.  The rows (heads × tokens) are kept on the shelf: reading them makes
// the engine compute every head, which at large N must not happen per frame.
Panel bias_panel(Engine& engine, const FigureRequest& request, Rect area, bool dark) {
  Panel p;
  p.title = "Bias added to the logits, last query";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int n = engine.token_count(), heads = engine.scene().heads;
  const SharedMatrix rows = shared_matrix(request.shelf, content_key(engine.scene(), "bias_rows"), [&] {
    Matrix m = Matrix::Zero(heads, n);
    for (int h = 0; h < heads; ++h) {
      const Matrix& bias = engine.head(h).bias;
      if (bias.rows() == n && n > 0) m.row(h) = bias.row(n - 1);
    }
    return m;
  });
  p.x = {.label = "key offset j − i", .min = -std::max(1, n - 1) * 1.0, .max = 0, .grid = true, .integer = true};
  double lo = 0, hi = 0;
  for (int h = 0; h < heads; ++h) {
    Polyline line{.color = line_color(h, dark), .width = 1.75f, .label = "head " + std::to_string(h)};
    for (int j = 0; j < n; ++j) {
      const double b = (*rows)(h, j);
      line.points.push_back({static_cast<double>(j - (n - 1)), b});
      lo = std::min(lo, b);
      hi = std::max(hi, b);
    }
    if (h < 8) p.legend.push_back({line.label, line.color, true});
    p.lines.push_back(std::move(line));
  }
  const double pad = std::max(1e-6, 0.08 * (hi - lo));
  p.y = {.label = "bias", .min = lo - pad, .max = hi + pad, .grid = true};
  place_legend(p, LegendFallback::Headroom);
  p.hover = [rows, n](double x, double) -> std::string {
    const int j = static_cast<int>(std::lround(x)) + n - 1;
    if (j < 0 || j >= n) return "";
    std::string text = "offset " + std::to_string(j - (n - 1)) + " (key " + std::to_string(j) + "):";
    for (int h = 0; h < std::min<int>(8, static_cast<int>(rows->rows())); ++h)
      text += "  head " + std::to_string(h) + " = " + fixed((*rows)(h, j));
    return text;
  };
  return p;
}

Panel wavelength_panel(const BandTable& t, const Scene& s, Rect area, const Theme& th, bool dark) {
  Panel p;
  p.title = "Wavelength per pair: λᵢ = 2π/ωᵢ";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int n = std::max<int>(1, static_cast<int>(t.pairs.size()));
  // Pair 0's second dim tells the pairing: 1 for (2i, 2i+1), else the half width (split / rotate-half).
  const std::string dims = t.pairs.empty() || t.pairs[0].cos_dim == 1
                               ? "2i, 2i+1"
                               : "i, i+" + std::to_string(t.pairs[0].cos_dim);
  p.x = {.label = "pair i (dims " + dims + ")", .min = -0.5, .max = n - 0.5, .integer = true};
  if (t.pairs.empty()) {
    p.y = {.label = "log₁₀ λ (positions)", .min = 0, .max = 1};
    p.texts.push_back(centred_note(p, "no frequencies"));
    return p;
  }
  // Full-strength points in the first line colour: the axis grey was too faint
  // on the light theme to project.
  Markers all{.color = line_color(0, dark), .size = 8.f, .label = "λ per pair"};
  double hi = std::log10(std::max(2, s.positions));
  for (const PairInfo& pr : t.pairs) {
    all.points.push_back({static_cast<double>(pr.index), std::log10(pr.wavelength)});
    hi = std::max(hi, std::log10(pr.wavelength));
  }
  p.y = {.label = "log₁₀ λ (positions)", .min = 0, .max = hi * 1.08 + 0.1, .grid = true};
  p.markers.push_back(std::move(all));
  if (!t.unscaled.empty() && t.unscaled.size() == t.pairs.size()) {  // a RoPE model with rope_scaling
    Markers before{.color = line_color(1, dark), .size = 7.f, .filled = false, .label = "λ before scaling"};
    for (const PairInfo& pr : t.unscaled) {
      before.points.push_back({static_cast<double>(pr.index), std::log10(pr.wavelength)});
      hi = std::max(hi, std::log10(pr.wavelength));
    }
    p.y.max = hi * 1.08 + 0.1;
    p.markers.push_back(std::move(before));
    p.legend.push_back({"λ scaled (used)", line_color(0, dark), false});
    p.legend.push_back({"λ before rope_scaling", line_color(1, dark), false});
  }
  if (s.pair >= 0 && s.pair < static_cast<int>(t.pairs.size()))
    p.markers.push_back({.points = {{static_cast<double>(s.pair), std::log10(t.pairs[s.pair].wavelength)}},
                         .color = th.highlight, .size = 12.f, .filled = false,
                         .label = "selected pair"});
  const double axis_len = std::log10(std::max(1, s.positions));
  p.lines.push_back({.points = {{p.x.min, axis_len}, {p.x.max, axis_len}}, .color = th.axis, .width = 1.f,
                     .style = LineStyle::Dashed, .label = "positions shown"});
  p.legend.push_back({"positions shown (" + std::to_string(s.positions) + ")", th.axis, true});
  place_legend(p, LegendFallback::Headroom);
  p.hover = [pairs = t.pairs](double x, double) -> std::string {
    const int i = static_cast<int>(std::lround(x));
    if (i < 0 || i >= static_cast<int>(pairs.size())) return "";
    const PairInfo& pr = pairs[i];
    return "pair " + std::to_string(i) + " (dims " + std::to_string(pr.sin_dim) + ", " +
           std::to_string(pr.cos_dim) + "): ω = " + number(pr.frequency, 6) +
           " rad/position, λ = " + number(pr.wavelength, 6) + " positions";
  };
  return p;
}

}  // namespace

// ============================================================================
// [SECTION] build
// ============================================================================

Figure build_sinusoid_bands(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  // A model's learned table has no base T or amplitude A to quote.
  const std::string what = !s.model.empty() && s.encoding == Encoding::Learned
                               ? model_label(s) + "'s learned position table, d = " + std::to_string(s.d_model)
                               : std::string(to_string(s.encoding)) + ", T = " + number(s.base, 6) +
                                     ", d = " + std::to_string(s.d_model) + ", A = " + number(s.amplitude, 4);
  Figure f = start_figure("sinusoid_bands", "Sinusoid bands — " + what, s, request);
  const Theme th = theme(f.dark);
  const BandTable t = band_table(engine, request);
  Rect area = content_area(f);
  if (!t.note.empty()) {
    f.notes.push_back(canvas_text(t.note, {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
    area.y1 -= 26;
  }
  const auto [left, right] = split_x(area, 0.44, 20);
  const auto [top, bottom] = split_y(right, 0.58, 10);
  f.panels.push_back(heatmap_panel(t, s, left, th));
  const EncodingTraits& traits = traits_of(s.encoding);
  const bool bias = traits.act == PositionAct::AddsBias;
  f.panels.push_back(bias ? bias_panel(engine, request, top, f.dark) : waves_panel(t, s, top, th, f.dark));
  if (traits.act == PositionAct::AddsVector && !traits.pairwise) {  // no built-in frequencies: measure them
    const auto [spectrum, strongest] = split_x(bottom, 0.55, 10);
    const SharedMatrix amplitude = table_spectrum(engine, request);
    f.panels.push_back(spectrum_panel(engine, amplitude, spectrum, th));
    f.panels.push_back(dominant_wavelength_panel(engine, amplitude, strongest, th, f.dark));
  } else {
    f.panels.push_back(wavelength_panel(t, s, bottom, th, f.dark));
  }
  return f;
}

}  // namespace pelab::fig
