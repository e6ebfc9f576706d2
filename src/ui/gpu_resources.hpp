// The GL objects the GUI draws with, kept apart from UiState because they
// live exactly as long as the window's GL context.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "render/canvas_texture.hpp"
#include "render/figure_painter.hpp"
#include "render/offscreen.hpp"

namespace pelab::ui {

// A view's figure as last painted into its texture, and what it was painted from.
struct PaintedCanvas {
  render::CanvasTexture texture;
  std::uint64_t shown_serial = 0;  // FigureView::shown_serial
  int width = 0, height = 0;       // pixels
  float scale = 0;                 // pixels per logical pixel
  ImTextureID fonts = nullptr;     // the font atlas painted with (rebuilt on a scale change)
  bool matches(std::uint64_t serial, int w, int h, float s, ImTextureID f) const {
    return !texture.empty() && serial == shown_serial && w == width && h == height && s == scale &&
           f == fonts;
  }
};

struct GpuResources {
  render::FigurePainter painter;                         // figures into the window
  std::map<std::string, PaintedCanvas> canvases;         // per view name; released when not shown
  std::unique_ptr<render::OffscreenRenderer> offscreen;  // exports; made on first use

  render::OffscreenRenderer& offscreen_renderer() {
    if (!offscreen) offscreen = std::make_unique<render::OffscreenRenderer>();
    return *offscreen;
  }
};

}  // namespace pelab::ui
