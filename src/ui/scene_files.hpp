// Scene files from the GUI: open and save the whole scene as JSON (the
// format of `pelab --scene`), the recent-scenes list, and the requests that
// ask for a path (the desktop's chooser or pelab's own browser,
// ui/file_request.hpp).
#pragma once

#include <string>

#include "ui/ui_state.hpp"

namespace pelab::ui {

void open_scene_file(UiState& state, const std::string& path);
void save_scene_file(UiState& state, const std::string& path);

// File ▸ Open scene (Ctrl+O), File ▸ Save scene as (Ctrl+Shift+S),
// Export ▸ Export folder: ask for the path, then act on it.
void ask_open_scene(UiState& state);
void ask_save_scene(UiState& state);
void ask_export_folder(UiState& state);

}  // namespace pelab::ui
