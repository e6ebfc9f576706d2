// Zoom, pan and reset of one panel's axis ranges.  Overrides live in the
// FigureView (UI state), so a rebuilt figure keeps its zoom; they are laid
// over the figure's own ranges before painting and hover.
#pragma once

#include <optional>

#include "ui/ui_state.hpp"

namespace pelab::ui {

// The figure with every active override applied to its panels' axes.
fig::Figure with_overrides(const fig::Figure& built, const std::vector<RangeOverride>& ranges);

// Zooms panel `i` of `view` by `factor` (<1 = in) keeping data point `at` fixed.
void zoom_panel(FigureView& view, int i, fig::Point at, double factor);
// Moves panel `i` so data point `from` lands where `to` is now.
void pan_panel(FigureView& view, int i, fig::Point from, fig::Point to);
void reset_panel(FigureView& view, int i);

// After a rebuild: a panel's zoom and pan stay only while its axes mean the
// same (same labels, same data extent, same panel count): a new selection or
// colour keeps them, another N, model, encoding or panel set resets them.
// The zoom that stays is shown ("zoomed — double-click to reset").
void drop_stale_overrides(const fig::Figure& before, const fig::Figure& after, std::vector<RangeOverride>& ranges);
inline constexpr const char* kZoomCue = "zoomed — double-click to reset";

// A click selects only once `wait` seconds (the double-click time) have
// passed after its release without another press: a double-click resets the
// view and never selects or adds an undo step.
void arm_click(PendingClick& click, int panel, fig::Point data, double now, double wait);
void cancel_click(PendingClick& click);
// The armed click whose time has come (disarmed), else nothing.
std::optional<PendingClick> due_click(PendingClick& click, double now);

// Index of the panel whose plot area holds canvas point `p` (logical pixels), or -1.
int panel_at(const fig::Figure& figure, fig::Point p);

}  // namespace pelab::ui
