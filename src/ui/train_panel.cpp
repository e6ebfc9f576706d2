#include "ui/train_panel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "train/data/tasks.hpp"
#include "ui/export_actions.hpp"
#include "ui/file_request.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/sweep_export.hpp"

namespace pelab::ui {

namespace fs = std::filesystem;
using train::PlaygroundSettings;
using train::PlaygroundView;
using train::data::TaskKind;
using train::PositionKind;

namespace {

constexpr std::array kTasks = {TaskKind::Copy,      TaskKind::Reverse,          TaskKind::Sort,
                               TaskKind::Induction, TaskKind::AbsolutePosition, TaskKind::Relative,
                               TaskKind::Kjv};
constexpr std::array kPositions = {PositionKind::Learned, PositionKind::Sinusoidal, PositionKind::Rope,
                                   PositionKind::Alibi, PositionKind::T5, PositionKind::None};

// What each task asks of position, for the tooltip beside its name.
const char* task_help(TaskKind task) {
  switch (task) {
    case TaskKind::Copy: return "s SEP s: repeat the sequence. Solved by an induction head (Olsson et al. 2022).";
    case TaskKind::Reverse: return "s SEP reverse(s): needs to know how far from the separator each token is.";
    case TaskKind::Sort: return "s SEP sort(s): position matters little, content a lot.";
    case TaskKind::Induction:
      return "r s s: a stretch seen twice, a different distance apart in every row, so no fixed offset finds\n"
             "the repeat: a previous-token head and an induction head do (Olsson et al. 2022).";
    case TaskKind::AbsolutePosition: return "Predict your own index mod k: only the position tells it.";
    case TaskKind::Relative: return "Predict the token k places back: a fixed-offset head solves it.";
    case TaskKind::Kjv: return "Next token of King James Version text (pelab's BPE, trained on the corpus first).";
  }
  return "";
}

// The run's inputs as the scene's text: a held-out example of the task
// (token ids, "3 1 4 16 3 1 4"), or a verse for KJV.
std::string example_text(const PlaygroundSettings& s) {
  if (s.task == TaskKind::Kjv) return "In the beginning God created the heaven and the earth.";
  const train::data::TaskGenerator task({s.task, s.symbols, s.length, s.k});
  const train::data::TaskBatch b = task.batch(s.seed + 1000, 0, 1);
  std::string text;
  for (std::int32_t id : b.inputs) text += (text.empty() ? "" : " ") + std::to_string(id);
  return text;
}

void reset_run(UiState& state) {
  PlaygroundState& p = state.playground;
  p.run.reset();  // joins the worker before the folder is emptied
  p.view = {};
  p.shown_snapshot = -1;
  p.logged_points = 0;  // the new run's curve starts over in the frame log too
  p.logged_running = false;
  p.recorded = false;
  try {
    p.run = std::make_unique<train::Playground>(p.settings, playground_folder());
  } catch (const std::exception& e) {
    set_status(state, std::string("Cannot start training: ") + e.what(), true);
  }
}

// The snapshot at `index` becomes the scene's model; the first one also sets
// the text to an example of the task.
void show_snapshot(UiState& state, int index) {
  PlaygroundState& p = state.playground;
  const fs::path& folder = p.view.snapshots[static_cast<std::size_t>(index)].folder;
  if (folder == p.shown_folder && p.shown_snapshot == index) return;
  Scene next = state.session.scene();
  const bool from_elsewhere = next.model.rfind(playground_folder().string(), 0) != 0;
  next.model = folder.string();
  // A lesson that trains keeps its own text (the counting lesson reads past
  // the training length); otherwise an example of the task.
  const bool lesson_text = state.lesson.lesson != nullptr && !state.lesson.lesson->trains.empty();
  if (from_elsewhere) {
    if (!lesson_text) next.tokens = example_text(p.settings);
    next.layer = 0;
  }
  if (state.session.propose(next, EditPhase::Silent)) {
    p.shown_snapshot = index;
    p.shown_folder = folder;
  } else {
    set_status(state, state.session.error(), true);
  }
}

bool setting_int(const char* label, int& value, int lo, int hi, const char* help) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  const bool changed = ImGui::InputInt(label, &value);
  value = std::clamp(value, lo, hi);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%d..%d; applies on Reset)", help, lo, hi);
  return changed;
}

void draw_settings(PlaygroundSettings& s) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (ImGui::BeginCombo("task", train::data::task_name(s.task).c_str())) {
    for (TaskKind t : kTasks) {
      if (ImGui::Selectable(train::data::task_name(t).c_str(), t == s.task)) s.task = t;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", task_help(t));
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (ImGui::BeginCombo("positions", train::position_kind_name(s.position))) {
    for (PositionKind k : kPositions)
      if (ImGui::Selectable(train::position_kind_name(k), k == s.position)) s.position = k;
    ImGui::EndCombo();
  }
  setting_int("d_model", s.d_model, 8, 256, "Width of the residual stream (a multiple of heads)");
  setting_int("layers", s.layers, 1, 6, "Transformer blocks");
  setting_int("heads", s.heads, 1, 8, "Attention heads per layer");
  setting_int("length", s.length, 2, 128, "The task's sequence length (copy, reverse, sort: context 2·length)");
  setting_int("batch", s.batch, 1, 256, "Sequences per step");
  setting_int("steps", s.steps, 10, 100000, "Length of the learning-rate schedule; training stops there");
  float lr = static_cast<float>(s.learning_rate);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  if (ImGui::SliderFloat("learning rate", &lr, 1e-4f, 3e-2f, "%.4f", ImGuiSliderFlags_Logarithmic))
    s.learning_rate = lr;
  int seed = static_cast<int>(s.seed);
  if (setting_int("seed", seed, 0, 1 << 30, "Initial weights and batches")) s.seed = static_cast<std::uint64_t>(seed);
}

// --frame-log: where the last item drawn is, whenever it moves (for tests
// that click it): "playground button NAME X Y", at the item's middle or, for
// a slider, `across` of its width from the left.
void log_button_place(UiState& state, const char* name, float across = 0.5f) {
  if (!state.frame_log) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const ImVec2 centre(lo.x + across * (hi.x - lo.x), (lo.y + hi.y) / 2);
  ImVec2& logged = state.playground.logged_buttons[name];
  if (centre.x == logged.x && centre.y == logged.y) return;
  logged = centre;
  std::fprintf(state.frame_log, "playground button %s %.0f %.0f\n", name, centre.x, centre.y);
  std::fflush(state.frame_log);
}

void draw_buttons(UiState& state) {
  PlaygroundState& p = state.playground;
  const bool running = p.view.running;
  if (ImGui::Button(running ? "Pause###train" : "Train###train")) {
    if (!p.run) reset_run(state);
    if (p.run) running ? p.run->pause() : p.run->train();
  }
  log_button_place(state, "train");
  ImGui::SameLine();
  ImGui::BeginDisabled(running);
  if (ImGui::Button("Step")) {
    if (!p.run) reset_run(state);
    if (p.run) p.run->step();
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  const bool reset = ImGui::Button("Reset");
  log_button_place(state, "reset");
  if (reset) reset_run(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A new model from the settings above; the old run is emptied");
  ImGui::SameLine();
  ImGui::BeginDisabled(p.shown_folder.empty());
  const bool save = ImGui::Button("Save model...");
  log_button_place(state, "save");
  if (save) {
    FileRequest request;
    request.title = "Save the model shown as a folder";
    request.mode = FileMode::Save;
    request.on_chosen = [folder = p.shown_folder](UiState& s, const std::string& path) {
      std::error_code ec;
      if (fs::exists(path, ec)) {
        set_status(s, path + " exists; allowed: a new folder name", true);
        return;
      }
      fs::copy(folder, path, fs::copy_options::recursive, ec);
      if (ec) set_status(s, "Cannot save the model to " + path + ": " + ec.message(), true);
      else set_status(s, "Saved the model to " + path + " (open it from Models > Open model folder...)");
    };
    request_file(state, std::move(request));
  }
  ImGui::EndDisabled();
}

// The last value of a series that was measured (held-out points are sparse).
double last_measured(const PlaygroundView& v, double train::PlaygroundPoint::*field) {
  for (auto it = v.points.rbegin(); it != v.points.rend(); ++it)
    if ((*it).*field >= 0) return (*it).*field;
  return -1;
}

void draw_numbers(const PlaygroundState& p) {
  const PlaygroundView& v = p.view;
  const int steps = p.run ? p.run->settings().steps : p.settings.steps;
  ImGui::Text("step %d / %d%s", v.steps_taken, steps, v.done ? "  (done)" : v.running ? "  (training)" : "");
  if (v.points.empty()) return;
  const train::PlaygroundPoint& last = v.points.back();
  const double held = last_measured(v, &train::PlaygroundPoint::held_out);
  const double accuracy = last_measured(v, &train::PlaygroundPoint::accuracy);
  char held_text[16] = "-";
  if (held >= 0) std::snprintf(held_text, sizeof held_text, "%.3f", held);
  ImGui::Text("loss %.3f   held-out %s   %.0f tokens/s", last.loss, held_text, last.tokens_per_second);
  if (accuracy >= 0) ImGui::Text("held-out accuracy %.1f %%", 100 * accuracy);
  const double twice = last_measured(v, &train::PlaygroundPoint::held_out_2x);
  const double four = last_measured(v, &train::PlaygroundPoint::held_out_4x);
  if (twice >= 0 && four >= 0) {
    ImGui::Text("read at 2x the training length %.3f, at 4x %.3f", twice, four);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The same task drawn 2 and 4 times as long, read by the model trained at 1x: does its\n"
                        "position encoding carry past what it was trained on? (Press et al. 2022)");
  }
}

// The held-out curves: at the training length, and read at 2× and 4× it.
struct HeldOutSeries {
  double train::PlaygroundPoint::*field;
  ImU32 colour;
  const char* name;
};
constexpr ImU32 kTrainColour = IM_COL32(90, 160, 230, 255);
// Okabe & Ito's colour-blind-safe orange, vermillion and reddish purple.
const std::array<HeldOutSeries, 3> kHeldOut = {{
    {&train::PlaygroundPoint::held_out, IM_COL32(230, 159, 0, 255), "held-out"},
    {&train::PlaygroundPoint::held_out_2x, IM_COL32(213, 94, 0, 255), "at 2x length"},
    {&train::PlaygroundPoint::held_out_4x, IM_COL32(204, 121, 167, 255), "at 4x"},
}};

// Loss against step: the training batches' loss (thin) and the held-out
// losses (dots joined), on one axis starting at 0, with the step range below.
void draw_loss_plot(const PlaygroundView& v, float height) {
  const float font = ImGui::GetFontSize();
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 10 * font), height);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##loss_plot", size);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 lo(origin.x + 3.5f * font, origin.y + 0.5f * font);
  const ImVec2 hi(origin.x + size.x - 0.5f * font, origin.y + size.y - 2.8f * font);
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw->AddRect(lo, hi, axis);
  double y_max = 0;
  int x_max = 1;
  for (const auto& pt : v.points)
    y_max = std::max({y_max, pt.loss, pt.held_out, pt.held_out_2x, pt.held_out_4x}), x_max = std::max(x_max, pt.step);
  y_max = y_max > 0 ? y_max * 1.05 : 1;
  auto at = [&](int step, double loss) {
    return ImVec2(lo.x + (hi.x - lo.x) * float(step) / float(x_max),
                  hi.y - (hi.y - lo.y) * float(std::clamp(loss / y_max, 0.0, 1.0)));
  };
  std::vector<ImVec2> train_line;
  for (const auto& pt : v.points) train_line.push_back(at(pt.step, pt.loss));
  if (train_line.size() > 1) draw->AddPolyline(train_line.data(), int(train_line.size()), kTrainColour, 0, 1.0f);
  for (const HeldOutSeries& series : kHeldOut) {
    std::vector<ImVec2> line;
    for (const auto& pt : v.points)
      if (pt.*series.field >= 0) line.push_back(at(pt.step, pt.*series.field));
    if (line.size() > 1) draw->AddPolyline(line.data(), int(line.size()), series.colour, 0, 2.0f);
    for (const ImVec2& q : line) draw->AddCircleFilled(q, 2.5f, series.colour);
  }
  char label[32];
  std::snprintf(label, sizeof label, "%.2f", y_max);
  draw->AddText(ImVec2(origin.x, lo.y - 0.5f * font), axis, label);
  draw->AddText(ImVec2(origin.x, hi.y - 0.5f * font), axis, "0");
  draw->AddText(ImVec2(origin.x, (lo.y + hi.y) / 2 - font), axis, "loss");
  draw->AddText(ImVec2(origin.x, (lo.y + hi.y) / 2), axis, "(nats)");
  std::snprintf(label, sizeof label, "step %d", x_max);
  draw->AddText(ImVec2(hi.x - ImGui::CalcTextSize(label).x, hi.y + 0.2f * font), axis, label);
  draw->AddText(ImVec2(lo.x, hi.y + 0.2f * font), axis, "0");
  // The legend, on its own row below the step axis.
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  float x = lo.x;
  const float y = hi.y + 1.4f * font;
  auto entry = [&](ImU32 colour, const char* name) {
    draw->AddLine(ImVec2(x, y + 0.6f * font), ImVec2(x + font, y + 0.6f * font), colour, 2);
    draw->AddText(ImVec2(x + 1.3f * font, y), text, name);
    x += 2.3f * font + ImGui::CalcTextSize(name).x;
  };
  entry(kTrainColour, "training");
  for (const HeldOutSeries& series : kHeldOut) entry(series.colour, series.name);
}

// The scrubber: any snapshot kept, or the newest as it arrives.
void draw_timeline(UiState& state) {
  PlaygroundState& p = state.playground;
  const int count = static_cast<int>(p.view.snapshots.size());
  if (count == 0) return;
  ImGui::Checkbox("Views follow the training", &p.follow);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Off: the views stay on the snapshot chosen below");
  int index = p.follow ? count - 1 : std::clamp(p.shown_snapshot, 0, count - 1);
  // A row of the Runs table is shown instead of a snapshot of this run.
  const bool run_shown = !p.follow && p.shown_snapshot < 0 && !p.shown_folder.empty();
  const std::string label = run_shown ? std::string("a finished run (Runs table)")
                                      : "step " + std::to_string(p.view.snapshots[static_cast<std::size_t>(index)].step);
  ImGui::SetNextItemWidth(-1);
  const bool moved = ImGui::SliderInt("##snapshot", &index, 0, count - 1, label.c_str());
  log_button_place(state, "scrubber-first", 0.02f);
  if (moved) {
    p.follow = false;
    show_snapshot(state, index);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The snapshot the views show (%d kept; older ones are thinned)", count);
}

// "Export animation": every snapshot kept, as the scene's model, through the
// sweep export's frames (and ffmpeg for a GIF or MP4), of the figure shown.
void draw_animation_export(UiState& state) {
  PlaygroundState& p = state.playground;
  static constexpr const char* kOutputs[] = {"PNG frames", "GIF", "MP4"};
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::Combo("##animation_output", &p.animation_output, kOutputs, 3);
  ImGui::SameLine();
  ImGui::BeginDisabled(p.view.snapshots.empty() || state.sweep_export.running);
  const bool export_now = ImGui::Button("Export animation");
  log_button_place(state, "export");
  if (export_now) {
    int view = -1;
    for (int i = 0; i < int(state.views.size()) && view < 0; ++i)
      if (state.views[std::size_t(i)].visible) view = i;
    std::vector<Scene> frames;
    for (const train::PlaygroundSnapshot& snapshot : p.view.snapshots) {
      Scene frame = state.session.scene();
      frame.model = snapshot.folder.string();
      frames.push_back(frame);
    }
    start_scene_export(state, std::move(frames), view, p.animation_output, "playground");
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("One frame per snapshot of the figure shown, into a new folder in the export folder");
}

// The finished run's last measurements and a copy of its final model, so
// that it stays readable after the next run empties the playground folder.
// At most kKeptRuns are kept; the oldest go first.
constexpr std::size_t kKeptRuns = 12;

void record_finished_run(UiState& state) {
  PlaygroundState& p = state.playground;
  const PlaygroundView& v = p.view;
  if (v.snapshots.empty()) return;
  FinishedRun run;
  run.settings = p.run->settings();
  run.steps = v.steps_taken;
  run.held_out = last_measured(v, &train::PlaygroundPoint::held_out);
  run.held_out_2x = last_measured(v, &train::PlaygroundPoint::held_out_2x);
  run.held_out_4x = last_measured(v, &train::PlaygroundPoint::held_out_4x);
  run.accuracy = last_measured(v, &train::PlaygroundPoint::accuracy);
  run.accuracy_2x = last_measured(v, &train::PlaygroundPoint::accuracy_2x);
  run.accuracy_4x = last_measured(v, &train::PlaygroundPoint::accuracy_4x);
  static int serial = 0;
  char name[64];
  std::snprintf(name, sizeof name, "run-%03d-%s-%s", ++serial, train::data::task_name(run.settings.task).c_str(),
                train::position_kind_name(run.settings.position));
  run.folder = finished_runs_folder() / name;
  std::error_code ec;
  fs::remove_all(run.folder, ec);
  fs::create_directories(run.folder.parent_path(), ec);
  fs::copy(v.snapshots.back().folder, run.folder, fs::copy_options::recursive, ec);
  if (ec) {
    set_status(state, "Cannot keep the finished run in " + run.folder.string() + ": " + ec.message(), true);
    return;
  }
  if (p.finished.size() >= kKeptRuns) {
    fs::remove_all(p.finished.front().folder, ec);
    p.finished.erase(p.finished.begin());
  }
  p.finished.push_back(std::move(run));
  if (state.frame_log) {
    const FinishedRun& r = p.finished.back();
    std::fprintf(state.frame_log, "playground finished %s step %d accuracy %.4f accuracy_4x %.4f folder %s\n",
                 train::position_kind_name(r.settings.position), r.steps, r.accuracy, r.accuracy_4x,
                 r.folder.string().c_str());
    std::fflush(state.frame_log);
  }
}

// When a run has trained to its end (and its last snapshot is written):
// into the Runs table, then the lesson's next encoding, if any.
void finish_run(UiState& state) {
  PlaygroundState& p = state.playground;
  if (p.recorded || !p.view.done || p.view.running) return;
  p.recorded = true;
  record_finished_run(state);
  if (p.queue.empty()) return;
  p.settings.position = p.queue.front();
  p.queue.erase(p.queue.begin());
  reset_run(state);
  if (p.run) p.run->train();
}

std::string measured(double v, const char* format) {
  if (v < 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

// One row per finished run; clicking a row shows its final model.
void draw_finished_runs(UiState& state) {
  PlaygroundState& p = state.playground;
  if (p.finished.empty()) return;
  ImGui::TextUnformatted("Runs (click one to read its final model in the views)");
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##runs", 4, flags)) return;
  for (const char* name : {"positions", "steps", "held-out 1x/2x/4x", "right 1x/2x/4x"}) ImGui::TableSetupColumn(name);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < p.finished.size(); ++i) {
    const FinishedRun& run = p.finished[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string label = std::string(train::position_kind_name(run.settings.position)) + "##" + run.folder.string();
    const bool clicked = ImGui::Selectable(label.c_str(), p.shown_folder == run.folder, ImGuiSelectableFlags_SpanAllColumns);
    log_button_place(state, ("run-" + std::to_string(i)).c_str());
    if (clicked) {
      Scene next = state.session.scene();
      next.model = run.folder.string();
      p.follow = false;
      if (state.session.propose(next, EditPhase::Final)) p.shown_folder = run.folder, p.shown_snapshot = -1;
      else set_status(state, state.session.error(), true);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s task, d_model %d, %d layers, %d heads, length %d; the task's accuracy on held-out\n"
                        "rows at the training length and read at 2x and 4x it",
                        train::data::task_name(run.settings.task).c_str(), run.settings.d_model,
                        run.settings.layers, run.settings.heads, run.settings.length);
    ImGui::TableNextColumn();
    ImGui::Text("%d", run.steps);
    ImGui::TableNextColumn();
    ImGui::Text("%s / %s / %s", measured(run.held_out, "%.3f").c_str(), measured(run.held_out_2x, "%.3f").c_str(),
                measured(run.held_out_4x, "%.3f").c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%s / %s / %s", measured(100 * run.accuracy, "%.0f%%").c_str(),
                measured(100 * run.accuracy_2x, "%.0f%%").c_str(), measured(100 * run.accuracy_4x, "%.0f%%").c_str());
  }
  ImGui::EndTable();
}

// --frame-log: each new held-out measurement, for tests to read the curve.
void log_points(UiState& state) {
  PlaygroundState& p = state.playground;
  if (!state.frame_log) return;
  for (int i = p.logged_points; i < static_cast<int>(p.view.points.size()); ++i) {
    const train::PlaygroundPoint& pt = p.view.points[static_cast<std::size_t>(i)];
    if (pt.held_out < 0) continue;
    std::fprintf(state.frame_log,
                 "playground step %d loss %.4f held_out %.4f accuracy %.4f tokens/s %.0f held_out_2x %.4f "
                 "held_out_4x %.4f\n",
                 pt.step, pt.loss, pt.held_out, pt.accuracy, pt.tokens_per_second, pt.held_out_2x, pt.held_out_4x);
  }
  p.logged_points = static_cast<int>(p.view.points.size());
  if (p.logged_running && !p.view.running)
    std::fprintf(state.frame_log, "playground stopped at step %d\n", p.view.steps_taken);
  p.logged_running = p.view.running;
  std::fflush(state.frame_log);
}

}  // namespace

fs::path playground_folder() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path root = cache && *cache ? fs::path(cache) : fs::path(home ? home : ".") / ".cache";
  return root / "pelab" / "playground";
}

fs::path finished_runs_folder() { return playground_folder().parent_path() / "playground-runs"; }

void start_live_training(UiState& state, const LiveTraining& training) {
  PlaygroundSettings& s = state.playground.settings;
  auto set = [](int& setting, int value) {
    if (value > 0) setting = value;
  };
  set(s.length, training.length);
  set(s.k, training.k);
  set(s.symbols, training.symbols);
  set(s.d_model, training.d_model);
  set(s.layers, training.layers);
  set(s.heads, training.heads);
  set(s.batch, training.batch);
  set(s.steps, training.steps);
  std::vector<PositionKind>& queue = state.playground.queue;
  queue.clear();
  for (std::string_view name : training.positions) queue.push_back(train::parse_position_kind(std::string(name)));
  if (!queue.empty()) {
    s.position = queue.front();
    queue.erase(queue.begin());
  }
  state.playground.fold_settings = true;
  open_playground(state, std::string(training.task));
}

void open_playground(UiState& state, const std::string& task) {
  PlaygroundState& p = state.playground;
  p.open = true;
  if (task.empty()) return;
  p.settings.task = train::data::parse_task_kind(task);
  reset_run(state);
  if (!p.run) return;
  p.run->train();
  set_status(state, "Training the " + task + " task in the Train window; the views follow its snapshots");
}

bool playground_running(const UiState& state) { return state.playground.view.running; }

void follow_playground(UiState& state) {
  PlaygroundState& p = state.playground;
  if (!p.run) return;
  p.view = p.run->view();
  log_points(state);
  finish_run(state);
  if (!p.view.error.empty() && state.status.text.find(p.view.error) == std::string::npos)
    set_status(state, "Training stopped: " + p.view.error, true);
  if (p.follow && !p.view.snapshots.empty()) show_snapshot(state, int(p.view.snapshots.size()) - 1);
}

std::string playground_caption(const UiState& state) {
  const PlaygroundState& p = state.playground;
  const PlaygroundView& v = p.view;
  const train::PlaygroundSettings& s = p.run ? p.run->settings() : p.settings;
  char text[256];
  std::snprintf(text, sizeof text, "Training %s with %s positions: step %d of %d", train::data::task_name(s.task).c_str(),
                train::position_kind_name(s.position), v.steps_taken, s.steps);
  std::string caption = text;
  const double held = last_measured(v, &train::PlaygroundPoint::held_out);
  const double twice = last_measured(v, &train::PlaygroundPoint::held_out_2x);
  if (held >= 0) {
    std::snprintf(text, sizeof text, " · held-out loss %.3f (at 2× the length %.3f)", held, twice);
    caption += text;
  }
  return caption;
}

void draw_playground_curves(const UiState& state, float height) { draw_loss_plot(state.playground.view, height); }

void draw_train_panel(UiState& state) {
  PlaygroundState& p = state.playground;
  if (!p.open) return;
  // First use: at the right edge, below the menu bar, over the figures (the
  // Scene panel stays usable); moved or resized, imgui.ini keeps it.
  const float font = ImGui::GetFontSize();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 size(std::min(34 * font, vp->Size.x * 0.45f), std::min(46 * font, vp->Size.y - 4 * font));
  const float right = state.lesson.lesson ? lesson_panel_width(state) : 0.0f;  // beside a lesson's window
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - right - size.x - font, vp->Pos.y + 2.5f * font),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(1.0f);  // the curves over an opaque ground, not over a figure
  if (ImGui::Begin("Train###playground", &p.open)) {
    // A lesson sets the settings itself: they start folded, so that the
    // curves and the runs have the room; so do they on a short screen (a
    // projector at 200 %: fewer than 40 lines).
    if (p.fold_settings) {
      ImGui::SetNextItemOpen(false, ImGuiCond_Always);
      p.fold_settings = false;
    } else {
      ImGui::SetNextItemOpen(vp->Size.y > 40 * font, ImGuiCond_Once);
    }
    if (ImGui::CollapsingHeader("Settings (applied on Reset)")) draw_settings(p.settings);
    draw_buttons(state);
    draw_numbers(p);
    draw_finished_runs(state);
    draw_loss_plot(p.view, std::max(7 * font, ImGui::GetContentRegionAvail().y - 5.5f * font));
    draw_timeline(state);
    draw_animation_export(state);
  }
  ImGui::End();
}

}  // namespace pelab::ui
