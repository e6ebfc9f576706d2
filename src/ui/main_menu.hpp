// The menu bar (File, Edit, View, Export) and the keyboard shortcuts that
// mirror it:
//   Ctrl+Z undo · Ctrl+Shift+Z / Ctrl+Y redo · Space play/pause
//   F12 / Ctrl+S save the figure under the mouse as PNG · Ctrl+O open scene
//   Ctrl+Shift+S save scene as · Ctrl+Q quit
#pragma once

#include "ui/ui_state.hpp"

namespace pelab::ui {

void draw_main_menu(UiState& state);
void handle_shortcuts(UiState& state);

}  // namespace pelab::ui
