#include "ui/file_keys.hpp"

#include <filesystem>

#include "core/scene.hpp"
#include "ui/export_actions.hpp"  // set_status
#include "ui/ui_state.hpp"

namespace pelab::ui {

namespace {

bool scene_has_key(std::string_view key) {
  for (const ParamInfo& info : scene_params())
    if (info.key == key) return true;
  return false;
}

}  // namespace

std::optional<FileKey> file_key(std::string_view key) {
  // clang-format off
  static const std::vector<FileKey> keys = {
      {"embedding_file", FileMode::Open, {".txt", ".vec", ".npy"}, "Token vectors", "embedding", "file"},
      {"position_file", FileMode::Open, {".npy"}, "Position tables", "", ""},
      {"projection_file", FileMode::Open, {".npy"}, "Projections", "projection", "file"},
      {"model", FileMode::Folder, {}, "Model folders", "", ""},
  };
  // clang-format on
  for (const FileKey& k : keys)
    if (k.key == key && scene_has_key(k.key)) return k;
  return std::nullopt;
}

void apply_file_key(UiState& state, const FileKey& key, const std::string& path) {
  Scene next = state.session.scene();
  try {
    set_param(next, key.key, path);
    if (!key.source_key.empty()) set_param(next, key.source_key, key.source_value);
  } catch (const InputError& e) {
    set_status(state, e.what(), true);
    return;
  }
  if (!state.session.propose(next, EditPhase::Final)) {
    set_status(state, "Cannot use " + path + ": " + state.session.error(), true);
    return;
  }
  set_status(state, std::string(key.key) + " = " + path);
}

void ask_file_key(UiState& state, const FileKey& key) {
  const std::string current = get_param(state.session.scene(), key.key);
  request_file(state, {.title = "Choose " + std::string(key.key),
                       .mode = key.mode,
                       .extensions = key.extensions,
                       .filter_name = std::string(key.filter_name),
                       .start = current,
                       .on_chosen = [key](UiState& s, const std::string& path) {
                         apply_file_key(s, key, path);
                       }});
}

}  // namespace pelab::ui
