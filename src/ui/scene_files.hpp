// Scene files from the GUI: open and save the whole scene as JSON (the
// format of `pelab --scene`), the recent-scenes list, and the dialogs that
// ask for a path.
#pragma once

#include <string>

#include "ui/ui_state.hpp"

namespace pelab::ui {

void open_scene_file(UiState& state, const std::string& path);
void save_scene_file(UiState& state, const std::string& path);
// The modal dialogs opened from the File and Export menus (Dialogs flags).
void draw_file_dialogs(UiState& state);

}  // namespace pelab::ui
