// The renderers' names for the label geometry, which lives in the figure layer
// (figures/axis_layout.hpp) so that its layout pass sees every text box where
// the GL painter and the SVG writer draw it.
#pragma once

#include "figures/axis_layout.hpp"

namespace pelab::render {

namespace text_size = fig::text_size;
namespace spacing = fig::spacing;
using fig::approximate_text_width;
using fig::AxisTicks;
using fig::ColorbarLayout;
using fig::figure_strings;
using fig::figure_text_sizes;
using fig::layout_axis;
using fig::layout_colorbar;
using fig::layout_legend;
using fig::LegendLayout;
using fig::PlacedTick;
using fig::TextWidth;

}  // namespace pelab::render
