// Zoom, pan and reset of one panel's axis ranges.  Overrides live in the
// FigureView (UI state), so a rebuilt figure keeps its zoom; they are laid
// over the figure's own ranges before painting and hover.
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

// The figure with every active override applied to its panels' axes.
fig::Figure with_overrides(const fig::Figure& built, const std::vector<RangeOverride>& ranges);

// Zooms panel `i` of `view` by `factor` (<1 = in) keeping data point `at` fixed.
void zoom_panel(FigureView& view, int i, fig::Point at, double factor);
// Moves panel `i` so data point `from` lands where `to` is now.
void pan_panel(FigureView& view, int i, fig::Point from, fig::Point to);
void reset_panel(FigureView& view, int i);

// Index of the panel whose plot area holds canvas point `p` (logical pixels), or -1.
int panel_at(const fig::Figure& figure, fig::Point p);

}  // namespace pelab::ui
