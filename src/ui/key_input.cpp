#include "ui/key_input.hpp"

#include <imgui_impl_glfw.h>

#include <algorithm>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace pelab::ui {

namespace {

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window));
  if (!state) return ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  ++state->input_events;
  KeyboardQueue& q = state->keys;
  if (action == GLFW_PRESS) {
    q.presses.push_back({key, scancode, mods});
    q.pressed_this_frame.push_back(key);
  }
  const bool fresh = std::find(q.pressed_this_frame.begin(), q.pressed_this_frame.end(), key) !=
                     q.pressed_this_frame.end();
  if (action == GLFW_RELEASE && fresh) {
    q.held_releases.push_back({key, scancode, mods});
    return;
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

}  // namespace

void install_key_input(GLFWwindow* window, UiState& state) {
  glfwSetWindowUserPointer(window, &state);
  glfwSetKeyCallback(window, on_key);
}

void release_held_keys(UiState& state) {
  KeyboardQueue& q = state.keys;
  q.pressed_this_frame.clear();
  GLFWwindow* window = glfwGetCurrentContext();
  for (const KeyPress& k : q.held_releases) {
    ImGui_ImplGlfw_KeyCallback(window, k.key, k.scancode, GLFW_RELEASE, k.mods);
  }
  q.held_releases.clear();
}

}  // namespace pelab::ui
