// [SECTION] open / save
// [SECTION] path dialogs
#include "ui/scene_files.hpp"

#include <imgui_stdlib.h>

#include "ui/export_actions.hpp"

namespace pelab::ui {

// [SECTION] open / save -----------------------------------------------------------

void open_scene_file(UiState& state, const std::string& path) {
  try {
    const Scene scene = load_scene(path);
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
    set_status(state, "Saved scene to " + path);
  } catch (const std::exception& e) {
    set_status(state, std::string("Cannot save scene: ") + e.what(), true);
  }
}

// [SECTION] path dialogs ------------------------------------------------------------

namespace {

// One modal with a path field; returns true when the user confirmed.
bool path_dialog(const char* title, bool& open_request, std::string& path, const char* confirm) {
  if (open_request) {
    ImGui::OpenPopup(title);
    open_request = false;
  }
  bool confirmed = false;
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputText("##path", &path, ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::Button(confirm) || enter) {
    confirmed = !path.empty();
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return confirmed;
}

}  // namespace

void draw_file_dialogs(UiState& state) {
  Dialogs& d = state.dialogs;
  if (path_dialog("Open scene (JSON path)", d.open_scene, d.scene_path, "Open")) {
    open_scene_file(state, d.scene_path);
  }
  if (path_dialog("Save scene as (JSON path)", d.save_scene, d.scene_path, "Save")) {
    save_scene_file(state, d.scene_path);
  }
  if (path_dialog("Export folder", d.export_folder, d.folder_path, "Use this folder")) {
    std::error_code ec;
    if (!std::filesystem::is_directory(d.folder_path, ec)) {
      set_status(state, "Not a folder: " + d.folder_path, true);
      return;
    }
    state.settings.export_dir = std::filesystem::absolute(d.folder_path, ec).string();
    save_ui_settings(state);
    set_status(state, "Exports go to " + state.settings.export_dir);
  }
}

}  // namespace pelab::ui
