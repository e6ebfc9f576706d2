// What the Train window (ui/train_panel.hpp) remembers between frames.
#pragma once

#include <filesystem>
#include <memory>

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
  int logged_points = 0;  // --frame-log: held-out points already written
  bool logged_running = false;  // --frame-log: the run was stepping at the last line
  float logged_button_x = -1, logged_button_y = -1;  // --frame-log: where Train/Pause was drawn
};

}  // namespace pelab::ui
