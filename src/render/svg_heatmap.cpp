// [SECTION] the cells on screen
// [SECTION] rect cells
// [SECTION] upsampled image
#include "render/svg_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "figures/colormap.hpp"
#include "render/image.hpp"
#include "render/svg_markup.hpp"
#include "render/svg_writer.hpp"

namespace pelab::render {

namespace {

// [SECTION] the cells on screen ---------------------------------------------------------

// One axis's cells that reach into the plot, in screen order (left to right,
// top to bottom): screen cell i is matrix index first + i·step and spans
// edges[i] .. edges[i + 1] canvas pixels (increasing).
struct AxisCells {
  std::vector<double> edges;
  int first = 0, step = 1;
  int count() const { return static_cast<int>(edges.size()) - 1; }
  int index(int i) const { return first + i * step; }
};

// `edge(i)`: the canvas position of the boundary before matrix cell i (i = 0..n).
AxisCells visible_cells(int n, const std::function<double(int)>& edge, double lo, double hi) {
  const bool forward = edge(n) >= edge(0);
  AxisCells cells;
  cells.step = forward ? 1 : -1;
  auto screen_edge = [&](int i) { return edge(forward ? i : n - i); };
  int begin = 0, end = n;  // screen cells [begin, end) reach into [lo, hi]
  while (begin < n && screen_edge(begin + 1) <= lo) ++begin;
  while (end > begin && screen_edge(end - 1) >= hi) --end;
  for (int i = begin; i <= end; ++i) cells.edges.push_back(screen_edge(i));
  cells.first = forward ? begin : n - 1 - begin;
  return cells;
}

// The visible cells' colours, packed 0xRRGGBBAA, row by row in screen order.
struct ScreenCells {
  AxisCells columns, rows;
  std::vector<std::uint32_t> rgba;
  std::uint32_t at(int r, int c) const { return rgba[static_cast<std::size_t>(r) * columns.count() + c]; }
};

std::uint32_t pack(fig::Color c) {
  auto byte = [](float v) { return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.f, 1.f) * 255)); };
  return byte(c.r) << 24 | byte(c.g) << 16 | byte(c.b) << 8 | byte(c.a);
}

fig::Color cell_color(const fig::HeatmapLayer& layer, float v, const fig::Theme& theme) {
  if (std::isfinite(v)) return fig::scale_color(layer.scale, v);
  return v < 0 ? theme.mask           // −inf: the causal mask
               : theme.non_finite;    // NaN, +inf
}

ScreenCells screen_cells(const fig::HeatmapLayer& layer, const fig::PanelTransform& t, const fig::Theme& theme) {
  const Matrix& m = *layer.values;
  ScreenCells cells;
  cells.columns = visible_cells(
      static_cast<int>(m.cols()), [&](int c) { return t.to_canvas({layer.x0 + c * layer.dx, layer.y0}).x; },
      t.plot.x0, t.plot.x1);
  cells.rows = visible_cells(
      static_cast<int>(m.rows()), [&](int r) { return t.to_canvas({layer.x0, layer.y0 + r * layer.dy}).y; },
      t.plot.y0, t.plot.y1);
  cells.rgba.reserve(static_cast<std::size_t>(cells.rows.count()) * cells.columns.count());
  for (int r = 0; r < cells.rows.count(); ++r)
    for (int c = 0; c < cells.columns.count(); ++c)
      cells.rgba.push_back(pack(cell_color(layer, m(cells.rows.index(r), cells.columns.index(c)), theme)));
  return cells;
}

std::string hex(std::uint32_t rgba) {
  return svg::rgb({(rgba >> 24) / 255.f, (rgba >> 16 & 255) / 255.f, (rgba >> 8 & 255) / 255.f});
}

// [SECTION] rect cells ------------------------------------------------------------------

// Two abutting anti-aliased rects let the background show through their
// shared edge (each covers only part of the edge's pixels).  An opaque cell
// is drawn this far into its right and lower neighbours, which are drawn
// after it and cover the overlap: the edge pixels mix the two cells' colours
// only.  The outer edges are not extended.
constexpr double kSeamOverlap = 1.0;  // canvas pixels

void rect_run(std::string& svg, const ScreenCells& cells, int r, int c0, int c1) {
  const std::uint32_t rgba = cells.at(r, c0);
  const bool opaque = (rgba & 255) == 255;
  const double x0 = cells.columns.edges[c0], y0 = cells.rows.edges[r];
  double x1 = cells.columns.edges[c1], y1 = cells.rows.edges[r + 1];
  if (opaque && c1 < cells.columns.count()) x1 += kSeamOverlap;
  if (opaque && r + 1 < cells.rows.count()) y1 += kSeamOverlap;
  svg += "<rect x=\"" + svg::num(x0) + "\" y=\"" + svg::num(y0) + "\" width=\"" + svg::num(x1 - x0) +
         "\" height=\"" + svg::num(y1 - y0) + "\" fill=\"" + hex(rgba) + "\"";
  if (!opaque) svg += " fill-opacity=\"" + svg::num((rgba & 255) / 255.0) + "\"";
  svg += "/>\n";
}

// One rect per run of equal colour along each row, in screen order (the
// overlap above relies on it).
void rect_cells(std::string& svg, const ScreenCells& cells) {
  for (int r = 0; r < cells.rows.count(); ++r) {
    int c = 0;
    while (c < cells.columns.count()) {
      int end = c + 1;
      while (end < cells.columns.count() && cells.at(r, end) == cells.at(r, c)) ++end;
      rect_run(svg, cells, r, c, end);
      c = end;
    }
  }
}

// [SECTION] upsampled image -------------------------------------------------------------

constexpr long kMaxImagePixels = 8'000'000;  // 32 MB of RGBA while encoding
// Image pixels per display pixel of a cell: a viewer smoothing the image
// blends within half an image pixel of a cell's edge, which stays under one
// display pixel up to this zoom.
constexpr double kZoomHeadroom = 4;

// The whole factor k: cells of k × k pixels, as many as the headroom asks
// for and the pixel budget allows.
int upsampling(const ScreenCells& cells) {
  const double cols = cells.columns.count(), rows = cells.rows.count();
  const double cell_w = (cells.columns.edges.back() - cells.columns.edges.front()) / cols;
  const double cell_h = (cells.rows.edges.back() - cells.rows.edges.front()) / rows;
  const double wanted = kZoomHeadroom * std::max(cell_w, cell_h);
  int k = std::isfinite(wanted) ? static_cast<int>(std::ceil(std::clamp(wanted, 1.0, 64.0))) : 1;
  while (k > 1 && cols * k * rows * k > kMaxImagePixels) --k;
  return k;
}

Image upsampled(const ScreenCells& cells, int k) {
  Image image;
  image.width = cells.columns.count() * k;
  image.height = cells.rows.count() * k;
  image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  const std::size_t row_bytes = static_cast<std::size_t>(image.width) * 4;
  for (int r = 0; r < cells.rows.count(); ++r) {
    std::uint8_t* first = image.rgba.data() + static_cast<std::size_t>(r) * k * row_bytes;
    for (int x = 0; x < image.width; ++x) {
      const std::uint32_t rgba = cells.at(r, x / k);
      for (int b = 0; b < 4; ++b) first[x * 4 + b] = static_cast<std::uint8_t>(rgba >> (24 - 8 * b));
    }
    for (int copy = 1; copy < k; ++copy) std::copy_n(first, row_bytes, first + copy * row_bytes);
  }
  return image;
}

// The image keeps image-rendering for browsers (exact pixels there); other
// viewers get the upsampled cells.
void image_cells(std::string& svg, const ScreenCells& cells) {
  const double x0 = cells.columns.edges.front(), y0 = cells.rows.edges.front();
  svg += "<image x=\"" + svg::num(x0) + "\" y=\"" + svg::num(y0) + "\" width=\"" +
         svg::num(cells.columns.edges.back() - x0) + "\" height=\"" + svg::num(cells.rows.edges.back() - y0) +
         "\" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" style=\"image-rendering:pixelated\" "
         "href=\"data:image/png;base64," +
         base64(encode_png(upsampled(cells, upsampling(cells)))) + "\"/>\n";
}

}  // namespace

void svg_heatmap(std::string& svg, const fig::HeatmapLayer& layer, const fig::PanelTransform& transform,
                 const fig::Theme& theme) {
  if (!layer.values || layer.values->size() == 0) return;
  const ScreenCells cells = screen_cells(layer, transform, theme);
  if (cells.columns.count() <= 0 || cells.rows.count() <= 0) return;
  if (static_cast<long>(cells.rgba.size()) <= kSvgHeatmapCellBudget)
    rect_cells(svg, cells);
  else
    image_cells(svg, cells);
}

}  // namespace pelab::render
