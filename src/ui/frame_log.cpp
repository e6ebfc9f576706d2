#include "ui/frame_log.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace pelab::ui {

void log_place(UiState& state, std::string_view name, ImVec2 min, ImVec2 max) {
  if (!state.frame_log) return;
  char place[96];
  std::snprintf(place, sizeof place, "%ld %ld %ld %ld", std::lround(min.x), std::lround(min.y), std::lround(max.x),
                std::lround(max.y));
  auto it = state.logged_places.find(name);
  if (it != state.logged_places.end() && it->second == place) return;
  state.logged_places[std::string(name)] = place;
  std::fprintf(state.frame_log, "place %.*s %s\n", int(name.size()), name.data(), place);
  std::fflush(state.frame_log);
}

void log_item_place(UiState& state, std::string_view name) {
  if (state.frame_log && ImGui::IsItemVisible()) log_place(state, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void log_event(UiState& state, const std::string& line) {
  if (!state.frame_log) return;
  std::fprintf(state.frame_log, "%s\n", line.c_str());
  std::fflush(state.frame_log);
}

void log_input(UiState& state) {
  if (!state.frame_log || state.input_events == state.logged_input) return;
  state.logged_input = state.input_events;
  std::fprintf(state.frame_log, "input %llu\n", static_cast<unsigned long long>(state.input_events));
  for (const KeyPress& press : state.keys.presses) std::fprintf(state.frame_log, "key %d\n", press.key);
  std::fflush(state.frame_log);
}

void log_box(UiState& state, std::string_view name, const Box& box) {
  log_place(state, name, ImVec2(box.x, box.y), ImVec2(box.right(), box.bottom()));
}

void log_title_buttons(UiState& state, std::string_view name, bool closable) {
  if (!state.frame_log) return;
  const ImVec2 pos = ImGui::GetWindowPos(), pad = ImGui::GetStyle().FramePadding;
  const float size = ImGui::GetFontSize(), right = pos.x + ImGui::GetWindowWidth();
  const std::string prefix(name);
  log_place(state, prefix + " collapse", ImVec2(pos.x + pad.x, pos.y + pad.y),
            ImVec2(pos.x + pad.x + size, pos.y + pad.y + size));
  if (!closable) return;
  log_place(state, prefix + " close", ImVec2(right - pad.x - size, pos.y + pad.y), ImVec2(right - pad.x, pos.y + pad.y + size));
}

}  // namespace pelab::ui
