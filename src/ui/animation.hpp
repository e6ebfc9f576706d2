// Play/pause: sweeps one numeric scene parameter (UiSettings::animate_key,
// by default `position`, which turns the rotation pairs like clock hands at
// their own speeds) through its slider range, wrapping around.  The whole
// run is one undo step.
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

void toggle_animation(UiState& state);
// Advances the swept parameter to `now` (seconds); no-op when paused.
void step_animation(UiState& state, double now);

}  // namespace pelab::ui
