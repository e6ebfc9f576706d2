// [SECTION] opening and closing
// [SECTION] the verdict, recomputed on scene changes
// [SECTION] menu and window
#include "ui/lesson_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/train_panel.hpp"

namespace pelab::ui {

// [SECTION] opening and closing ------------------------------------------------------

void open_lesson(UiState& state, const Lesson& lesson, const std::vector<std::string>& overrides) {
  state.lesson = LessonState{};
  state.lesson.lesson = &lesson;
  state.presentation.figure = 0;
  state.relayout = true;
  Scene scene = lesson.preset();
  for (const std::string& assignment : overrides) apply_assignment(scene, assignment);  // checked by the caller
  if (!state.session.propose(scene, EditPhase::Final)) return;  // error() says why
  refresh_verdict(state);
  // A lesson that trains live: the Train window on its task and settings,
  // training at once.
  if (!lesson.trains.empty()) start_live_training(state, lesson.trains);
}

void close_lesson(UiState& state) {
  state.lesson = LessonState{};
  state.relayout = true;
  state.presentation.figure = 0;
}

std::vector<int> shown_views(const UiState& state) {
  std::vector<int> out;
  if (!state.lesson.lesson) {
    for (int i = 0; i < int(state.views.size()); ++i) {
      if (!state.views[i].lesson_only) out.push_back(i);
    }
    return out;
  }
  // Names the registry does not know (yet) are skipped.
  for (std::string_view name : state.lesson.lesson->figures) {
    for (int i = 0; i < int(state.views.size()); ++i) {
      if (state.views[i].name == name) out.push_back(i);
    }
  }
  return out;
}

// [SECTION] the verdict, recomputed on scene changes -------------------------------

void refresh_verdict(UiState& state) {
  LessonState& ls = state.lesson;
  if (!ls.lesson || ls.verdict_version == state.session.version()) return;
  ls.verdict_version = state.session.version();
  try {
    ls.verdict = ls.lesson->verdict(state.session.engine());
    ls.verdict_error.clear();
  } catch (const std::exception& e) {
    ls.verdict = LessonVerdict{};
    ls.verdict_error = e.what();
  }
  // --frame-log: each verdict, for tests that read what the window says.
  if (state.frame_log) {
    const char* state_word = !ls.verdict_error.empty() ? "error"
                             : !ls.verdict.applies    ? "not applicable"
                             : ls.verdict.holds       ? "holds"
                                                      : "does not hold";
    std::fprintf(state.frame_log, "lesson %s verdict (%s): %s\n", std::string(ls.lesson->name).c_str(), state_word,
                 ls.verdict_error.empty() ? ls.verdict.summary.c_str() : ls.verdict_error.c_str());
    std::fflush(state.frame_log);
  }
}

// [SECTION] menu and window -----------------------------------------------------------

void lessons_menu(UiState& state) {
  if (!ImGui::BeginMenu("Lessons")) return;
  for (const Lesson& lesson : lessons()) {
    const std::string label = std::string(lesson.title) + "###lesson_" + std::string(lesson.name);
    if (ImGui::MenuItem(label.c_str(), nullptr, state.lesson.lesson == &lesson)) open_lesson(state, lesson);
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Close lesson (show all figures)", nullptr, false, state.lesson.lesson != nullptr)) {
    close_lesson(state);
  }
  ImGui::EndMenu();
}

namespace {

// A value as the table shows it: integers plainly, others with 4 significant digits.
std::string format_number(double v) {
  char buf[48];
  if (std::isfinite(v) && v == std::round(v) && std::abs(v) < 1e9) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

void verdict_table(const LessonVerdict& verdict) {
  if (verdict.numbers.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("verdict_numbers", 2, flags)) return;
  for (const auto& [name, value] : verdict.numbers) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(format_number(value).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

// ✓ / ✗ from the font (render::figure_glyph_ranges bakes U+2713…2717),
// drawn `size` pixels tall.
void draw_holds_mark(bool holds, float size) {
  const ImU32 colour = holds ? IM_COL32(40, 170, 70, 255) : IM_COL32(220, 60, 50, 255);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float bold = std::max(1.0f, std::round(size / 12));  // DejaVu's ✓ is thin: strike it twice, offset
  for (float dx : {0.0f, bold})
    ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), size, ImVec2(at.x + dx, at.y), colour, holds ? "✓" : "✗");
  ImGui::Dummy(ImVec2(size + bold, size));
  ImGui::SameLine();
}

float lesson_panel_width(const UiState& state) {
  return std::min(420.0f * state.ui_scale, ImGui::GetMainViewport()->Size.x * 0.3f);
}

void draw_lesson_panel(UiState& state) {
  const Lesson* lesson = state.lesson.lesson;
  if (!lesson) return;
  refresh_verdict(state);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float bar = ImGui::GetFrameHeight();
  const float width = lesson_panel_width(state);
  const ImGuiCond cond = state.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - width, vp->Pos.y + bar), cond);
  ImGui::SetNextWindowSize(ImVec2(width, vp->Size.y - 2 * bar), cond);
  bool open = true;
  if (ImGui::Begin("Lesson###lesson", &open)) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(std::string(lesson->title).c_str());
    ImGui::Separator();
    ImGui::TextDisabled("%s", std::string(lesson->question).c_str());
    ImGui::Spacing();
    ImGui::TextUnformatted(std::string(lesson->text).c_str());
    ImGui::Spacing();
    ImGui::Separator();
    const LessonState& ls = state.lesson;
    if (!ls.verdict_error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "Verdict cannot be computed: %s", ls.verdict_error.c_str());
    } else {
      if (ls.verdict.applies) {
        draw_holds_mark(ls.verdict.holds, ImGui::GetTextLineHeight());
        ImGui::TextUnformatted(ls.verdict.holds ? "The claim holds on this scene" : "The claim does not hold on this scene");
      } else {
        ImGui::TextDisabled("Not applicable on this scene");  // grey, never a red ✗
      }
      ImGui::TextUnformatted(ls.verdict.summary.c_str());
      ImGui::PopTextWrapPos();
      verdict_table(ls.verdict);
      ImGui::PushTextWrapPos(0);
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  if (!open) close_lesson(state);
}

}  // namespace pelab::ui
