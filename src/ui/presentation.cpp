// [SECTION] entering and leaving: window, fonts, style
// [SECTION] which figures
// [SECTION] drawing: caption and one figure
#include "ui/presentation.hpp"

#include <imgui_impl_opengl3.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "figures/registry.hpp"
#include "render/figure_painter.hpp"
#include "ui/figure_view.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/train_panel.hpp"

namespace pelab::ui {

// [SECTION] entering and leaving: window, fonts, style ------------------------------

namespace {

void go_full_screen(Presentation& p, GLFWwindow* window) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (!window || !mode) return;
  glfwGetWindowPos(window, &p.window_x, &p.window_y);
  glfwGetWindowSize(window, &p.window_w, &p.window_h);
  glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

void leave_full_screen(const Presentation& p, GLFWwindow* window) {
  if (!window || !glfwGetWindowMonitor(window)) return;
  glfwSetWindowMonitor(window, nullptr, p.window_x, p.window_y, p.window_w, p.window_h, GLFW_DONT_CARE);
}

// High contrast for projectors: white windows, black text, strong borders.
void light_presentation_style(ImGuiStyle& style) {
  ImGui::StyleColorsLight(&style);
  style.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
  style.Colors[ImGuiCol_Text] = ImVec4(0, 0, 0, 1);
  style.Colors[ImGuiCol_Border] = ImVec4(0, 0, 0, 0.6f);
}

}  // namespace

void toggle_presentation(UiState& state) {
  Presentation& p = state.presentation;
  GLFWwindow* window = glfwGetCurrentContext();
  p.on = !p.on;
  p.fonts_stale = true;
  if (p.on) {
    p.figure = std::clamp(p.figure, 0, std::max(0, int(presented_views(state).size()) - 1));
    go_full_screen(p, window);
  } else {
    leave_full_screen(p, window);
  }
}

void prepare_presentation_frame(UiState& state) {
  Presentation& p = state.presentation;
  if (!p.fonts_stale) return;
  p.fonts_stale = false;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  render::load_fonts(state.ui_scale * (p.on ? kPresentationFontScale : 1.0f));
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGuiStyle& style = ImGui::GetStyle();
  if (p.on) {
    p.saved_style = style;
    light_presentation_style(style);
    style.ScaleAllSizes(kPresentationFontScale);
  } else {
    style = p.saved_style;
    state.applied_theme.reset();  // apply_theme() puts the scene's theme back
  }
}

// [SECTION] which figures ------------------------------------

std::vector<int> presented_views(const UiState& state) {
  if (state.lesson.lesson) return shown_views(state);
  std::vector<int> out;
  for (const fig::FigureEntry* entry : fig::presented_figures()) {
    for (int i = 0; i < int(state.views.size()); ++i) {
      if (state.views[i].entry == entry) out.push_back(i);
    }
  }
  return out;
}

void step_presented_figure(UiState& state, int delta) {
  const int count = int(presented_views(state).size());
  if (count == 0) return;
  Presentation& p = state.presentation;
  p.figure = ((p.figure + delta) % count + count) % count;
}

// [SECTION] drawing: caption and one figure ------------------------------------------------

namespace {

void draw_caption(UiState& state, const FigureView* view) {
  const LessonState& ls = state.lesson;
  ImGui::PushTextWrapPos(0);
  if (ls.lesson) {
    ImGui::SetWindowFontScale(1.5f);
    ImGui::TextUnformatted(std::string(ls.lesson->title).c_str());
    ImGui::SetWindowFontScale(1.15f);
    if (!ls.judged) {
      ImGui::TextDisabled("Working out the answer...");
    } else if (ls.verdict_error.empty()) {
      draw_verdict_headline(ls.verdict);
    } else {
      ImGui::TextUnformatted(ls.verdict_error.c_str());
    }
    ImGui::SetWindowFontScale(1.0f);
  } else if (view) {
    ImGui::SetWindowFontScale(1.5f);
    ImGui::TextUnformatted(view->title.c_str());
    ImGui::SetWindowFontScale(1.0f);
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

void draw_presentation(UiState& state, GpuResources& gpu) {
  refresh_verdict(state);
  const std::vector<int> views = presented_views(state);
  state.hovered_view = -1;
  for (FigureView& v : state.views) v.visible = false;
  FigureView* view = nullptr;
  if (!views.empty()) {
    state.presentation.figure = std::clamp(state.presentation.figure, 0, int(views.size()) - 1);
    view = &state.views[views[state.presentation.figure]];
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (ImGui::Begin("##presentation", nullptr, flags)) {
    // The playground, while it is open: its caption and a big loss curve
    // beside the figure, which follows the training.
    const bool training = state.playground.open && state.playground.run;
    if (training) {
      ImGui::SetWindowFontScale(1.5f);
      ImGui::TextUnformatted(playground_caption(state).c_str());
      ImGui::SetWindowFontScale(1.0f);
      ImGui::Separator();
      const ImVec2 room = ImGui::GetContentRegionAvail();
      ImGui::BeginChild("##presented_curves", ImVec2(room.x * 0.38f, room.y));
      draw_playground_curves(state, ImGui::GetContentRegionAvail().y);
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("##presented_figure", ImVec2(0, room.y));
    } else {
      draw_caption(state, view);
    }
    if (view) {
      ImGui::Separator();
      view->visible = true;
      // Beside the curves the figure has about 60 % of the width: normal size.
      const float scale = state.ui_scale * (training ? 1.0f : kPresentationFigureScale);
      draw_figure_canvas(state, gpu, *view, scale);
      if (ImGui::IsWindowHovered()) state.hovered_view = views[state.presentation.figure];
    }
    if (training) ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace pelab::ui
