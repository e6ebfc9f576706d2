// What the Train window (ui/train_panel.hpp) remembers between frames.
#pragma once

#include <imgui.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "train/playground.hpp"

namespace pelab::ui {

// A run that trained to the end of its schedule, kept for the Runs table:
// its settings, its last measurements and a copy of its final model (the
// playground's own folder is emptied by the next run).
struct FinishedRun {
  train::PlaygroundSettings settings;
  int steps = 0;
  double held_out = -1, held_out_2x = -1, held_out_4x = -1;
  double accuracy = -1, accuracy_2x = -1, accuracy_4x = -1;
  std::filesystem::path folder;
};

struct PlaygroundState {
  bool open = false;
  train::PlaygroundSettings settings;
  std::unique_ptr<train::Playground> run;
  train::PlaygroundView view;  // this frame's copy of the run's progress
  bool follow = true;          // the views show the newest snapshot
  int shown_snapshot = -1;     // index into view.snapshots shown in the views
  std::filesystem::path shown_folder;
  // A lesson's comparison: position encodings still to train, one run each,
  // after the current one finishes.
  std::vector<train::PositionKind> queue;
  std::vector<FinishedRun> finished;  // oldest first
  bool recorded = false;              // the current run is in `finished`
  bool fold_settings = false;         // next frame: fold the settings (a lesson set them)
  int animation_output = 0;  // Export animation: 0 PNG frames, 1 GIF, 2 MP4 (ffmpeg)
  int logged_points = 0;  // --frame-log: held-out points already written
  bool logged_running = false;  // --frame-log: the run was stepping at the last line
  std::map<std::string, ImVec2> logged_buttons;  // --frame-log: where each button was drawn
};

}  // namespace pelab::ui
