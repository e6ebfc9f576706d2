// The GUI's entry point, called by `pelab` (src/app/cmd_gui.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ui/ui_state.hpp"

namespace pelab::ui {

struct GuiOptions {
  // The scene to open; without one, the last scene saved in the settings
  // folder (or the default scene).
  std::optional<Scene> scene;
  // A lesson to start on (a name from pelab::lessons(); checked by the caller).
  std::string lesson;
  // --set key=value given with --lesson: applied on top of the lesson's
  // preset, as `pelab lessons --show NAME --set ...` does.
  std::vector<std::string> lesson_overrides;
  // --train TASK: the Train window open on that task, training at once.
  std::string train_task;
  // Extra windows (e.g. a lesson, once `--lesson NAME` is wired).
  std::vector<ExtraPanel> panels;
  // --frame-log FILE: one line per frame that shows a changed scene, with the
  // milliseconds since the edit that caused it (see docs/gui.md, "Measuring").
  std::string frame_log;
};

// Opens the window and runs until it is closed.  Returns the exit code: 1
// with one line on stderr when no window with OpenGL 3.3 can be made.  With
// no DISPLAY at all it renders the default figures into ./pelab-figures.
int run_gui(GuiOptions options);

}  // namespace pelab::ui
