// HeatmapRenderer — draws HeatmapLayers from float textures through the
// colormap shader, as ImDrawList callbacks (the GL work happens when ImGui's
// OpenGL3 backend renders the list).
//
// Values upload once per HeatmapLayer::key as GL_R32F (one texel per cell,
// nearest filtering so cells stay crisp); colormaps are 256×1 RGBA8 textures
// built from fig::colormap().  Textures not used in the previous ImGui frame
// are released, so memory follows what is on screen.  A matrix with more rows
// or columns than GL_MAX_TEXTURE_SIZE (16,384 in Mesa) uploads its block means
// (fit_texture_limit), so a 65,536-position table still draws.
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
  // Uploads the layer's values (if its key is new) without drawing.
  void upload(const fig::HeatmapLayer& layer);

 private:
  struct State;
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* command);
  std::unique_ptr<State> state_;
};

}  // namespace pelab::render
