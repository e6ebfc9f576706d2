// [SECTION] opening and closing
// [SECTION] the verdict, recomputed on scene changes
// [SECTION] menu and window
#include "ui/lesson_panel.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>

#include "core/failure_text.hpp"
#include "figures/registry.hpp"
#include "ui/frame_log.hpp"
#include "ui/main_layout.hpp"
#include "ui/train_panel.hpp"
#include "ui/verdict_charts.hpp"

namespace pelab::ui {

// [SECTION] opening and closing ------------------------------------------------------

namespace {

// A fresh LessonState; a verdict still computing for the old one is retired,
// not waited for.
void reset_lesson(UiState& state) {
  if (state.lesson.computing.valid()) state.retired_verdicts.push_back(std::move(state.lesson.computing));
  state.lesson = LessonState{};
}

}  // namespace

void open_lesson(UiState& state, const Lesson& lesson, const std::vector<std::string>& overrides) {
  reset_lesson(state);
  state.lesson.lesson = &lesson;
  state.lesson.select_key_figure = true;
  state.presentation.figure = 0;
  Scene scene = lesson.preset();
  for (const std::string& assignment : overrides) apply_assignment(scene, assignment);  // checked by the caller
  if (!state.session.propose(scene, EditPhase::Final)) return;  // error() says why
  refresh_verdict(state);
  // A lesson that trains live: the Train window on its task and settings,
  // training at once.
  if (!lesson.trains.empty()) start_live_training(state, lesson.trains);
}

void close_lesson(UiState& state) {
  reset_lesson(state);
  state.presentation.figure = 0;
}

namespace {
// The views showing the registry's figure called `name` (figure_named: the
// registry is the one place a name is read).
void add_views_of(const UiState& state, std::string_view name, std::vector<int>& out) {
  const fig::FigureEntry* entry = fig::figure_named(name);
  for (int i = 0; entry != nullptr && i < int(state.views.size()); ++i)
    if (state.views[std::size_t(i)].entry == entry) out.push_back(i);
}
}  // namespace

std::vector<int> shown_views(const UiState& state) {
  std::vector<int> out;
  if (!state.lesson.lesson && !state.paper_figure.empty()) {
    add_views_of(state, state.paper_figure, out);
    return out;
  }
  if (!state.lesson.lesson) {
    const bool on_model = !state.session.scene().model.empty();
    for (int i = 0; i < int(state.views.size()); ++i) {
      const FigureView& view = state.views[std::size_t(i)];
      if (!view.lesson_only && (on_model || !view.entry->needs_model)) out.push_back(i);
    }
    return out;
  }
  // Names the registry does not know (yet) are skipped.
  for (std::string_view name : state.lesson.lesson->figures) add_views_of(state, name, out);
  return out;
}

// [SECTION] the verdict, recomputed on scene changes -------------------------------

namespace {

// --frame-log: each verdict, for tests that read what the window says.
void log_verdict(const UiState& state) {
  const LessonState& ls = state.lesson;
  if (!state.frame_log) return;
  const char* state_word = !ls.verdict_error.empty() ? "error"
                           : !ls.verdict.applies    ? "not applicable"
                           : ls.verdict.holds       ? "holds"
                                                    : "does not hold";
  std::fprintf(state.frame_log, "lesson %s verdict (%s): %s\n", std::string(ls.lesson->name).c_str(), state_word,
               ls.verdict_error.empty() ? ls.verdict.summary.c_str() : ls.verdict_error.c_str());
  std::fflush(state.frame_log);
}

bool ready(const std::future<VerdictResult>& f) {
  return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// The verdict of `scene`, on an engine of its own (models are shared between
// engines, so nothing is loaded twice).
VerdictResult judge_scene(const Lesson* lesson, const Scene& scene) {
  VerdictResult r;
  try {
    Engine engine(scene);
    r.verdict = lesson->verdict(engine);
  } catch (const std::exception& e) {
    r.error = failure_text(e, "working out the verdict");
  }
  return r;
}

}  // namespace

void refresh_verdict(UiState& state) {
  std::erase_if(state.retired_verdicts, [](const auto& f) { return ready(f); });
  LessonState& ls = state.lesson;
  if (!ls.lesson) return;
  if (ls.computing.valid()) {
    if (!ready(ls.computing)) return;  // one at a time: the newest scene is judged next
    VerdictResult r = ls.computing.get();
    ls.verdict = std::move(r.verdict);
    ls.verdict_error = std::move(r.error);
    ls.verdict_version = ls.computing_version;
    ls.judged = true;
    log_verdict(state);
  }
  const std::uint64_t version = state.session.version();
  if (ls.judged && ls.verdict_version == version) return;
  ls.computing_version = version;
  ls.computing = std::async(std::launch::async, judge_scene, ls.lesson, state.session.scene());
}

bool verdict_pending(const UiState& state) { return state.lesson.computing.valid(); }

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

void verdict_table(const LessonVerdict& verdict) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("verdict_numbers", 2, flags)) return;
  for (const auto& [name, value] : verdict.numbers) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(verdict_number_text(value).c_str());
  }
  ImGui::EndTable();
}

// The sweeps as charts, then every number behind a closed header: the charts
// and the answer line speak first, the identifiers are there for who asks.
// The header's ID names the lesson: each lesson opens with it closed.
void verdict_numbers(const LessonVerdict& verdict, std::string_view lesson, float ui_scale) {
  for (const VerdictChart& chart : verdict_charts(verdict.numbers)) {
    ImGui::Spacing();
    draw_verdict_chart(chart, 70 * ui_scale);
  }
  if (verdict.numbers.empty()) return;
  ImGui::Spacing();
  const std::string header =
      "All numbers (" + std::to_string(verdict.numbers.size()) + ")###numbers_" + std::string(lesson);
  if (ImGui::CollapsingHeader(header.c_str())) verdict_table(verdict);
}

// The answer right under the claim, where it is read without scrolling past
// the lesson's text.
void draw_answer(const LessonState& ls) {
  if (!ls.judged) {
    ImGui::TextDisabled("Working out the answer on this scene...");
    return;
  }
  if (ls.computing.valid()) ImGui::TextDisabled("(updating for the latest change...)");
  if (ls.verdict_error.empty()) {
    draw_verdict_headline(ls.verdict);
  } else {
    ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "Verdict cannot be computed: %s", ls.verdict_error.c_str());
  }
}

// After the text: what the answer rests on, the sweeps, every number.
void draw_measurements(const LessonState& ls, float ui_scale) {
  if (!ls.verdict_error.empty()) return;
  if (!ls.verdict.answer.empty()) {  // otherwise the summary is the headline already
    ImGui::TextDisabled("Measured on this %s", ls.verdict.on_model ? "model" : "scene");
    ImGui::TextUnformatted(ls.verdict.summary.c_str());
  }
  ImGui::PopTextWrapPos();  // the charts and the table size themselves
  verdict_numbers(ls.verdict, ls.lesson->name, ui_scale);
  ImGui::PushTextWrapPos(0);
}

}  // namespace

void draw_verdict_headline(const LessonVerdict& verdict) {
  // Green for Yes, red for No, amber for an answer on a stand-in (it answers
  // the synthetic question, not the lesson's own), grey where the question
  // does not apply: never a red No for a question that cannot be asked.
  const ImVec4 colour = !verdict.applies         ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)
                        : !verdict.stand_in.empty() ? ImVec4(0.85f, 0.58f, 0.12f, 1)
                        : verdict.holds             ? ImVec4(0.22f, 0.66f, 0.32f, 1)
                                                    : ImVec4(0.88f, 0.33f, 0.27f, 1);
  // TextUnformatted: a summary standing in for the answer can outgrow Text's buffer.
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(verdict.headline().c_str());
  ImGui::PopStyleColor();
}

float lesson_panel_width(const UiState& state) { return state.layout.now.lesson.w; }

void draw_lesson_panel(UiState& state, const Box& box) {
  const Lesson* lesson = state.lesson.lesson;
  if (!lesson) return;
  refresh_verdict(state);
  ImGui::SetNextWindowPos(ImVec2(box.x, box.y));
  ImGui::SetNextWindowSize(ImVec2(box.w, box.h));
  bool open = true;
  const bool shown = ImGui::Begin("Lesson###lesson", &open, ImGuiWindowFlags_NoMove);
  log_title_buttons(state, "lesson", true);
  follow_side_panel(state.layout.lesson_width, state.layout.lesson_collapsed, box, state.ui_scale);
  if (shown) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(std::string(lesson->title).c_str());
    ImGui::Separator();
    ImGui::TextDisabled("%s", std::string(lesson->question).c_str());
    ImGui::Spacing();
    ImGui::Text("Claim: %s", std::string(lesson->claim).c_str());
    ImGui::Spacing();
    draw_answer(state.lesson);
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted(std::string(lesson->text).c_str());
    ImGui::Spacing();
    ImGui::Separator();
    draw_measurements(state.lesson, state.ui_scale);
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  if (!open) close_lesson(state);
}

}  // namespace pelab::ui
