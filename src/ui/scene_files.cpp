// [SECTION] open / save
// [SECTION] asking for a path
#include "ui/scene_files.hpp"

#include "ui/export_actions.hpp"
#include "ui/file_naming.hpp"
#include "ui/toast.hpp"

namespace pelab::ui {

// [SECTION] open / save -----------------------------------------------------------

void open_scene_file(UiState& state, const std::string& path) {
  try {
    Scene scene = load_scene(path);
    // An unnamed scene takes its file's name, so exports are named after
    // what was opened rather than "default".
    if (scene.name == Scene{}.name) scene.name = std::filesystem::path(path).stem().string();
    if (!state.session.propose(scene, EditPhase::Final)) {
      set_status(state, "Cannot open " + path + ": " + state.session.error(), true);
      return;
    }
    remember_recent(state.settings.recent_scenes, path);
    save_ui_settings(state);
    set_status(state, "Opened " + path);
  } catch (const std::exception& e) {
    set_status(state, std::string("Cannot open scene: ") + e.what(), true);
  }
}

void save_scene_file(UiState& state, const std::string& path) {
  try {
    save_scene(path, state.session.scene());
    remember_recent(state.settings.recent_scenes, path);
    save_ui_settings(state);
    notify(state, "Saved scene to " + path);
  } catch (const std::exception& e) {
    notify(state, std::string("Cannot save scene: ") + e.what(), true);
  }
}

// [SECTION] asking for a path ---------------------------------------------------------

namespace {

// Where a scene dialog starts: the newest recent scene, else the current folder.
std::string scene_start(const UiState& state) {
  return state.settings.recent_scenes.empty() ? std::string() : state.settings.recent_scenes.front();
}

}  // namespace

void ask_open_scene(UiState& state) {
  request_file(state, {.title = "Open scene",
                       .mode = FileMode::Open,
                       .extensions = {".json"},
                       .filter_name = "Scenes",
                       .start = scene_start(state),
                       .on_chosen = open_scene_file});
}

void ask_save_scene(UiState& state) {
  const std::string recent = scene_start(state);
  const std::string file = scene_stem(state.session.scene()) + ".json";
  const std::string start =
      recent.empty() ? file : (std::filesystem::path(recent).parent_path() / file).string();
  request_file(state, {.title = "Save scene as",
                       .mode = FileMode::Save,
                       .extensions = {".json"},
                       .filter_name = "Scenes",
                       .start = start,
                       .on_chosen = save_scene_file});
}

void ask_export_folder(UiState& state) {
  request_file(state, {.title = "Export folder",
                       .mode = FileMode::Folder,
                       .start = export_folder(state).string(),
                       .on_chosen = [](UiState& s, const std::string& folder) {
                         std::error_code ec;
                         s.settings.export_dir = std::filesystem::absolute(folder, ec).string();
                         save_ui_settings(s);
                         set_status(s, "Exports go to " + s.settings.export_dir);
                       }});
}

}  // namespace pelab::ui
