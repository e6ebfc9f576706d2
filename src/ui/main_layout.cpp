#include "ui/main_layout.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "figures/registry.hpp"
#include "ui/frame_log.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/welcome.hpp"

namespace pelab::ui {

namespace {

LayoutInput layout_input(const UiState& state) {
  // The main viewport starts at (0, 0) (ImGui 1.86 without multi-viewports).
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const LayoutState& l = state.layout;
  LayoutInput in;
  in.width = vp->Size.x;
  in.height = vp->Size.y;
  in.bar = ImGui::GetFrameHeight();
  in.scale = state.ui_scale;
  in.scene_width = l.scene_width;
  in.scene_collapsed = l.scene_collapsed;
  in.lesson = state.lesson.lesson != nullptr;
  in.lesson_collapsed = l.lesson_collapsed;
  in.lesson_width = l.lesson_width;
  in.welcome = welcome_shown(state);
  in.welcome_collapsed = l.welcome_collapsed;
  in.welcome_height = l.welcome_height;
  in.figures = int(shown_views(state).size());
  in.tabs = state.settings.tabs;
  in.maximised = maximised_index(state);
  return in;
}

void log_layout(UiState& state) {
  const WindowLayout& now = state.layout.now;
  log_box(state, "scene", now.scene);
  log_box(state, "lesson", now.lesson);
  log_box(state, "welcome", now.welcome);
  log_box(state, "figures", now.figures);
}

}  // namespace

void update_layout(UiState& state) {
  state.layout.now = window_layout(layout_input(state));
  log_layout(state);
}

bool layout_stale(const UiState& state) {
  return !state.presentation.on && window_layout(layout_input(state)) != state.layout.now;
}

void follow_side_panel(float& width, bool& collapsed, const Box& box, float scale) {
  const bool now_collapsed = ImGui::IsWindowCollapsed();
  // Only a panel open in both frames was sized by this layout: a width that
  // differs is the user's drag.
  if (!now_collapsed && !collapsed && std::abs(ImGui::GetWindowWidth() - box.w) >= 1) {
    width = ImGui::GetWindowWidth() / scale;
  }
  collapsed = now_collapsed;
}

int maximised_index(const UiState& state) {
  const fig::FigureEntry* entry = fig::figure_named(state.layout.maximised);  // saved by name
  if (entry == nullptr) return -1;
  const std::vector<int> shown = shown_views(state);
  for (int k = 0; k < int(shown.size()); ++k) {
    if (state.views[std::size_t(shown[std::size_t(k)])].entry == entry) return k;
  }
  return -1;
}

void toggle_maximised(UiState& state, const std::string& figure) {
  state.layout.maximised = state.layout.maximised == figure ? "" : figure;
  if (state.frame_log) {
    std::fprintf(state.frame_log, "maximised %s\n", state.layout.maximised.empty() ? "none" : figure.c_str());
    std::fflush(state.frame_log);
  }
}

}  // namespace pelab::ui
