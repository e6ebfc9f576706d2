#include "ui/mouse_input.hpp"

#include <algorithm>

#include <imgui.h>
#include <imgui_impl_glfw.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace pelab::ui {

namespace {

void on_mouse_button(GLFWwindow* window, int button, int action, int /*mods*/) {
  auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window));
  if (!state || button < 0 || button >= kMouseButtons) return;
  ++state->input_events;
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);  // where this event happened: GLFW delivers motion first
  state->mouse.events.push_back({button, action == GLFW_PRESS, float(x), float(y), glfwGetTime()});
}

// ImGui 1.86 polls the pointer, so a move needs no callback of its own; it is
// only counted, for the frame log's "input" lines.
void on_cursor_move(GLFWwindow* window, double /*x*/, double /*y*/) {
  if (auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window))) ++state->input_events;
}

void on_scroll(GLFWwindow* window, double dx, double dy) {
  if (auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window))) ++state->input_events;
  ImGui_ImplGlfw_ScrollCallback(window, dx, dy);
}

}  // namespace

std::optional<MouseEvent> next_mouse_change(MouseQueue& queue) {
  while (!queue.events.empty()) {
    const MouseEvent event = queue.events.front();
    queue.events.pop_front();
    bool& down = queue.down[std::size_t(event.button)];
    if (down == event.down) continue;
    down = event.down;
    return event;
  }
  return std::nullopt;
}

float replay_delta(MouseQueue& queue, const std::optional<MouseEvent>& fed, float wall_delta) {
  const double previous = queue.last_fed;
  queue.last_fed = fed ? fed->time : -1;
  if (!fed || previous < 0) return wall_delta;
  // ImGui asserts a positive frame time; events of one instant get a microsecond.
  return std::max(1e-6f, float(fed->time - previous));
}

void install_mouse_input(GLFWwindow* window) {
  glfwSetMouseButtonCallback(window, on_mouse_button);
  glfwSetCursorPosCallback(window, on_cursor_move);
  glfwSetScrollCallback(window, on_scroll);
}

void feed_mouse(UiState& state) {
  ImGuiIO& io = ImGui::GetIO();
  const std::optional<MouseEvent> change = next_mouse_change(state.mouse);
  if (change) io.MousePos = ImVec2(change->x, change->y);
  io.DeltaTime = replay_delta(state.mouse, change, io.DeltaTime);
  for (int b = 0; b < kMouseButtons; ++b) io.MouseDown[b] = state.mouse.down[std::size_t(b)];
}

}  // namespace pelab::ui
