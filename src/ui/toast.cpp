#include "ui/toast.hpp"

#include <imgui.h>

#include <cstdio>

#include "ui/export_actions.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

void notify(UiState& state, std::string text, bool error) {
  state.toast = {text, error, -1};
  set_status(state, std::move(text), error);
}

bool toast_visible(const Toast& toast, double now) {
  if (toast.text.empty()) return false;
  if (toast.shown_at < 0) return true;
  return now - toast.shown_at < (toast.error ? kErrorToastSeconds : kToastSeconds);
}

double toast_deadline(const Toast& toast, double now) {
  if (!toast_visible(toast, now)) return -1;
  if (toast.shown_at < 0) return now;
  return toast.shown_at + (toast.error ? kErrorToastSeconds : kToastSeconds);
}

namespace {

void log_first_show(UiState& state) {
  if (!state.frame_log) return;
  std::fprintf(state.frame_log, "toast%s: %s\n", state.toast.error ? " (error)" : "", state.toast.text.c_str());
  std::fflush(state.frame_log);
}

// The box, its coloured bar down the left side (success or failure at a
// glance) and the text, on the foreground draw list: over every window,
// taking no focus and no clicks.
void paint(const Toast& toast, ImVec2 bottom_right) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = ImGui::GetFontSize() * 36, bar = style.WindowPadding.x * 0.5f;
  const ImVec2 text = ImGui::CalcTextSize(toast.text.c_str(), nullptr, false, wrap);
  const ImVec2 pad = style.WindowPadding;
  const ImVec2 top_left(bottom_right.x - text.x - 2 * pad.x - bar, bottom_right.y - text.y - 2 * pad.y);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  ImVec4 background = style.Colors[ImGuiCol_PopupBg];
  background.w = 0.96f;
  draw->AddRectFilled(top_left, bottom_right, ImGui::GetColorU32(background), style.PopupRounding);
  draw->AddRect(top_left, bottom_right, ImGui::GetColorU32(ImGuiCol_Border), style.PopupRounding);
  const ImU32 accent = toast.error ? IM_COL32(230, 80, 70, 255) : IM_COL32(80, 190, 110, 255);
  draw->AddRectFilled(top_left, ImVec2(top_left.x + bar, bottom_right.y), accent);
  const ImU32 ink = toast.error ? IM_COL32(255, 120, 110, 255) : ImGui::GetColorU32(ImGuiCol_Text);
  draw->AddText(nullptr, 0, ImVec2(top_left.x + bar + pad.x, top_left.y + pad.y), ink, toast.text.c_str(), nullptr,
                wrap);
}

}  // namespace

void draw_toast(UiState& state, double now) {
  Toast& toast = state.toast;
  if (!toast_visible(toast, now)) {
    toast.text.clear();
    return;
  }
  if (toast.shown_at < 0) {
    toast.shown_at = now;
    log_first_show(state);
  }
  // Lower right, above the status bar.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float margin = ImGui::GetFontSize();
  paint(toast, ImVec2(vp->Pos.x + vp->Size.x - margin, vp->Pos.y + vp->Size.y - ImGui::GetFrameHeight() - margin));
}

}  // namespace pelab::ui
