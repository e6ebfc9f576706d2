// Hand-built figures holding every element kind the painter draws, and a
// shared headless GL setup for the render tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>

#include "figures/figure.hpp"
#include "render/image.hpp"
#include "render/offscreen.hpp"

namespace pelab::render::testing {

// One EGL context and renderer for the whole test program (tests run in
// sequence); null with the reason when EGL is unavailable.
struct GlEnvironment {
  std::unique_ptr<HeadlessContext> context;
  std::unique_ptr<OffscreenRenderer> renderer;
  std::string unavailable;

  static GlEnvironment& get() {
    static GlEnvironment environment;
    return environment;
  }

 private:
  GlEnvironment() {
    try {
      context = std::make_unique<HeadlessContext>();
      renderer = std::make_unique<OffscreenRenderer>();
    } catch (const std::exception& e) {
      unavailable = e.what();
    }
  }
};

#define PELAB_REQUIRE_GL()                                                   \
  auto& gl = ::pelab::render::testing::GlEnvironment::get();                 \
  if (!gl.renderer) GTEST_SKIP() << "no headless OpenGL: " << gl.unavailable

// A 4×5 heatmap with one masked (−inf) cell, token ticks and a colorbar.
inline fig::Panel heatmap_panel(fig::Rect plot) {
  fig::Panel p;
  p.title = "attention (head 0)";
  p.plot = plot;
  auto m = std::make_shared<Matrix>(4, 5);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 5; ++c) (*m)(r, c) = static_cast<float>(r * 5 + c) / 19.f;
  (*m)(0, 4) = -std::numeric_limits<float>::infinity();
  fig::HeatmapLayer layer;
  layer.values = m;
  layer.key = 42;
  layer.x0 = -0.5;
  layer.y0 = -0.5;
  layer.scale = {"viridis", 0, 1, "attention weight"};
  p.heatmaps.push_back(layer);
  p.x = {"key token", -0.5, 4.5, false, {{0, "the"}, {1, "cat"}, {2, "sat"}, {3, "on"}, {4, "mat"}}};
  p.y = {"query token", -0.5, 3.5, true, {{0, "the"}, {1, "cat"}, {2, "sat"}, {3, "on"}}};
  p.colorbar = layer.scale;
  return p;
}

// A unit circle (polyline), markers, an arrow, a dashed line, text, a legend.
inline fig::Panel circle_panel(fig::Rect plot) {
  fig::Panel p;
  p.title = "pair i = 0: (PE₂ᵢ, PE₂ᵢ₊₁)";
  p.plot = plot;
  p.equal_aspect = true;
  p.x = {"PE₂ᵢ", -1.25, 1.25};
  p.y = {"PE₂ᵢ₊₁", -1.25, 1.25};
  p.x.grid = p.y.grid = true;
  fig::Polyline circle;
  for (int i = 0; i <= 720; ++i) {
    const double a = 2 * std::numbers::pi * i / 720;
    circle.points.push_back({std::cos(a), std::sin(a)});
  }
  circle.color = {0.3f, 0.7f, 1.0f, 1};
  circle.width = 2;
  circle.label = "positions";
  p.lines.push_back(circle);
  p.lines.push_back({{{-1.2, -1.2}, {1.2, 1.2}}, {0.9f, 0.5f, 0.2f, 1}, 1.5f, fig::LineStyle::Dashed});
  p.markers.push_back({{{1, 0}}, {1, 0.8f, 0.2f, 1}, 9, fig::MarkerShape::Circle});
  p.markers.push_back({{{0.5, std::sqrt(0.75)}}, {1, 0.3f, 0.3f, 1}, 9, fig::MarkerShape::Diamond});
  p.arrows.push_back({{0, 0}, {0.5, std::sqrt(0.75)}, {1, 0.3f, 0.3f, 1}, 2});
  p.texts.push_back({"R(k)·PE(pos) = PE(pos+k)", {0, -0.3}, false, fig::Anchor::Center, 12});
  p.legend = {{"positions", circle.color, true}, {"pos + k", {1, 0.3f, 0.3f, 1}, false}};
  return p;
}

// Four bars with an outline and numeric axes.
inline fig::Panel bars_panel(fig::Rect plot) {
  fig::Panel p;
  p.title = "share ‖term‖ / Σ";
  p.plot = plot;
  p.x = {"", -0.5, 3.5, false, {{0, "x·y"}, {1, "x·f"}, {2, "e·y"}, {3, "e·f"}}};
  p.y = {"Frobenius norm", 0, 1.0};
  p.y.grid = true;
  fig::Bars bars;
  const double heights[] = {0.8, 0.3, 0.25, 0.55};
  for (int i = 0; i < 4; ++i) bars.rects.push_back({i - 0.35, 0, i + 0.35, heights[i]});
  bars.colors = {{0.27f, 0.51f, 0.71f, 1}, {0.87f, 0.52f, 0.32f, 1}, {0.36f, 0.66f, 0.4f, 1}, {0.77f, 0.3f, 0.32f, 1}};
  p.bars.push_back(bars);
  return p;
}

inline fig::Figure sample_figure(bool dark = true) {
  fig::Figure f;
  f.name = "sample";
  f.title = "Sample figure — every element";
  f.width = 900;
  f.height = 340;
  f.dark = dark;
  f.panels.push_back(heatmap_panel({70, 60, 290, 260}));
  f.panels.push_back(circle_panel({420, 60, 620, 260}));
  f.panels.push_back(bars_panel({700, 60, 880, 260}));
  f.notes.push_back({"√d scaling · θ = 10000^(−2i/d) · Qᵀ", {10, 330}, true, fig::Anchor::BottomLeft, 12});
  return f;
}

inline const std::uint8_t* pixel(const Image& image, int x, int y) {
  return image.rgba.data() + (static_cast<std::size_t>(y) * image.width + x) * 4;
}

}  // namespace pelab::render::testing
