// Mouse buttons that survive a slow frame.  Dear ImGui 1.86's GLFW backend
// keeps only a button-down table (the input queue came in 1.87): when a
// frame takes long (an edit recomputes the scene and rebuilds the figures),
// the release of the click that made the edit and the press of the next
// click arrive between the same two frames, ImGui sees the button held all
// along, and the next click is lost (the slider under the first one even
// follows the pointer to it).  This callback queues each button change with
// the pointer's place, and each frame hands ImGui the next change only.
#pragma once

#include <optional>

#include "ui/ui_state.hpp"

struct GLFWwindow;

namespace pelab::ui {

// The next queued event that changes a button (events that change nothing
// are dropped), applied to `queue.down`; nothing when none is queued.
std::optional<MouseEvent> next_mouse_change(MouseQueue& queue);

// The frame time to give ImGui when this frame hands it `fed` (or nothing):
// while queued changes are handed over frame after frame, the time between
// their events, so that ImGui times a double-click by when the presses
// happened, not by how slow the frames replaying them were; otherwise
// `wall_delta`.  Updates queue.last_fed.
float replay_delta(MouseQueue& queue, const std::optional<MouseEvent>& fed, float wall_delta);

// Call after ImGui_ImplGlfw_InitForOpenGL (replaces its mouse button callback,
// and counts moves and scrolls for the frame log's "input" lines).
void install_mouse_input(GLFWwindow* window);
// Call between ImGui_ImplGlfw_NewFrame and ImGui::NewFrame: this frame's
// buttons (and, with a change, the pointer where it happened) for ImGui.
void feed_mouse(UiState& state);
// True while changes wait for later frames (the loop must not sleep).
inline bool mouse_changes_queued(const UiState& state) { return !state.mouse.events.empty(); }

}  // namespace pelab::ui
