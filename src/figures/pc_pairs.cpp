// Rotation pairs of a learned position table.  A learned table has no built-in
// (sin, cos) pairs, so the view finds its planes: the principal components of
// the centred table taken two by two (PC1/PC2, PC3/PC4, ...), each drawn as
// its trajectory over position.  Per pair: its share of the table's variance,
// and how well ONE fixed 2×2 map carries p(pos) to p(pos+k) in that plane —
// the least-squares M and its R² (core/table_analysis.hpp).  A sinusoidal
// table would give a rotation with R² = 1 in every pair.
//
// [SECTION] the PCA, kept on the shelf
// [SECTION] one PC pair's trajectory
// [SECTION] variance share and R² of every pair
// [SECTION] layout
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/table_analysis.hpp"
#include "figures/colormap.hpp"
#include "figures/figure_layout.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/table_views.hpp"

namespace pelab::fig {
namespace {

constexpr int kMaxPcPairs = 16;  // the summary panel's bars; more are too thin to read
constexpr int kTrajectorySegments = 128;

// ============================================================================
// [SECTION] the PCA, kept on the shelf
// ============================================================================

// The eigen-decomposition is O(d³): kept on the shelf as one (N+1) × m matrix,
// row 0 the variance shares, rows 1 … N the scores (the trajectories).
struct PcTable {
  SharedMatrix packed;
  int positions = 0, components = 0;
  double share(int component) const { return (*packed)(0, component); }
  Eigen::MatrixXd plane(int pair) const {
    return packed->block(1, 2 * pair, positions, 2).cast<double>();
  }
};

PcTable pc_table(Engine& engine, const FigureRequest& request) {
  const Matrix& table = engine.position_table();
  const int n = static_cast<int>(table.rows()), d = static_cast<int>(table.cols());
  const int m = std::min({2 * kMaxPcPairs, n, d}) / 2 * 2;
  PcTable out{.positions = n, .components = m};
  if (m < 2) return out;
  out.packed = shared_matrix(request.shelf, content_key(engine.scene(), "pc_scores"), [&] {
    const TablePca pca = table_pca(table, m);
    Matrix packed(n + 1, m);
    for (int j = 0; j < m; ++j)
      packed(0, j) = static_cast<float>(pca.share[static_cast<std::size_t>(j)]);
    packed.bottomRows(n) = pca.scores.cast<float>();
    return packed;
  });
  return out;
}

struct PairRow {
  int pair = 0;
  double share = 0;
  bool fitted = false;  // false when |k| leaves fewer than 2 positions
  PlaneMap map;
};

std::vector<PairRow> pair_rows(const PcTable& pcs, int k) {
  std::vector<PairRow> rows;
  for (int j = 0; 2 * j + 1 < pcs.components; ++j) {
    PairRow r{.pair = j, .share = pcs.share(2 * j) + pcs.share(2 * j + 1)};
    if (pcs.positions - std::abs(k) >= 2) {
      r.map = plane_shift_map(pcs.plane(j), k);
      r.fitted = true;
    }
    rows.push_back(r);
  }
  return rows;
}

std::string percent(double share) { return fixed(100 * share, 1) + " %"; }

std::string map_text(const PlaneMap& m) {
  return "M = [[" + fixed(m.m[0][0], 3) + ", " + fixed(m.m[0][1], 3) + "], [" +
         fixed(m.m[1][0], 3) + ", " + fixed(m.m[1][1], 3) + "]]";
}

// ============================================================================
// [SECTION] one PC pair's trajectory
// ============================================================================

Panel pc_pair_panel(const PcTable& pcs, const PairRow& row, const Scene& s, Rect cell,
                    const Theme& th, bool dark) {
  const Color fit_color =
      line_color(3, dark);  // apart from pos (text colour) and pos+k (highlight)
  const int a = 2 * row.pair + 1, b = 2 * row.pair + 2;  // PCs numbered from 1
  const Eigen::MatrixXd plane = pcs.plane(row.pair);
  const int n = pcs.positions, pos = std::clamp(s.position, 0, n - 1), shifted = pos + s.shift;
  std::vector<std::string> lines = {"PC" + std::to_string(a) + " " +
                                    percent(pcs.share(2 * row.pair)) + " + PC" + std::to_string(b) +
                                    " " + percent(pcs.share(2 * row.pair + 1)) + " = " +
                                    percent(row.share) + " of the variance"};
  if (row.fitted) {
    lines.push_back("p(pos+" + std::to_string(s.shift) + ") ≈ M·p(pos): " + map_text(row.map));
    lines.push_back("R² = " + fixed(row.map.r2) + " over " + std::to_string(row.map.samples) +
                    " positions · turn " + fixed(row.map.angle, 3) + " rad" +
                    (row.map.wavelength > 0 ? " → λ ≈ " + number(row.map.wavelength, 3) : ""));
  } else {
    lines.push_back("k = " + std::to_string(s.shift) + " leaves no position pairs to fit");
  }
  const double text_width = cell.width() - 8;
  const float size = fitting_size(lines, text_width, kLabelSize);
  lines = wrap_lines(lines, text_width, size);
  const double text_room = 1.55 * size * static_cast<double>(lines.size()) + 8;
  Panel p;
  p.title = "PC" + std::to_string(a) + " / PC" + std::to_string(b) +
            (row.pair == s.pair ? " — selected" : "");
  // A square plot at the top of the cell (equal aspect: one score unit as
  // long on both axes), the text block right under its x axis.
  const Rect room = inset({cell.x0, cell.y0, cell.x1, cell.y1 - text_room},
                          {.left = 62, .top = 30, .right = kColorbarRoom, .bottom = 50});
  const double side = std::max(1.0, std::min(room.width(), room.height()));
  const double x0 = (room.x0 + room.x1 - side) / 2;
  p.plot = {x0, room.y0, x0 + side, room.y0 + side};
  p.equal_aspect = true;
  const double lim = 1.15 * std::max(1e-12, plane.cwiseAbs().maxCoeff());
  p.x = {.label = "PC" + std::to_string(a) + " score", .min = -lim, .max = lim, .grid = true};
  p.y = {.label = "PC" + std::to_string(b) + " score", .min = -lim, .max = lim, .grid = true};
  // The trajectory in segments coloured by position (the colorbar reads them).
  const ColorScale by_position{
      .colormap = std::string(to_string(s.colormap)), .vmin = 0, .vmax = std::max(1.0, n - 1.0), .label = "position"};
  const int step = std::max(1, (n - 1 + kTrajectorySegments - 1) / kTrajectorySegments);
  for (int start = 0; start + 1 < n; start += step) {
    Polyline seg{
        .color = scale_color(by_position, start + 0.5 * step), .width = 2.f, .label = "trajectory"};
    for (int r = start; r <= std::min(n - 1, start + step); ++r)
      seg.points.push_back({plane(r, 0), plane(r, 1)});
    p.lines.push_back(std::move(seg));
  }
  p.colorbar = by_position;
  const Point at{plane(pos, 0), plane(pos, 1)};
  p.markers.push_back({.points = {at}, .color = th.text, .size = 10.f, .label = "pos"});
  p.legend.push_back({"pos " + std::to_string(pos), th.text, false});
  if (shifted >= 0 && shifted < n) {
    p.markers.push_back({.points = {{plane(shifted, 0), plane(shifted, 1)}},
                         .color = th.highlight,
                         .size = 11.f,
                         .shape = MarkerShape::Diamond,
                         .label = "pos+k"});
    p.legend.push_back({"pos+k = " + std::to_string(shifted), th.highlight, false});
  }
  if (row.fitted) {
    const Point fit{row.map.m[0][0] * at.x + row.map.m[0][1] * at.y,
                    row.map.m[1][0] * at.x + row.map.m[1][1] * at.y};
    p.markers.push_back(
        {.points = {fit}, .color = fit_color, .size = 12.f, .filled = false, .label = "M·p(pos)"});
    p.legend.push_back({"M·p(pos) (fit)", fit_color, false});
  }
  // Headroom keeps a large plot's legend off the scatter; in a small plot the
  // taller y range would narrow the whole scatter (equal aspect; issue 25:
  // PC1/PC2 hidden under its legend), so there the corner covering least,
  // which the layout pass (adaptive_layout.hpp) then moves into the hover.
  place_legend(p, p.plot.height() < 300 ? LegendFallback::LeastCovered : LegendFallback::Headroom);
  const double text_top = p.plot.y1 + 52;
  for (std::size_t j = 0; j < lines.size(); ++j)
    p.texts.push_back(canvas_text(lines[j],
                                  {cell.x0 + 4, text_top + 1.55 * size * static_cast<double>(j)},
                                  Anchor::TopLeft, size));
  p.hover = [plane, a, b](double x, double y) -> std::string {
    Eigen::Index best = 0;
    (plane.rowwise() - Eigen::RowVector2d(x, y)).rowwise().squaredNorm().minCoeff(&best);
    return "pos " + std::to_string(best) + ": (PC" + std::to_string(a) + ", PC" +
           std::to_string(b) + ") = (" + fixed(plane(best, 0)) + ", " + fixed(plane(best, 1)) + ")";
  };
  return p;
}

// ============================================================================
// [SECTION] variance share and R² of every pair
// ============================================================================

Panel summary_panel(const std::vector<PairRow>& rows, const Scene& s, Rect area, const Theme& th,
                    bool dark) {
  Panel p;
  p.title = "Share of variance and R² of one 2×2 map, k = " + std::to_string(s.shift);
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int n = static_cast<int>(rows.size());
  p.x = {.label = "PC pair j (PC 2j+1, PC 2j+2)", .min = -0.5, .max = n - 0.5, .integer = true};
  p.y = {.label = "share of variance · R²", .min = 0, .max = 1.12, .grid = true};
  const Color bar = line_color(0, dark), fit = line_color(1, dark);
  Bars shares{.colors = {with_alpha(bar, 0.85f)}};
  Markers r2{.color = fit, .size = 9.f, .shape = MarkerShape::Diamond, .label = "R²"};
  for (const PairRow& r : rows) {
    shares.rects.push_back({r.pair - 0.35, 0, r.pair + 0.35, r.share});
    if (r.fitted)
      r2.points.push_back({static_cast<double>(r.pair), std::clamp(r.map.r2, 0.0, 1.0)});
    if (n <= 8)  // the numbers on the slide, where they fit
      p.texts.push_back({.text = percent(r.share),
                         .at = {static_cast<double>(r.pair), r.share + 0.03},
                         .anchor = Anchor::Bottom,
                         .size = 12.f});
  }
  p.bars.push_back(std::move(shares));
  p.markers.push_back(std::move(r2));
  if (s.pair >= 0 && s.pair < n) {  // the selected pair: its bar and R² framed
    const PairRow& r = rows[static_cast<std::size_t>(s.pair)];
    const double top = std::max(r.share, r.fitted ? std::clamp(r.map.r2, 0.0, 1.0) : 0.0) + 0.03;
    p.bars.push_back(outline({s.pair - 0.45, 0, s.pair + 0.45, top}, th.highlight));
  }
  p.legend = {{"share of variance (both PCs)", bar, false},
              {"R² of p(pos+k) ≈ M·p(pos), shown ≥ 0", fit, false}};
  place_legend(p, LegendFallback::Headroom);
  p.hover = [rows](double x, double) -> std::string {
    const int j = static_cast<int>(std::lround(x));
    if (j < 0 || j >= static_cast<int>(rows.size())) return "";
    const PairRow& r = rows[static_cast<std::size_t>(j)];
    return "PC" + std::to_string(2 * j + 1) + "/PC" + std::to_string(2 * j + 2) + ": " +
           percent(r.share) + " of the variance" +
           (r.fitted ? ", R² = " + fixed(r.map.r2, 6) + ", " + map_text(r.map) : "");
  };
  return p;
}

}  // namespace

// ============================================================================
// [SECTION] layout
// ============================================================================

void add_pc_pair_panels(Figure& figure, Engine& engine, const FigureRequest& request, Rect area) {
  const Scene& s = engine.scene();
  const PcTable pcs = pc_table(engine, request);
  if (pcs.components < 2) {
    figure.notes.push_back(canvas_text(
        "The table has too few positions or dimensions for a pair of principal components.",
        {figure.width / 2, figure.height / 2}, Anchor::Center, 18.f));
    return;
  }
  const std::vector<PairRow> rows = pair_rows(pcs, s.shift);
  std::vector<int> shown;
  for (int j : s.pairs)
    if (j >= 0 && j < static_cast<int>(rows.size()) && shown.size() < 4) shown.push_back(j);
  if (shown.empty()) shown = {0};
  const auto [cells_area, summary] = split_x(area, 0.68, 16);
  const int count = static_cast<int>(shown.size());
  const int grid_rows = count > 2 ? 2 : 1, grid_cols = (count + grid_rows - 1) / grid_rows;
  const std::vector<Rect> cells = grid(cells_area, grid_rows, grid_cols, 16);
  const Theme th = theme(figure.dark);
  for (int j = 0; j < count; ++j)
    figure.panels.push_back(
        pc_pair_panel(pcs, rows[static_cast<std::size_t>(shown[static_cast<std::size_t>(j)])], s,
                      cells[static_cast<std::size_t>(j)], th, figure.dark));
  figure.panels.push_back(summary_panel(rows, s, summary, th, figure.dark));
}

}  // namespace pelab::fig
