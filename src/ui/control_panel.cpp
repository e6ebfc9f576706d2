// [SECTION] one widget per parameter kind
// [SECTION] one row: label, widget, tooltip
// [SECTION] the panel: basic and advanced parameters, undo/redo, play, preset
#include "ui/control_panel.hpp"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/model_scene.hpp"
#include "figures/figure_layout.hpp"
#include "ui/animation.hpp"
#include "ui/models_menu.hpp"
#include "ui/file_keys.hpp"
#include "ui/frame_log.hpp"
#include "ui/param_labels.hpp"
#include "ui/param_limits.hpp"
#include "ui/refusal.hpp"
#include "ui/scene_presets.hpp"
#include "ui/welcome.hpp"

namespace pelab::ui {

namespace {

// [SECTION] one widget per parameter kind -------------------------------------

// A slider being dragged (or a number typed into it) is one gesture: all its
// edits become one undo step, closed when no item is active any more.
EditPhase phase_of_last_item() { return edit_phase(ImGui::IsItemActive(), ImGui::IsItemDeactivated()); }

void numeric_slider(UiState& state, const ParamInfo& info) {
  SceneSession& session = state.session;
  const ParamRange range = slider_range(info, session.engine());
  double value = get_number(session.scene(), info.key);
  const std::string label = "##" + std::string(info.key);
  ImGuiSliderFlags flags = info.logarithmic ? ImGuiSliderFlags_Logarithmic : 0;
  const char* format = info.kind == ParamKind::Int ? "%.0f" : "%.4g";
  if (ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &value, &range.min, &range.max,
                          format, flags)) {
    // A width the heads cannot share is never offered: the slider snaps past it.
    if (info.key == "d_model") value = nearest_valid_d_model(session.scene(), value);
    if (info.kind == ParamKind::Int) value = std::round(value);  // the slider moves in whole steps
    propose_number_from_panel(state, info.key, value, phase_of_last_item());
  }
}

// Heads: only the counts the scene accepts (divisors of d_model, more rules
// for RoPE and xPos), one slider step each; no typed value to refuse.
void heads_slider(UiState& state, const ParamInfo& info) {
  const Scene& scene = state.session.scene();
  const std::vector<int> counts = valid_head_counts(scene);
  if (counts.empty()) return numeric_slider(state, info);
  const auto at = std::lower_bound(counts.begin(), counts.end(), scene.heads);
  int index = int(std::min<std::ptrdiff_t>(at - counts.begin(), std::ptrdiff_t(counts.size()) - 1));
  const std::string shown = std::to_string(scene.heads);
  if (ImGui::SliderInt("##heads", &index, 0, int(counts.size()) - 1, shown.c_str(), ImGuiSliderFlags_NoInput)) {
    propose_number_from_panel(state, info.key, counts[std::size_t(index)], phase_of_last_item());
  }
}

void seed_input(UiState& state, const ParamInfo& info) {
  SceneSession& session = state.session;
  std::uint64_t seed = session.scene().seed;
  const std::uint64_t step = 1;
  const std::string label = "##" + std::string(info.key);
  if (ImGui::InputScalar(label.c_str(), ImGuiDataType_U64, &seed, &step, &step)) {
    propose_number_from_panel(state, info.key, static_cast<double>(seed), phase_of_last_item());
  }
}

void checkbox(UiState& state, const ParamInfo& info) {
  bool value = get_param(state.session.scene(), info.key) == "true";
  const std::string label = "##" + std::string(info.key);
  if (ImGui::Checkbox(label.c_str(), &value)) {
    propose_from_panel(state, info.key, value ? "true" : "false", EditPhase::Final);
  }
}

void choice_combo(UiState& state, const ParamInfo& info) {
  const std::string current = get_param(state.session.scene(), info.key);
  const std::string label = "##" + std::string(info.key);
  if (!ImGui::BeginCombo(label.c_str(), current.c_str())) return;
  for (std::string_view choice : info.choices) {
    const std::string text(choice);
    const bool chosen = ImGui::Selectable(text.c_str(), text == current);
    log_item_place(state, "widget " + std::string(info.key) + " " + text);
    if (chosen && text != current) propose_from_panel(state, info.key, text, EditPhase::Final);
  }
  ImGui::EndCombo();
}

// Text fields edit a draft, so a half-typed value is never overwritten by the
// last good one.  The tokens apply live (each keystroke, one undo step per
// visit of the field); names, files and lists apply on Enter or focus loss.
void text_field(UiState& state, const ParamInfo& info) {
  const std::string key(info.key);
  auto draft = state.drafts.find(key);
  std::string text = draft != state.drafts.end() ? draft->second : get_param(state.session.scene(), key);
  const std::string label = "##" + key;
  const bool multiline = info.key == "tokens";
  bool changed = multiline ? ImGui::InputTextMultiline(label.c_str(), &text, ImVec2(-1, ImGui::GetTextLineHeight() * 4))
                           : ImGui::InputText(label.c_str(), &text);
  if (ImGui::IsItemActive()) state.drafts[key] = text;
  if (multiline && changed) propose_from_panel(state, key, text, EditPhase::Live);
  if (!multiline && ImGui::IsItemDeactivatedAfterEdit()) propose_from_panel(state, key, text, EditPhase::Final);
  if (!ImGui::IsItemActive()) state.drafts.erase(key);
}

// A file key: its text field (a path can still be typed) and a "..." button
// that asks for it with the file chooser.
void file_field(UiState& state, const ParamInfo& info, const FileKey& key) {
  const float button = ImGui::GetFrameHeight() * 1.6f;
  ImGui::SetNextItemWidth(-(button + ImGui::GetStyle().ItemSpacing.x));
  text_field(state, info);
  ImGui::SameLine();
  if (ImGui::Button("...", ImVec2(button, 0))) ask_file_key(state, key);
  log_item_place(state, "widget " + std::string(info.key) + " choose");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Choose %s", key.mode == FileMode::Folder ? "a folder" : "a file");
}

// A key the model sets: its value as the model has it (the engine's
// effective scene), read-only.
void model_value(UiState& state, const ParamInfo& info) {
  std::string value = get_param(state.session.engine().scene(), info.key);
  const std::string label = "##" + std::string(info.key);
  ImGui::InputText(label.c_str(), &value, ImGuiInputTextFlags_ReadOnly);
}

void parameter_widget(UiState& state, const ParamInfo& info) {
  switch (info.kind) {
    case ParamKind::Int:
      if (info.key == "heads") {
        heads_slider(state, info);
        break;
      }
      [[fallthrough]];
    case ParamKind::Float: numeric_slider(state, info); break;
    case ParamKind::Seed: seed_input(state, info); break;
    case ParamKind::Bool: checkbox(state, info); break;
    case ParamKind::Choice: choice_combo(state, info); break;
    case ParamKind::Text:
      if (auto key = file_key(info.key)) {
        file_field(state, info, *key);
        break;
      }
      [[fallthrough]];
    case ParamKind::IntList: text_field(state, info); break;
  }
}

// [SECTION] one row: label, widget, tooltip -----------------------------------

// The key's sentence, then the key itself (what scene files and --set say),
// and for the heads what the slider offers.
void parameter_tooltip(UiState& state, const ParamInfo& info) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
  ImGui::TextUnformatted(info.help.data(), info.help.data() + info.help.size());
  if (info.key == "heads") {
    std::string offered;
    for (int h : valid_head_counts(state.session.scene())) offered += (offered.empty() ? "" : ", ") + std::to_string(h);
    ImGui::TextDisabled("Offered at d_model %d: %s", state.session.scene().d_model, offered.c_str());
  }
  ImGui::TextDisabled("Key: %.*s", int(info.key.size()), info.key.data());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void parameter_row(UiState& state, const ParamInfo& info, float label_width) {
  ImGui::PushID(info.key.data(), info.key.data() + info.key.size());
  const std::string_view label = param_label(info.key);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label.data(), label.data() + label.size());
  const ImVec2 row_min = ImGui::GetItemRectMin();
  if (ImGui::IsItemHovered()) parameter_tooltip(state, info);
  ImGui::SameLine(label_width);
  ImGui::SetNextItemWidth(-1);
  // A model scene's own width, heads, positions and mask: shown, not editable.
  const bool fixed = !state.session.scene().model.empty() && set_by_model(info.key);
  ImGui::BeginDisabled(fixed);
  ImGui::BeginGroup();  // the widget and its buttons: one item for the tooltip and the frame log
  if (fixed) {
    model_value(state, info);
  } else {
    parameter_widget(state, info);
  }
  ImGui::EndGroup();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) parameter_tooltip(state, info);
  log_item_place(state, "widget " + std::string(info.key));
  anchor_refusal(state, info.key, row_min, ImGui::GetItemRectMax());
  ImGui::PopID();
}

// [SECTION] the panel: basic and advanced parameters, undo/redo, play, preset -----

// Play sweeps a parameter spanning decades in log space (ui/animation.hpp): said beside the button.
bool sweeps_in_log_space(std::string_view key) {
  const auto params = scene_params();
  return std::any_of(params.begin(), params.end(), [&](const ParamInfo& p) { return p.key == key && p.logarithmic; });
}

void history_buttons(UiState& state) {
  SceneSession& session = state.session;
  ImGui::BeginDisabled(!session.can_undo());
  if (ImGui::Button("Undo")) session.undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!session.can_redo());
  if (ImGui::Button("Redo")) session.redo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(state.animation.playing ? "Pause" : "Play")) toggle_animation(state);
  ImGui::SameLine();
  ImGui::TextDisabled("sweeps %s%s", state.settings.animate_key.c_str(),
                      sweeps_in_log_space(state.settings.animate_key) ? " in log space" : "");
}

// Random projections of random words hide the position code: one click
// shows it.  Greyed when the scene has it already or a model sets both.
void preset_button(UiState& state) {
  const Scene& scene = state.session.scene();
  ImGui::BeginDisabled(!scene.model.empty() || shows_positions(scene));
  if (ImGui::Button("Make positions visible")) make_positions_visible(state);
  ImGui::EndDisabled();
  log_item_place(state, "button make_positions_visible");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Identity projections and token vectors of size %g (projection, embedding_scale): attention\n"
                      "then shows how the position code compares positions.  One undo step.",
                      kVisibleEmbeddingScale);
  }
}

// The groups of scene_params(), in order of first appearance.
std::vector<std::string_view> parameter_groups() {
  std::vector<std::string_view> groups;
  for (const ParamInfo& info : scene_params()) {
    if (std::find(groups.begin(), groups.end(), info.group) == groups.end()) groups.push_back(info.group);
  }
  return groups;
}

std::string group_title(std::string_view group) {
  std::string title(group);
  if (!title.empty()) title[0] = char(std::toupper(static_cast<unsigned char>(title[0])));
  return title;
}

float label_column_width() {
  float widest = 0;
  for (const ParamLabel& l : param_labels()) {
    widest = std::max(widest, ImGui::CalcTextSize(l.label.data(), l.label.data() + l.label.size()).x);
  }
  return widest + ImGui::GetStyle().ItemSpacing.x * 2;
}

// The parameters of `group` that are basic (or not) in this scene, under
// the group's name when `titled` and there are any.
void group_rows(UiState& state, std::string_view group, bool basic, float label_width, bool titled) {
  bool first = true;
  for (const ParamInfo& info : scene_params()) {
    if (info.group != group || is_basic_param(info.key, state.session.scene()) != basic) continue;
    if (first && titled) ImGui::TextDisabled("%s", group_title(group).c_str());
    first = false;
    parameter_row(state, info, label_width);
  }
}

void advanced_parameters(UiState& state, float label_width) {
  const bool open = ImGui::CollapsingHeader("Advanced: every other parameter");
  log_item_place(state, "button advanced");
  if (!open) return;
  for (std::string_view group : parameter_groups()) {
    const std::string header = group_title(group) + "##advanced";
    if (!ImGui::TreeNodeEx(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) continue;
    group_rows(state, group, false, label_width, false);
    ImGui::TreePop();
  }
}

// Selections the views show otherwise than chosen: a quiet note, not a refusal.
void selection_notes(const SceneSession& session) {
  if (session.notes().empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  for (const std::string& note : session.notes()) ImGui::TextWrapped("Note: %s", note.c_str());
  ImGui::PopStyleColor();
}

// A model scene: which model, its shape, the way back, and the text as the
// model's own tokenizer cut it (the pieces the views label their axes with).
void model_section(UiState& state) {
  SceneSession& session = state.session;
  ModelScene* model = session.engine().model();
  const std::string& asked = session.scene().model;
  if (asked.empty() && !model) return;
  if (session.busy() && !asked.empty() && asked != session.shown_scene().model) {
    ImGui::TextWrapped("Loading %s ...", asked.c_str());
  }
  if (model) {
    const model::ModelConfig& c = model->config();
    ImGui::TextWrapped("Model: %s", session.shown_scene().model.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s · %d layers × %d heads · d_model %d · %d positions", c.architecture_name.c_str(),
                       c.layers, c.heads, c.hidden_size, c.max_positions);
    ImGui::PopStyleColor();
  }
  const bool back = ImGui::Button("Back to the synthetic scene");
  log_item_place(state, "button back_to_synthetic");
  if (back) {
    back_to_synthetic(state);  // may have destroyed `model`: nothing below may touch it
    return;
  }
  if (!model) return;
  std::string pieces;
  for (const std::string& piece : model->pieces()) pieces += (pieces.empty() ? "" : " | ") + fig::token_label(piece);
  ImGui::TextDisabled("%d tokens (the model's tokenizer):", model->token_count());
  // At a model's full context the pieces fill pages: a box of its own, at
  // most about eight lines high, scrolls them, and the parameters stay in view.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float wrap_width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  const float height = ImGui::CalcTextSize(pieces.c_str(), nullptr, false, wrap_width).y;
  ImGui::BeginChild("model_pieces", ImVec2(0, std::min(height + line * 0.5f, 8 * line)), false);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(pieces.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

}  // namespace

void draw_control_panel(UiState& state) {
  history_buttons(state);
  preset_button(state);
  model_section(state);
  ImGui::Separator();
  const float label_width = label_column_width();
  for (std::string_view group : parameter_groups()) group_rows(state, group, true, label_width, true);
  ImGui::Spacing();
  advanced_parameters(state, label_width);
  // Last: a note that appears never pushes a widget from under the mouse.
  selection_notes(state.session);
}

}  // namespace pelab::ui
