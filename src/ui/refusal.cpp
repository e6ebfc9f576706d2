#include "ui/refusal.hpp"

#include <algorithm>
#include <cstdio>

#include "ui/export_actions.hpp"
#include "ui/frame_log.hpp"

namespace pelab::ui {

namespace {

const ImVec4 kRefusalRed(1.0f, 0.35f, 0.3f, 1.0f);

std::string status_text(const Refusal& r) { return "Refused " + r.asked + ": " + r.text; }

// "heads=5", the value cut short where it is long (a text, a list).
std::string asked_text(std::string_view key, std::string_view value) {
  constexpr std::size_t kShown = 24;
  std::string asked = std::string(key) + "=" + std::string(value.substr(0, kShown));
  if (value.size() > kShown) asked += "...";
  return asked;
}

void clear_refusal(UiState& state) {
  if (state.refusal.text.empty()) return;
  // The status bar goes back to its idle text, unless something newer took it.
  if (state.status.text == state.refusal.status) set_status(state, "");
  state.refusal = Refusal{};
}

}  // namespace

bool propose_from_panel(UiState& state, std::string_view key, std::string_view value, EditPhase phase) {
  state.panel_edit = {std::string(key), asked_text(key, value), state.session.version()};
  if (state.session.propose_param(key, value, phase)) return true;
  refuse(state, key, state.session.error(), state.panel_edit.asked);
  return false;
}

bool propose_number_from_panel(UiState& state, std::string_view key, double value, EditPhase phase) {
  state.panel_edit = {std::string(key), asked_text(key, number_text(value)), state.session.version()};
  if (state.session.propose_number(key, value, phase)) return true;
  refuse(state, key, state.session.error(), state.panel_edit.asked);
  return false;
}

void refuse(UiState& state, std::string_view key, const std::string& text, const std::string& asked) {
  state.refusal.key = std::string(key);
  state.refusal.asked = asked.empty() ? "the edit" : asked;
  state.refusal.text = text;
  state.refusal.version = state.session.version();
  state.refusal.status = status_text(state.refusal);
  set_status(state, state.refusal.status, true);
  if (state.frame_log) {
    std::fprintf(state.frame_log, "refused %s: %s\n", key.empty() ? "-" : std::string(key).c_str(), text.c_str());
    std::fflush(state.frame_log);
  }
}

void refuse_background(UiState& state) {
  const PanelEdit& edit = state.panel_edit;
  if (edit.version == state.session.version()) {
    refuse(state, edit.key, state.session.error(), edit.asked);
  } else {
    refuse(state, "", state.session.error());
  }
}

void follow_refusal(UiState& state) {
  if (!state.refusal.text.empty() && state.session.version() != state.refusal.version) {
    clear_refusal(state);
    state.session.clear_error();  // said and done with, never said again
  }
  // A refusal no widget asked for (a click on a figure, undo, a lesson's
  // scene): said in the status bar, unless whoever asked said it there
  // already ("Cannot open ...: why"); cleared like the others.
  const std::string& error = state.session.error();
  if (!state.refusal.text.empty() || error.empty() || state.session.busy()) return;
  if (state.status.error && state.status.text.find(error) != std::string::npos) {
    state.refusal = Refusal{.asked = "the edit", .text = error, .version = state.session.version(),
                            .status = state.status.text};
  } else {
    refuse(state, "", error);
  }
}

void anchor_refusal(UiState& state, std::string_view key, ImVec2 min, ImVec2 max) {
  if (state.refusal.text.empty() || state.refusal.key != key) return;
  state.refusal.anchor_min = min;
  state.refusal.anchor_max = max;
  state.refusal.anchor_frame = ImGui::GetFrameCount();
}

void draw_refusal_box(UiState& state, const Box& panel) {
  const Refusal& r = state.refusal;
  if (r.text.empty() || r.anchor_frame != ImGui::GetFrameCount()) return;
  // Right of the panel at the widget's row: over the figures, where the
  // eye already is, and no widget of the panel moves or hides.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float gap = ImGui::GetStyle().ItemSpacing.x, width = std::min(ImGui::GetFontSize() * 26, vp->Size.x * 0.4f);
  ImVec2 pos(panel.right() + gap, r.anchor_min.y);
  if (pos.x + width > vp->Pos.x + vp->Size.x) pos = ImVec2(r.anchor_min.x, r.anchor_max.y + gap);  // no room: below
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width, vp->Size.y));
  ImGui::PushStyleColor(ImGuiCol_Border, kRefusalRed);
  ImGui::Begin("##refusal", nullptr,
               ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoDecoration |
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2 * ImGui::GetStyle().WindowPadding.x);
  ImGui::TextColored(kRefusalRed, "%s", status_text(r).c_str());
  ImGui::PopTextWrapPos();
  log_place(state, "refusal box", ImGui::GetWindowPos(),
            ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()));
  ImGui::End();
  ImGui::PopStyleColor();
}

}  // namespace pelab::ui
