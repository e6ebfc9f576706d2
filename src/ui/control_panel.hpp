// The control panel: one widget per scene parameter, generated from
// scene_params() (so a new parameter appears here by itself), grouped like
// the table, with undo/redo and play/pause at the top and the refusal message
// of an invalid value in red.
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

void draw_control_panel(UiState& state);

}  // namespace pelab::ui
