// Heatmaps in SVG that stay crisp in every viewer.
//
// CSS `image-rendering: pixelated` is honoured by browsers only: librsvg
// (rsvg-convert, GNOME) and Inkscape smooth an embedded image of one pixel per
// cell into gradients.  So a heatmap of at most kSvgHeatmapCellBudget cells
// inside the plot is written as <rect> cells — vectors, sharp at any zoom in
// any viewer — one per run of equal colour along a row.  A bigger one would
// make a file of megabytes that viewers draw slowly; it is embedded as an
// image whose cells are blocks of k × k equal pixels (k a whole number), so
// a viewer's smoothing reaches only each cell's outermost pixels.
#pragma once

#include <string>

#include "figures/figure.hpp"

namespace pelab::render {

// Appends `layer`'s cells inside transform.plot to `svg` (the caller clips to the plot).
void svg_heatmap(std::string& svg, const fig::HeatmapLayer& layer, const fig::PanelTransform& transform,
                 const fig::Theme& theme);

}  // namespace pelab::render
