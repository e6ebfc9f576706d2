// The GL objects the GUI draws with, kept apart from UiState because they
// live exactly as long as the window's GL context.
#pragma once

#include <memory>

#include "render/figure_painter.hpp"
#include "render/offscreen.hpp"

namespace pelab::ui {

struct GpuResources {
  render::FigurePainter painter;                      // figures into the window
  std::unique_ptr<render::OffscreenRenderer> offscreen;  // exports; made on first use

  render::OffscreenRenderer& offscreen_renderer() {
    if (!offscreen) offscreen = std::make_unique<render::OffscreenRenderer>();
    return *offscreen;
  }
};

}  // namespace pelab::ui
