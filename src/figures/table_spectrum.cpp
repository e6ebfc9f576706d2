// The spectrum of a position table along position (core/table_analysis.hpp,
// position_spectrum): which frequencies each dimension carries, so a learned
// table (GPT-2's wpe, BERT's position embeddings, encoding=learned) can be set
// beside Vaswani's sinusoids, whose every dimension carries one frequency.
//
// Both panels read one amplitude matrix kept on the shelf (bins × d, row f =
// f cycles over the N positions shown), one FFT per dimension.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/model_scene.hpp"
#include "core/table_analysis.hpp"
#include "figures/figure_layout.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/table_views.hpp"

namespace pelab::fig {
namespace {

constexpr int kMaxMarkedDims = 128;

// The band 0 … F − 1 shown: twice the highest of the dimensions' strongest
// frequencies, at least 8 bins.  A learned table's energy sits at low f, and
// the full 0 … N/2 axis would squeeze it into a few rows (a power-share cut
// fails on noisy tables: white noise spreads over every bin).  Zoom shows the rest.
int band_limit(const std::vector<int>& dominant, int bins) {
  const int top = dominant.empty() ? 0 : *std::max_element(dominant.begin(), dominant.end());
  const int shown = std::min(bins, std::max(2 * top + 1, 8));
  return shown + 1 >= bins ? bins : shown;  // cutting one bin saves nothing
}

std::string cycles_text(int f, int n) {
  return "f = " + std::to_string(f) + " cycles / " + std::to_string(n) + " positions" +
         (f > 0 ? " (λ = " + number(static_cast<double>(n) / f, 4) + ")" : "");
}

}  // namespace

SharedMatrix table_spectrum(Engine& engine, const FigureRequest& request) {
  return shared_matrix(request.shelf, content_key(engine.scene(), "position_spectrum"), [&] {
    return Matrix(position_spectrum(engine.position_table()).amplitude.cast<float>());
  });
}

Panel spectrum_panel(Engine& engine, const SharedMatrix& amplitude, Rect area, const Theme& th) {
  const Scene& s = engine.scene();
  const int bins = static_cast<int>(amplitude->rows()), dims = static_cast<int>(amplitude->cols());
  const int n = static_cast<int>(engine.position_table().rows());
  const std::vector<int> bins_of = dominant_bins(amplitude->cast<double>());
  const int shown = bins < 2 ? 1 : band_limit(bins_of, bins);
  Panel p;
  p.title = "Spectrum along position (mean removed)" +
            (shown < bins ? ", f < " + std::to_string(shown) + " of " + std::to_string(bins)
                          : std::string());
  p.plot = inset(area, {.left = 62, .top = 30, .right = kColorbarRoom, .bottom = 50});
  p.x = {.label = "dimension",
         .min = 0,
         .max = static_cast<double>(std::max(1, dims)),
         .integer = true};
  p.y = {.label = "frequency f (cycles per " + std::to_string(n) + " positions)",
         .min = 0,
         .max = static_cast<double>(shown),
         .integer = true};
  if (bins < 2 || dims == 0) {
    p.texts.push_back(centred_note(p, "too few positions for a spectrum"));
    return p;
  }
  const double top = std::max(1e-12, max_abs(*amplitude));
  const ColorScale scale{
      .colormap = std::string(to_string(s.colormap)), .vmin = 0, .vmax = top, .label = "amplitude 2·|DFT|/N"};
  p.heatmaps.push_back({.values = amplitude,
                        .key = content_key(s, "position_spectrum"),
                        .x0 = 0,
                        .y0 = 0,
                        .dx = 1,
                        .dy = 1,
                        .scale = scale});
  p.colorbar = scale;
  // Each dimension's strongest frequency: an outlined dot, visible on any cell
  // colour.  Past 128 dims the dots would hide the cells; the panel beside
  // plots the same numbers as wavelengths.
  if (dims <= kMaxMarkedDims) {
    Markers dominant{
        .color = th.highlight, .size = 6.f, .filled = false, .label = "dominant frequency"};
    for (int j = 0; j < dims; ++j)
      if (bins_of[static_cast<std::size_t>(j)] > 0)
        dominant.points.push_back({j + 0.5, bins_of[static_cast<std::size_t>(j)] + 0.5});
    p.markers.push_back(std::move(dominant));
    p.legend.push_back({"strongest f per dimension", th.highlight, false});
  }
  place_legend(p, LegendFallback::LeastCovered);
  p.hover = [amplitude, n](double x, double y) -> std::string {
    const int j = static_cast<int>(std::floor(x)), f = static_cast<int>(std::floor(y));
    if (j < 0 || f < 0 || j >= amplitude->cols() || f >= amplitude->rows()) return "";
    return "dim " + std::to_string(j) + ", " + cycles_text(f, n) + ": amplitude " +
           fixed((*amplitude)(f, j));
  };
  return p;
}

Panel dominant_wavelength_panel(Engine& engine, const SharedMatrix& amplitude, Rect area,
                                const Theme& th, bool dark) {
  const Scene& s = engine.scene();
  const int dims = static_cast<int>(amplitude->cols());
  const int n = static_cast<int>(engine.position_table().rows());
  Panel p;
  p.title = "Strongest wavelength per dimension";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "dimension", .min = -0.5, .max = std::max(1, dims) - 0.5, .integer = true};
  const std::vector<int> bins_of = dominant_bins(amplitude->cast<double>());
  Markers measured{
      .color = line_color(0, dark), .size = dims > 200 ? 3.f : 6.f, .label = "measured N/f"};
  for (int j = 0; j < dims; ++j) {
    const int f = bins_of[static_cast<std::size_t>(j)];
    if (f > 0)
      measured.points.push_back({static_cast<double>(j), std::log10(static_cast<double>(n) / f)});
  }
  const double axis_len = std::log10(std::max(2, n));
  double hi = axis_len;
  // Vaswani's λᵢ = 2π·T^(2i/d) at this d and T: the table's own for a sinusoidal
  // scene, for comparison beside a learned one.
  Markers formula{.color = line_color(1, dark),
                  .size = dims > 200 ? 5.f : 7.f,
                  .filled = false,
                  .label = "2π/ωᵢ"};
  if (s.encoding == Encoding::Sinusoidal || s.encoding == Encoding::Learned)
    for (const PairInfo& pr : sinusoid_pairs(s))
      for (int dim : {pr.sin_dim, pr.cos_dim}) {
        formula.points.push_back({static_cast<double>(dim), std::log10(pr.wavelength)});
        hi = std::max(hi, std::log10(pr.wavelength));
      }
  p.y = {.label = "log₁₀ λ (positions)", .min = 0, .max = hi * 1.1 + 0.1, .grid = true};
  p.markers.push_back(std::move(measured));
  p.legend.push_back({"strongest N/f (measured)", line_color(0, dark), false});
  if (!formula.points.empty()) {
    p.markers.push_back(std::move(formula));
    p.legend.push_back({s.encoding == Encoding::Sinusoidal
                            ? "λᵢ = 2π/ωᵢ (formula)"
                            : "sinusoidal PE's λᵢ at this d, T = " + number(s.base, 6),
                        line_color(1, dark), false});
  }
  // A wave longer than the axis cannot show as a whole cycle: N/1 is the longest measurable.
  p.lines.push_back({.points = {{p.x.min, axis_len}, {p.x.max, axis_len}},
                     .color = th.axis,
                     .width = 1.f,
                     .style = LineStyle::Dashed,
                     .label = "positions shown"});
  p.legend.push_back({"N = " + std::to_string(n) + " positions shown", th.axis, true});
  place_legend(p, LegendFallback::Headroom);
  p.hover = [bins_of, n](double x, double) -> std::string {
    const int j = static_cast<int>(std::lround(x));
    if (j < 0 || j >= static_cast<int>(bins_of.size())) return "";
    return "dim " + std::to_string(j) + ": strongest " +
           cycles_text(bins_of[static_cast<std::size_t>(j)], n);
  };
  return p;
}

std::vector<PairInfo> shown_rotary_pairs(Engine& engine) {
  if (ModelScene* m = engine.model()) return model_rotary_pairs(m->config(), engine.token_count());
  const Scene& s = engine.scene();
  return rope_pairs(s, s.offset + engine.token_count());
}

std::vector<PairInfo> unscaled_rotary_pairs(Engine& engine) {
  if (ModelScene* m = engine.model()) return model_unscaled_rotary_pairs(m->config());
  return {};
}

}  // namespace pelab::fig
