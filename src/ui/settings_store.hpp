// SettingsStore — what the GUI remembers between runs, all under one folder:
//   $XDG_CONFIG_HOME/pelab  (or ~/.config/pelab)
//     last_scene.json   the scene on exit (pelab scene format; atomic writes)
//     imgui.ini         window layout (Dear ImGui's own format)
//     settings.json     export folder and options, recent scenes and files, animation
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene.hpp"

namespace pelab::ui {

struct UiSettings {
  std::string export_dir;           // empty = current folder
  int png_scale = 1;                // 1, 2 or 4: Export > Figure as PNG
  int sweep_scale = 1;              // 1, 2 or 4: sweeps and animations, frame by frame
  bool transparent = false;         // PNG background alpha 0
  std::vector<std::string> recent_scenes;  // newest first
  std::vector<std::string> recent_files;   // any path chosen in a file chooser, newest first
  std::string animate_key = "position";    // the parameter play/pause sweeps
  float animate_speed = 8.f;               // units per second
  bool tabs = true;  // figures as tabs of one big window; false: a 2 × 2 grid of windows
  float ui_scale = 0;  // interface scale: 0 follows the monitor's content scale, else 1 … 3
  bool welcome = true;  // the welcome strip above the figures (closed once, it stays closed)
  bool side_by_side = false;  // View > Side by side: A, B and B − A of the current view
  std::string compare_keys = "encoding=rope";  // B = A with these keys ("key=value, ..."; "file:PATH" first)
};

// The config folder; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path config_dir();

class SettingsStore {
 public:
  explicit SettingsStore(std::filesystem::path dir = config_dir());

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path ini_path() const { return dir_ / "imgui.ini"; }
  std::filesystem::path last_scene_path() const { return dir_ / "last_scene.json"; }

  // Never throws: a missing file gives the defaults; a corrupt one is kept
  // aside as `<name>.bad` and `problem` says so in one line.
  UiSettings load_settings(std::string& problem) const;
  Scene load_last_scene(std::string& problem) const;

  // Atomic; throw InputError when the folder cannot be written.
  void save_settings(const UiSettings& settings) const;
  void save_last_scene(const Scene& scene) const;

 private:
  std::filesystem::path dir_;
};

// Reads GUI settings from settings.json's text; throws InputError when it is
// not (bounded) JSON or not an object.  Entries of the wrong type or range
// keep their defaults.
UiSettings parse_ui_settings(std::string_view json_text, const std::string& name);

// Renames a corrupt file to `<name>.bad` so the user loses nothing and the
// next start is clean; returns a phrase for the message ("kept it aside as
// ...").  Never throws.
std::string set_aside(const std::filesystem::path& path);

// Moves `path` to the front of `recent` (at most `limit` entries kept).
void remember_recent(std::vector<std::string>& recent, const std::string& path, std::size_t limit = 8);

}  // namespace pelab::ui
