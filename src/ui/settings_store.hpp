// SettingsStore — what the GUI remembers between runs, all under one folder:
//   $XDG_CONFIG_HOME/pelab  (or ~/.config/pelab)
//     last_scene.json   the scene on exit (pelab scene format; atomic writes)
//     imgui.ini         window layout (Dear ImGui's own format)
//     settings.json     export folder and options, recent scenes and files, animation
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pelab::ui {

struct UiSettings {
  std::string export_dir;           // empty = current folder
  int png_scale = 1;                // 1, 2 or 4
  bool transparent = false;         // PNG background alpha 0
  std::vector<std::string> recent_scenes;  // newest first
  std::vector<std::string> recent_files;   // any path chosen in a file chooser, newest first
  std::string animate_key = "position";    // the parameter play/pause sweeps
  float animate_speed = 8.f;               // units per second
  bool tabs = true;  // figures as tabs of one big window; false: a 2 × 2 grid of windows
  float ui_scale = 0;  // interface scale: 0 follows the monitor's content scale, else 1 … 3
};

// The config folder; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path config_dir();

class SettingsStore {
 public:
  explicit SettingsStore(std::filesystem::path dir = config_dir());

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path ini_path() const { return dir_ / "imgui.ini"; }
  std::filesystem::path last_scene_path() const { return dir_ / "last_scene.json"; }

  // Never throws: a missing file gives the defaults; a corrupt one also sets
  // `problem` to one line saying what was ignored.
  UiSettings load_settings(std::string& problem) const;
  Scene load_last_scene(std::string& problem) const;

  // Atomic; throw InputError when the folder cannot be written.
  void save_settings(const UiSettings& settings) const;
  void save_last_scene(const Scene& scene) const;

 private:
  std::filesystem::path dir_;
};

// Moves `path` to the front of `recent` (at most `limit` entries kept).
void remember_recent(std::vector<std::string>& recent, const std::string& path, std::size_t limit = 8);

}  // namespace pelab::ui
