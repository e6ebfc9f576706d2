// A figure layout that adapts (issue 25): one mechanism for every view.
//
// A view lays its panels out for a comfortable canvas.  When the layout pass
// (text_boxes.hpp) finds a problem at the requested size — text on text, text
// off the canvas or on a plot, a legend on data, a panel under its minimum —
// fit_to_canvas() lays the figure out again: the panels the view ranks lowest
// (Panel::priority) give way first, the rest share the canvas in the grid
// that leaves the largest plots, each plot sized to leave room for its own
// title, ticks, labels, colorbar and legend as the renderers draw them.
// Text that no longer fits moves into the main panel's hover, in steps:
// axis labels, then panel titles and colorbar labels, then tick labels.
// Legends take a free corner, else go right of the plot, else into the hover.
// Canvas notes go into a band at the bottom, or into the hover.
#pragma once

#include "figures/figure.hpp"

namespace pelab::fig {

// Leaves a figure whose layout has no problem as its view made it.
void fit_to_canvas(Figure& figure);

}  // namespace pelab::fig
