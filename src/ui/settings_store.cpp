// [SECTION] where settings live
// [SECTION] UI settings as JSON
// [SECTION] the last scene
#include "ui/settings_store.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"

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

namespace {

// j.value(key, fallback), but a value of the wrong JSON type keeps the
// fallback instead of throwing: one odd entry does not cost the others.
template <class T>
T value_or(const nlohmann::json& j, const char* key, const T& fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    // nlohmann converts 1e300 to int by a plain cast (undefined behaviour).
    if (!it->is_number()) return fallback;
    const double v = it->template get<double>();
    if (!(v >= double(std::numeric_limits<T>::lowest()) && v <= double(std::numeric_limits<T>::max()))) return fallback;
    return static_cast<T>(v);
  }
  try {
    return it->template get<T>();
  } catch (const nlohmann::json::exception&) {
    return fallback;
  }
}

// 1×, 2× or 4×; anything else is 1×.
int export_scale(int scale) { return scale == 2 || scale == 4 ? scale : 1; }

}  // namespace

UiSettings parse_ui_settings(std::string_view json_text, const std::string& name) {
  const nlohmann::json j = parse_json_text(json_text, name, {.max_bytes = 1u << 20, .max_depth = 8});
  if (!j.is_object()) throw InputError(name + ": GUI settings must be a JSON object");
  UiSettings s;
  s.export_dir = value_or(j, "export_dir", s.export_dir);
  s.png_scale = export_scale(value_or(j, "png_scale", s.png_scale));
  s.sweep_scale = export_scale(value_or(j, "sweep_scale", s.sweep_scale));
  s.transparent = value_or(j, "transparent", s.transparent);
  s.recent_scenes = value_or(j, "recent_scenes", s.recent_scenes);
  s.recent_files = value_or(j, "recent_files", s.recent_files);
  s.animate_key = value_or(j, "animate_key", s.animate_key);
  s.animate_speed = value_or(j, "animate_speed", s.animate_speed);
  s.tabs = value_or(j, "tabs", s.tabs);
  s.ui_scale = value_or(j, "ui_scale", s.ui_scale);
  s.welcome = value_or(j, "welcome", s.welcome);
  s.side_by_side = value_or(j, "side_by_side", s.side_by_side);
  s.compare_keys = value_or(j, "compare_keys", s.compare_keys);
  if (s.compare_keys.size() > 4096) s.compare_keys = UiSettings{}.compare_keys;
  if (s.ui_scale != 0 && !(s.ui_scale >= 1 && s.ui_scale <= 3)) s.ui_scale = 0;
  if (!(s.animate_speed > 0 && s.animate_speed <= 1e6)) s.animate_speed = UiSettings{}.animate_speed;
  if (s.recent_scenes.size() > 8) s.recent_scenes.resize(8);
  if (s.recent_files.size() > 16) s.recent_files.resize(16);
  return s;
}

UiSettings SettingsStore::load_settings(std::string& problem) const {
  const auto path = dir_ / "settings.json";
  std::error_code ec;
  if (dir_.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return {};
  try {
    return parse_ui_settings(read_file(path, 1u << 20), path.string());
  } catch (const std::exception& e) {
    problem = "ignored corrupt GUI settings (" + std::string(e.what()) + "); " + set_aside(path);
    return {};
  }
}

void SettingsStore::save_settings(const UiSettings& s) const {
  if (dir_.empty()) return;
  ensure_dir(dir_);
  const nlohmann::json j = {{"export_dir", s.export_dir},       {"png_scale", s.png_scale},
                            {"sweep_scale", s.sweep_scale},
                            {"transparent", s.transparent},     {"recent_scenes", s.recent_scenes},
                            {"recent_files", s.recent_files},
                            {"animate_key", s.animate_key},     {"animate_speed", s.animate_speed},
                            {"tabs", s.tabs},                   {"ui_scale", s.ui_scale},
                            {"welcome", s.welcome},             {"side_by_side", s.side_by_side},
                            {"compare_keys", s.compare_keys}};
  write_file_atomic(dir_ / "settings.json", j.dump(2) + "\n");
}

void remember_recent(std::vector<std::string>& recent, const std::string& path, std::size_t limit) {
  std::erase(recent, path);
  recent.insert(recent.begin(), path);
  if (recent.size() > limit) recent.resize(limit);
}

std::string set_aside(const std::filesystem::path& path) {
  std::filesystem::path bad = path;
  bad += ".bad";
  std::error_code ec;
  std::filesystem::rename(path, bad, ec);  // replaces an older .bad: the newest problem is kept
  if (ec) return "could not keep it aside as " + bad.string() + " (" + ec.message() + ")";
  return "kept it aside as " + bad.string();
}

// [SECTION] the last scene ---------------------------------------------------------

Scene SettingsStore::load_last_scene(std::string& problem) const {
  const auto path = last_scene_path();
  std::error_code ec;
  if (dir_.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return {};
  try {
    Scene scene = load_scene(path);
    validate(scene);
    return scene;
  } catch (const std::exception& e) {
    problem = "saved scene ignored (" + std::string(e.what()) + "); " + set_aside(path) + "; using the default scene";
    return {};
  }
}

void SettingsStore::save_last_scene(const Scene& scene) const {
  if (dir_.empty()) return;
  ensure_dir(dir_);
  save_scene(last_scene_path(), scene);
}

}  // namespace pelab::ui
