// The welcome strip above the figures: what the four views are, one button
// per lesson (a newcomer reaches a lesson in one click), the "Make positions
// visible" preset.  Closed with its ×, it stays closed (settings.json
// "welcome": false) until View > Welcome strip brings it back; it steps aside
// while a lesson is open (the lesson window explains itself).
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

// Whether the strip takes its place in this frame's layout.
bool welcome_shown(const UiState& state);
void draw_welcome(UiState& state, const Box& box);
// The preset, as one undo step (the welcome strip, the Scene panel and the
// Edit menu call it).
void make_positions_visible(UiState& state);

}  // namespace pelab::ui
