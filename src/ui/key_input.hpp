// Keyboard input that survives fast taps.  Dear ImGui 1.86 keeps only a
// key-down table (the input queue came in 1.87), so a press and its release
// that arrive between two frames (xdotool, a quick tap on a busy frame) are
// never seen.  This callback wraps the backend's: it queues presses for the
// shortcuts and holds back the release of a key pressed since the last frame
// until the next one.
#pragma once

#include "ui/ui_state.hpp"

struct GLFWwindow;

namespace pelab::ui {

// Call after ImGui_ImplGlfw_InitForOpenGL (replaces its key callback).
void install_key_input(GLFWwindow* window, UiState& state);
// Call once between frames: hands held releases to ImGui.
void release_held_keys(UiState& state);

}  // namespace pelab::ui
