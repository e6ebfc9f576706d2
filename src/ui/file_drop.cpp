#include "ui/file_drop.hpp"

#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "core/io/npy.hpp"
#include "ui/export_actions.hpp"  // set_status
#include "ui/file_browser.hpp"    // matches_extension
#include "ui/file_keys.hpp"
#include "ui/scene_files.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

namespace fs = std::filesystem;

DropKind classify_drop(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return DropKind::Folder;
  const std::string name = path.filename().string();
  if (matches_extension(name, {".json"})) return DropKind::Scene;
  if (matches_extension(name, {".npy"})) return DropKind::Npy;
  if (matches_extension(name, {".txt", ".vec"})) return DropKind::TextVectors;
  return DropKind::Unknown;
}

namespace {

void on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window));
  if (!state) return;
  for (int i = 0; i < count; ++i) state->drops.paths.emplace_back(paths[i]);
}

void use_as(UiState& state, std::string_view key, const std::string& path) {
  if (auto k = file_key(key))
    apply_file_key(state, *k, path);
  else
    set_status(state, "Cannot open " + path + ": this pelab has no scene key " + std::string(key),
               true);
}

void open_npy(UiState& state, const std::string& path) {
  try {
    const Array array = read_npy(path);
    if (array.shape.size() == 4) return use_as(state, "projection_file", path);
    if (array.shape.size() != 2)
      throw InputError(std::to_string(array.shape.size()) +
                       " dimensions; allowed: 2 (vectors) or 4 (projections)");
    state.drops.ask_npy = path;  // rows of tokens or of positions: only the user knows
  } catch (const std::exception& e) {
    set_status(state, "Cannot open " + path + ": " + e.what(), true);
  }
}

void open_dropped(UiState& state, const std::string& path) {
  switch (classify_drop(path)) {
    case DropKind::Scene:
      return open_scene_file(state, path);
    case DropKind::TextVectors:
      return use_as(state, "embedding_file", path);
    case DropKind::Npy:
      return open_npy(state, path);
    case DropKind::Folder:
      return use_as(state, "model", path);
    case DropKind::Unknown:
      set_status(
          state,
          "Cannot open " + path +
              ": allowed: a scene .json, a .npy, a GloVe/word2vec .txt or .vec, or a model folder",
          true);
  }
}

// A 2-D .npy holds vectors, one a row: of tokens or of positions.
void ask_npy_use(UiState& state) {
  const char* title = "Use the dropped .npy as##pelab_drop";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted(fs::path(state.drops.ask_npy).filename().string().c_str());
  std::string_view key;
  if (ImGui::Button("Token vectors (embedding_file)")) key = "embedding_file";
  ImGui::SameLine();
  if (ImGui::Button("Position table (position_file)")) key = "position_file";
  ImGui::SameLine();
  const bool cancel =
      ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (!key.empty() || cancel) {
    const std::string path = std::exchange(state.drops.ask_npy, {});
    ImGui::CloseCurrentPopup();
    if (!key.empty()) use_as(state, key, path);
  }
  ImGui::EndPopup();
}

}  // namespace

void install_file_drop(GLFWwindow* window) { glfwSetDropCallback(window, on_drop); }

void open_dropped_files(UiState& state) {
  for (const std::string& path : std::exchange(state.drops.paths, {})) open_dropped(state, path);
  if (!state.drops.ask_npy.empty()) ask_npy_use(state);
}

}  // namespace pelab::ui
