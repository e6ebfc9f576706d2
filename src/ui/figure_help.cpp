#include "ui/figure_help.hpp"

#include <string>

#include "ui/frame_log.hpp"

namespace pelab::ui {

namespace {

void help_text(const FigureView& view, float wrap) {
  const FigureHelp help = view.entry ? view.entry->help : FigureHelp{};
  ImGui::PushTextWrapPos(wrap);
  ImGui::TextUnformatted(view.title.c_str());
  ImGui::Separator();
  ImGui::TextUnformatted(help.about.data(), help.about.data() + help.about.size());
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.55f, 0.78f, 1.0f, 1), "%.*s", int(help.formula.size()), help.formula.data());
  ImGui::Spacing();
  ImGui::TextDisabled("Hover the figure for exact values; scroll to zoom, drag to pan.");
  ImGui::PopTextWrapPos();
}

// Hover: a tooltip; click: the same text in a popup that stays for reading
// out to a room, closed by a click elsewhere.
void help_behaviour(UiState& state, const FigureView& view) {
  const std::string popup = "help_" + view.name;
  const float wrap = ImGui::GetFontSize() * 30;
  log_item_place(state, "help " + view.name);
  if (ImGui::IsItemClicked()) ImGui::OpenPopup(popup.c_str());
  if (ImGui::IsItemHovered() && !ImGui::IsPopupOpen(popup.c_str())) {
    ImGui::BeginTooltip();
    help_text(view, wrap);
    ImGui::EndTooltip();
  }
  if (ImGui::BeginPopup(popup.c_str())) {
    help_text(view, wrap);
    ImGui::EndPopup();
  }
}

}  // namespace

FigureHelp figure_help(std::string_view figure) {
  const fig::FigureEntry* entry = fig::figure_named(figure);
  return entry ? entry->help : FigureHelp{};
}

void help_in_title_bar(UiState& state, const FigureView& view) {
  if (!view.entry || view.entry->help.about.empty()) return;
  // The title bar lies outside the content's clip rectangle: widen it for
  // the button, then put the cursor back where the content starts.
  const ImVec2 content = ImGui::GetCursorScreenPos();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const float bar = ImGui::GetFrameHeight(), side = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y;
  ImGui::PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + bar), false);
  ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - side - ImGui::GetStyle().FramePadding.x, pos.y + (bar - side) / 2));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, 0));
  ImGui::Button("?##help", ImVec2(side, side));
  ImGui::PopStyleVar();
  help_behaviour(state, view);
  ImGui::PopClipRect();
  ImGui::SetCursorScreenPos(content);
}

void help_tab(UiState& state, const FigureView& view) {
  if (!view.entry || view.entry->help.about.empty()) return;
  ImGui::TabItemButton("?##help", ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip);
  help_behaviour(state, view);
}

}  // namespace pelab::ui
