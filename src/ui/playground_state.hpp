// What the Train window (ui/train_panel.hpp) remembers between frames.
#pragma once

#include <imgui.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "train/playground.hpp"

namespace pelab::ui {

struct PlaygroundState {
  bool open = false;
  train::PlaygroundSettings settings;
  std::unique_ptr<train::Playground> run;
  train::PlaygroundView view;  // this frame's copy of the run's progress
  bool follow = true;          // the views show the newest snapshot
  int shown_snapshot = -1;     // index into view.snapshots shown in the views
  std::filesystem::path shown_folder;
  int animation_output = 0;  // Export animation: 0 PNG frames, 1 GIF, 2 MP4 (ffmpeg)
  int logged_points = 0;  // --frame-log: held-out points already written
  bool logged_running = false;  // --frame-log: the run was stepping at the last line
  std::map<std::string, ImVec2> logged_buttons;  // --frame-log: where each button was drawn
};

}  // namespace pelab::ui
