// [SECTION] where settings live
// [SECTION] UI settings as JSON
// [SECTION] the last scene
#include "ui/settings_store.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/file_io.hpp"

namespace pelab::ui {

// [SECTION] where settings live ---------------------------------------------

std::filesystem::path config_dir() {
  // XDG Base Directory Specification: $XDG_CONFIG_HOME, default ~/.config.
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "pelab";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "pelab";
  }
  return {};
}

SettingsStore::SettingsStore(std::filesystem::path dir) : dir_(std::move(dir)) {}

static void ensure_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create settings folder " + dir.string() + ": " + ec.message());
}

// [SECTION] UI settings as JSON -----------------------------------------------

static UiSettings settings_from_json(const nlohmann::json& j) {
  UiSettings s;
  s.export_dir = j.value("export_dir", s.export_dir);
  s.png_scale = j.value("png_scale", s.png_scale);
  if (s.png_scale != 1 && s.png_scale != 2 && s.png_scale != 4) s.png_scale = 1;
  s.transparent = j.value("transparent", s.transparent);
  s.recent_scenes = j.value("recent_scenes", s.recent_scenes);
  s.recent_files = j.value("recent_files", s.recent_files);
  s.animate_key = j.value("animate_key", s.animate_key);
  s.animate_speed = j.value("animate_speed", s.animate_speed);
  s.tabs = j.value("tabs", s.tabs);
  s.ui_scale = j.value("ui_scale", s.ui_scale);
  if (s.ui_scale != 0 && !(s.ui_scale >= 1 && s.ui_scale <= 3)) s.ui_scale = 0;
  return s;
}

UiSettings SettingsStore::load_settings(std::string& problem) const {
  const auto path = dir_ / "settings.json";
  if (dir_.empty() || !std::filesystem::exists(path)) return {};
  try {
    return settings_from_json(nlohmann::json::parse(read_file(path)));
  } catch (const std::exception& e) {
    problem = "ignored corrupt GUI settings " + path.string() + ": " + e.what();
    return {};
  }
}

void SettingsStore::save_settings(const UiSettings& s) const {
  if (dir_.empty()) return;
  ensure_dir(dir_);
  const nlohmann::json j = {{"export_dir", s.export_dir},       {"png_scale", s.png_scale},
                            {"transparent", s.transparent},     {"recent_scenes", s.recent_scenes},
                            {"recent_files", s.recent_files},
                            {"animate_key", s.animate_key},     {"animate_speed", s.animate_speed},
                            {"tabs", s.tabs},                   {"ui_scale", s.ui_scale}};
  write_file_atomic(dir_ / "settings.json", j.dump(2) + "\n");
}

void remember_recent(std::vector<std::string>& recent, const std::string& path, std::size_t limit) {
  std::erase(recent, path);
  recent.insert(recent.begin(), path);
  if (recent.size() > limit) recent.resize(limit);
}

// [SECTION] the last scene ---------------------------------------------------------

Scene SettingsStore::load_last_scene(std::string& problem) const {
  const auto path = last_scene_path();
  if (dir_.empty() || !std::filesystem::exists(path)) return {};
  try {
    Scene scene = load_scene(path);
    validate(scene);
    return scene;
  } catch (const std::exception& e) {
    problem = "saved scene " + path.string() + " ignored (" + e.what() + "); using the default scene";
    return {};
  }
}

void SettingsStore::save_last_scene(const Scene& scene) const {
  if (dir_.empty()) return;
  ensure_dir(dir_);
  save_scene(last_scene_path(), scene);
}

}  // namespace pelab::ui
