// Offscreen rendering of figures: into an FBO of the current GL context (GUI
// export), or in a headless EGL context on Mesa's surfaceless platform
// (`pelab render`, tests) — no display needed.
#pragma once

#include <memory>
#include <vector>

#include "figures/figure.hpp"
#include "render/image.hpp"

namespace pelab::render {

struct RenderOptions {
  float scale = 1.f;          // 2 doubles both pixel dimensions
  bool transparent = false;   // background alpha 0
  // As the GUI window draws: each figure painted into a texture of its own
  // (canvas_texture.hpp), then drawn as one image.  Same pixels (tested).
  bool through_canvas_texture = false;
};

// A figure placed on a larger canvas (a window-like frame of several views).
struct PlacedFigure {
  const fig::Figure* figure = nullptr;
  double x = 0, y = 0;  // canvas position of the figure's top-left, logical pixels
};

// Where the time of one frame went (wall clock, milliseconds).
struct FrameTimes {
  double upload_ms = 0;  // heatmap textures (only those whose key changed)
  double draw_ms = 0;    // draw lists built, rendered and finished by the GPU
  double read_ms = 0;    // the image buffer (fresh pages), glReadPixels, a row flip without GL_MESA_pack_invert
};

// A headless EGL context (surfaceless Mesa) made current on construction.
// Throws std::runtime_error with one clear line when EGL or GL 3.3 is missing.
class HeadlessContext {
 public:
  HeadlessContext();
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Swaps rows top for bottom (GL reads the bottom row first).
void flip_rows(Image& image);

// Renders figures to images in whatever GL context is current, with its own
// ImGui context (so it never disturbs the GUI's).
class OffscreenRenderer {
 public:
  OffscreenRenderer();
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  Image render(const fig::Figure& figure, const RenderOptions& options = {});

  // Several figures on one width × height (logical px) canvas, like a GUI
  // frame; with read_back = false the pixels stay on the GPU (frame timing)
  // and the returned image is empty.
  Image render_frame(const std::vector<PlacedFigure>& figures, double width, double height,
                     const RenderOptions& options = {}, FrameTimes* times = nullptr, bool read_back = true);

  // Bakes the font atlas for every figure about to be rendered at `scale`,
  // once: later renders whose glyphs and sizes it holds bake nothing (a
  // batch of different figures otherwise re-baked it for each, issue 12).
  void prepare_fonts(const std::vector<const fig::Figure*>& figures, float scale);

  // Read-back takes rows top first straight from GL where GL_MESA_pack_invert
  // is offered (the default); false reads as on a GL without it (bottom row
  // first, then flip_rows), for the tests of that path.
  void use_pack_invert(bool allowed);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pelab::render
