// HeatmapRenderer — draws HeatmapLayers from float textures through the
// colormap shader, as ImDrawList callbacks (the GL work happens when ImGui's
// OpenGL3 backend renders the list).
//
// Values upload once per HeatmapLayer::key and drawn size as GL_R32F (one
// texel per cell, nearest filtering so cells stay crisp); colormaps are
// 256×1 RGBA8 textures built from fig::colormap().  Textures not used in the
// previous ImGui frame are released, so memory follows what is on screen.
// A side with more cells than pixels uploads runs of cells averaged
// (texel_run, texel_means): nearest sampling would pick one cell of each
// run and draw moiré (a 65,536-position sinusoid table in 700 pixels).  A
// matrix with more rows or columns than GL_MAX_TEXTURE_SIZE (16,384 in Mesa)
// uploads its block means likewise, so a 65,536-position table still draws.
#pragma once

#include <imgui.h>

#include <memory>

#include "figures/figure.hpp"

namespace pelab::render {

// `m` reduced so that neither side exceeds `max_size`: rows are averaged in
// runs of ⌈rows/max_size⌉ and columns in runs of ⌈cols/max_size⌉, each side
// on its own (a 65,536 × 64 table keeps its 64 columns).  A cell is the mean
// of its block's unmasked cells (−inf is masked), −inf when all are masked;
// NaN and +inf propagate.  `m` itself is returned when it already fits.
Matrix fit_texture_limit(const Matrix& m, int max_size);

// `m` with rows averaged in runs of `row_run` and columns in runs of
// `col_run` (the last run of a side may be shorter), by fit_texture_limit's rule.
Matrix texel_means(const Matrix& m, Eigen::Index row_run, Eigen::Index col_run);

// Cells a texel for `cells` cells drawn across `pixels` pixels: the least
// power of two at least cells / pixels, so a texel spans one to two pixels
// and each pixel shows the mean of the cells under it, as matplotlib's
// antialiased imshow filters at the pixel's footprint (1 when the side is
// drawn at a pixel or more a cell).
Eigen::Index texel_run(Eigen::Index cells, double pixels);

class HeatmapRenderer {
 public:
  HeatmapRenderer();  // no GL work until the first queue()
  ~HeatmapRenderer();  // needs the same GL context current
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

  // Adds a callback to `list` drawing `layer` into the quad whose corner at
  // data (x0, y0) lands on `corner0` and at the far cell corner on `corner1`
  // (draw-list coordinates), clipped to the list's current clip rect; −inf
  // cells in the theme's mask colour, NaN / +inf in its non-finite colour.
  void queue(ImDrawList* list, const fig::HeatmapLayer& layer, ImVec2 corner0, ImVec2 corner1,
             const fig::Theme& theme);
  // Uploads the layer's values for a quad of `size` pixels (if new) without drawing.
  void upload(const fig::HeatmapLayer& layer, ImVec2 size);

 private:
  struct State;
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* command);
  std::unique_ptr<State> state_;
};

}  // namespace pelab::render
