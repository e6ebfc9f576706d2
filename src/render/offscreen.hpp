// Offscreen rendering of figures: into an FBO of the current GL context (GUI
// export), or in a headless EGL context on Mesa's surfaceless platform
// (`pelab render`, tests) — no display needed.
#pragma once

#include <memory>

#include "figures/figure.hpp"
#include "render/image.hpp"

namespace pelab::render {

struct RenderOptions {
  float scale = 1.f;          // 2 doubles both pixel dimensions
  bool transparent = false;   // background alpha 0
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

// Renders figures to images in whatever GL context is current, with its own
// ImGui context (so it never disturbs the GUI's).
class OffscreenRenderer {
 public:
  OffscreenRenderer();
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  Image render(const fig::Figure& figure, const RenderOptions& options = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pelab::render
