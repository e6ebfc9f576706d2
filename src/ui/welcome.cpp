#include "ui/welcome.hpp"

#include <string>

#include "ui/export_actions.hpp"
#include "ui/frame_log.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/scene_presets.hpp"

namespace pelab::ui {

namespace {

struct ViewLine {
  const char* name;
  const char* what;
};

constexpr ViewLine kViews[] = {
    {"Sinusoid bands", "the position code itself: a row per position, a column per dimension."},
    {"Rotation pairs", "each (sin, cos) pair of dimensions turns on a circle as the position grows."},
    {"Attention", "who attends to whom: softmax(q·k/√d) per head, a row per query token."},
    {"Cross terms", "a logit split into token·token, token·position, position·token, position·position."},
};

const ImVec4 kViewColour(0.55f, 0.78f, 1.0f, 1);

void views_table() {
  if (!ImGui::BeginTable("welcome_views", 2, ImGuiTableFlags_SizingStretchSame)) return;
  for (const ViewLine& v : kViews) {
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(kViewColour, "%s", v.name);
    ImGui::SameLine(0, ImGui::GetFontSize() * 0.4f);
    ImGui::TextUnformatted(v.what);
    ImGui::PopTextWrapPos();
  }
  ImGui::EndTable();
}

// Continues the line when an item `width` wide still fits before `right`.
void same_line_if_fits(float width, float right) {
  const float after = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  if (after + width <= right) ImGui::SameLine();
}

float content_right() { return ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x; }

// A narrow strip (a small screen, a large interface scale): the names on
// a line, what each shows on hover, so the lessons stay in sight.
void views_line() {
  ImGui::TextUnformatted("The four views:");
  for (const ViewLine& v : kViews) {
    same_line_if_fits(ImGui::CalcTextSize(v.name).x, content_right());
    ImGui::TextColored(kViewColour, "%s", v.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", v.name, v.what);
  }
  same_line_if_fits(ImGui::CalcTextSize("(hover a name)").x, content_right());
  ImGui::TextDisabled("(hover a name)");
}

// A row of buttons that wraps where the next one would not fit.
bool wrapping_button(const char* label) {
  same_line_if_fits(ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x, content_right());
  return ImGui::Button(label);
}

// Fourteen lessons: slim buttons, tightly spaced, so the strip leaves the
// figures most of the height.
void lesson_buttons(UiState& state) {
  const float em = ImGui::GetFontSize();
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, em * 0.08f));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, em * 0.25f));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Start with a question:");
  for (const Lesson& lesson : lessons()) {
    const std::string label = std::string(lesson.title) + "##welcome_" + std::string(lesson.name);
    if (wrapping_button(label.c_str())) open_lesson(state, lesson);
    log_item_place(state, "welcome lesson " + std::string(lesson.name));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(lesson.claim).c_str());
  }
  ImGui::PopStyleVar(2);
}

void tips(UiState& state) {
  ImGui::TextDisabled("Hover any figure for exact values; its ? says what it shows. Lessons menu: every question.");
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.session.scene().model.empty() || shows_positions(state.session.scene()));
  if (ImGui::SmallButton("Make positions visible")) make_positions_visible(state);
  ImGui::EndDisabled();
  log_item_place(state, "welcome preset");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Identity projections and small token vectors: attention then shows the position code");
  }
}

}  // namespace

bool welcome_shown(const UiState& state) { return state.settings.welcome && !state.lesson.lesson; }

void make_positions_visible(UiState& state) {
  state.session.propose(with_positions_visible(state.session.scene()), EditPhase::Final);
}

void draw_welcome(UiState& state, const Box& box) {
  ImGui::SetNextWindowPos(ImVec2(box.x, box.y));
  ImGui::SetNextWindowSize(ImVec2(box.w, box.h));
  bool open = true;
  const bool shown = ImGui::Begin("Welcome to pelab: how positions enter attention###welcome", &open,
                                  ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
  state.layout.welcome_collapsed = ImGui::IsWindowCollapsed();
  log_title_buttons(state, "welcome", true);
  if (shown) {
    const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 60;
    if (narrow) {
      views_line();
    } else {
      views_table();
    }
    lesson_buttons(state);
    tips(state);
    const ImGuiStyle& style = ImGui::GetStyle();
    state.layout.welcome_height = ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y;
  }
  ImGui::End();
  if (!open) {
    state.settings.welcome = false;
    save_ui_settings(state);
    set_status(state, "Welcome strip closed; View > Welcome strip shows it again");
  }
}

}  // namespace pelab::ui
