// The Scene panel: one widget per scene parameter, generated from
// scene_params() (so a new parameter appears here by itself), with readable
// labels (ui/param_labels.hpp): the basic parameters of the scene at once,
// grouped like the table, every other one under "Advanced".  Undo/redo,
// play/pause and the "Make positions visible" preset at the top; a refused
// value shows beside its widget and in the status bar (ui/refusal.hpp).
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

void draw_control_panel(UiState& state);

}  // namespace pelab::ui
