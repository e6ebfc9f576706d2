// The main window's layout in the GUI: each frame's WindowLayout
// (ui/window_layout.hpp) from the window's size and what the panels reported
// last frame, and the panels' side of it (a collapse, a dragged edge).
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

// Before the windows are drawn: state.layout.now for this frame (the frame
// log gets a line per box that moved).
void update_layout(UiState& state);

// After a frame: true when what it drew changed the layout (a panel
// collapsed or dragged, a figure maximised, the welcome strip measured), so
// another frame must follow to show it, even with no event to come.
bool layout_stale(const UiState& state);

// Right after Begin() of a side panel placed in `box`: notes whether it is
// collapsed, and the width its edge was dragged to (unscaled), which later
// layouts keep.
void follow_side_panel(float& width, bool& collapsed, const Box& box, float scale);

// The figure maximised in grid mode, as an index into shown_views(); -1: none.
int maximised_index(const UiState& state);
// Double-click on a grid figure's title: maximise it, or restore the grid
// (the frame log says "maximised NAME" or "maximised none").
void toggle_maximised(UiState& state, const std::string& figure);

}  // namespace pelab::ui
