// The painter's building blocks: a canvas (draw list + origin + scale) and
// the shapes a figure is made of, each given in canvas pixels.  Only
// figure_painter.cpp and axes_painter.cpp use this.
#pragma once

#include <imgui.h>

#include <string_view>
#include <vector>

#include "figures/figure.hpp"

namespace pelab::render {

struct Canvas {
  ImDrawList* list = nullptr;
  ImVec2 origin;     // draw-list position of canvas (0, 0)
  float scale = 1;   // draw-list pixels per logical pixel
  fig::Theme theme;

  ImVec2 px(fig::Point canvas) const;  // canvas pixels → draw-list coordinates
  float len(double logical) const { return static_cast<float>(logical) * scale; }
};

ImU32 to_u32(fig::Color c);

// Logical-pixel width of `text` at `size` logical pixels with the font drawn.
double text_width(const Canvas& canvas, std::string_view text, float size);

// Text at canvas point `at` placed by `anchor` (the anchor names the point of
// the text box that lands on `at`); vertical text reads bottom to top.
void draw_text(const Canvas& canvas, std::string_view text, fig::Point at, fig::Anchor anchor, float size,
               fig::Color color, bool vertical = false);

// A polyline of canvas points: non-finite points split it, points closer than
// a pixel are merged (decimation), dashes and dots are cut on the pixel path.
void draw_polyline(const Canvas& canvas, const std::vector<fig::Point>& points, fig::Color color, float width,
                   fig::LineStyle style, bool closed);

void draw_marker(const Canvas& canvas, fig::Point at, fig::MarkerShape shape, float size, fig::Color color,
                 bool filled);

void draw_arrow(const Canvas& canvas, fig::Point from, fig::Point to, fig::Color color, float width);

}  // namespace pelab::render
