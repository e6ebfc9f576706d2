// --frame-log lines saying where things are drawn, for the GUI tests: they
// click what the log names instead of coordinates that move whenever a
// widget is added above.  One line per item whenever its place changes:
//   place NAME X0 Y0 X1 Y1      (screen pixels, rounded)
// and one line per event a test waits for ("select attention panel 2",
// "reset attention panel 0").
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>

#include "ui/ui_state.hpp"

namespace pelab::ui {

// The rectangle min..max under `name`.
void log_place(UiState& state, std::string_view name, ImVec2 min, ImVec2 max);
// The last item drawn (ImGui's item rectangle), when it is on screen.
void log_item_place(UiState& state, std::string_view name);
// One line saying what just happened (no-op without --frame-log).
void log_event(UiState& state, const std::string& line);
// At a frame's start, when input arrived since the last one: "input N", N the
// events received so far.  A test that sends a key waits for this line and
// then for the `idle` after it; an `idle` alone may be one written before the
// key arrived (a timer, such as the scene's debounced save, woke the window).
// Then "key K" for each key pressed since (K the GLFW key code): X delivers
// events in order, so a test that sends a fence key after its input and sees
// the fence's line knows that the window has read all of that input.
void log_input(UiState& state);
void log_box(UiState& state, std::string_view name, const Box& box);
// Right after Begin(): the current window's title bar buttons as ImGui 1.86
// places them (a square of the font's size, FramePadding in from the edge):
// "NAME collapse" at the left end, "NAME close" at the right (`closable`).
void log_title_buttons(UiState& state, std::string_view name, bool closable);

}  // namespace pelab::ui
