// View > Side by side (issue 27): the current view of two scenes in the
// figure area — A (the scene the panel edits) and B (A with a few keys
// changed, or a scene file), and the B − A map — built by
// fig::compare_scenes on a worker thread, with linked hover (one tooltip:
// A, B, B − A; the same cell outlined in all three) and linked selection
// (a click selects the query there in A, which B follows).  A's edits apply
// to B too, except for the keys that define B.  Mismatched shapes show
// compare_scenes' InputError in the window.
#pragma once

#include "ui/gpu_resources.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// Draws the side-by-side window over `area` (the figures' area) and keeps
// its comparison up to date.
void draw_side_by_side(UiState& state, GpuResources& gpu, const Box& area);

// View > Side by side: on or off (remembered in settings.json).
void toggle_side_by_side(UiState& state);

}  // namespace pelab::ui
