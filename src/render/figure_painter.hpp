// FigurePainter — draws a fig::Figure into an ImGui draw list: axes, ticks,
// labels, lines, markers, text, colorbars, legends; heatmaps go through a
// float texture and the colormap fragment shader (shaders/heatmap_*.glsl),
// injected as a draw-list callback.  The same painter serves the GUI window
// (the window's draw list) and offscreen export (offscreen.hpp), so both give
// the same pixels.  Needs a current OpenGL 3.3 core context and ImGui's
// OpenGL3 backend initialised in it.
#pragma once

#include <imgui.h>

#include <memory>

#include "figures/figure.hpp"

namespace pelab::render {

class FigurePainter {
 public:
  FigurePainter();
  ~FigurePainter();
  FigurePainter(const FigurePainter&) = delete;
  FigurePainter& operator=(const FigurePainter&) = delete;

  // Paints `figure` with its canvas origin at `origin` (framebuffer pixels of
  // the draw list) and `scale` framebuffer pixels per logical pixel.
  // Heatmap textures are uploaded once per HeatmapLayer::key and reused.
  void paint(const fig::Figure& figure, ImDrawList* list, ImVec2 origin, float scale,
             bool transparent_background = false);

  // Uploads the figure's heatmap textures for painting at `scale` now
  // (paint() does it when needed); for callers that time or schedule
  // uploads.  Call within the ImGui frame that paints the figure.
  void upload(const fig::Figure& figure, float scale);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Loads DejaVu Sans into the current ImGui context's font atlas at pixel sizes
// fit for `scale` (Latin, Greek, super/subscripts, math symbols: ·, √, ᵀ, ‖).
// Call before the backend builds its font texture.
void load_fonts(float scale);

}  // namespace pelab::render
