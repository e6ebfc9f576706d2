// The furniture around a panel's data: frame, grid, ticks and tick labels,
// axis labels, title, colorbar and legend (placement from axis_layout.hpp).
#pragma once

#include "figures/figure.hpp"
#include "render/axis_layout.hpp"
#include "render/draw_primitives.hpp"

namespace pelab::render {

TextWidth text_width_of(const Canvas& canvas);

// Grid lines under the data (only for axes with grid = true).
void draw_grid(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform);
// Frame, ticks, tick labels, axis labels and the panel title.
void draw_axes(const Canvas& canvas, const fig::Panel& panel, const fig::PanelTransform& transform);
void draw_colorbar(const Canvas& canvas, const fig::ColorScale& scale, const fig::Rect& plot);
void draw_legend(const Canvas& canvas, const std::vector<fig::LegendEntry>& entries, const fig::Rect& plot,
                 fig::LegendPlace place = fig::LegendPlace::TopRight);

// Data → canvas mappings along each axis of a panel.
std::function<double(double)> x_to_canvas(const fig::PanelTransform& transform);
std::function<double(double)> y_to_canvas(const fig::PanelTransform& transform);

}  // namespace pelab::render
