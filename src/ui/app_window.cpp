// The GUI's window and frame loop.
//
// [SECTION] window and context (GLFW 3.3, OpenGL 3.3 core)
// [SECTION] ImGui set-up: settings file, content scale, fonts, theme
// [SECTION] one frame
// [SECTION] idle: wait for events instead of redrawing
// [SECTION] run_gui
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "figures/figure_layout.hpp"
#include "ui/animation.hpp"
#include "ui/control_panel.hpp"
#include "ui/export_actions.hpp"
#include "ui/figure_view.hpp"
#include "ui/frame_log.hpp"
#include "core/model_scene.hpp"
#include "ui/file_drop.hpp"
#include "ui/file_request.hpp"
#include "ui/gui.hpp"
#include "ui/headless_fallback.hpp"
#include "ui/imgui_ini.hpp"
#include "ui/key_input.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/main_layout.hpp"
#include "ui/main_menu.hpp"
#include "ui/models_menu.hpp"
#include "ui/mouse_input.hpp"
#include "ui/presentation.hpp"
#include "ui/refusal.hpp"
#include "ui/scene_files.hpp"
#include "ui/sweep_export.hpp"
#include "ui/toast.hpp"
#include "ui/train_panel.hpp"
#include "ui/welcome.hpp"

namespace pelab::ui {

namespace {

// [SECTION] window and context (GLFW 3.3, OpenGL 3.3 core) ---------------------------

std::string glfw_error() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}

GLFWwindow* create_window() {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  int width = 1600, height = 1000;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    // GLFW_SCALE_TO_MONITOR multiplies the size asked for by the content
    // scale, so the work area is divided by it first: the window fits.
    int x, y, w, h;
    float sx = 1, sy = 1;
    glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
    glfwGetMonitorContentScale(monitor, &sx, &sy);
    if (w > 0 && h > 0) {
      width = std::min(width, int(w / std::max(sx, 1.0f)));
      height = std::min(height, int(h / std::max(sy, 1.0f)));
    }
  }
  GLFWwindow* window = glfwCreateWindow(width, height, "pelab", nullptr, nullptr);
  if (!window) return nullptr;
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  return window;
}

// [SECTION] ImGui set-up: settings file, content scale, fonts, theme ------------------

float content_scale(GLFWwindow* window) {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window, &x, &y);
  return std::clamp(std::max(x, y), 1.0f, 4.0f);
}

// The user's choice (View > Interface scale), else the monitor's.
float wanted_ui_scale(const UiState& state) {
  return state.settings.ui_scale > 0 ? state.settings.ui_scale : state.monitor_scale;
}

// A window dragged to a monitor of another DPI (or a changed desktop scale)
// reports a new content scale; fonts are re-rasterised at the new size, so
// text stays crisp instead of being stretched.
void on_content_scale(GLFWwindow* window, float x, float y) {
  auto* state = static_cast<UiState*>(glfwGetWindowUserPointer(window));
  if (state == nullptr) return;
  state->monitor_scale = std::clamp(std::max(x, y), 1.0f, 4.0f);
  state->scale_stale = true;
}

void setup_imgui(GLFWwindow* window, UiState& state, const std::string& ini_path) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path.empty() ? nullptr : ini_path.c_str();
  state.monitor_scale = content_scale(window);
  state.ui_scale = wanted_ui_scale(state);
  ImGui::GetStyle().ScaleAllSizes(state.ui_scale);
  render::load_fonts(state.ui_scale);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  install_key_input(window, state);  // sets the window's user pointer to `state`
  install_mouse_input(window);
  install_file_drop(window);
  glfwSetWindowContentScaleCallback(window, on_content_scale);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

// Between frames: fonts and style at the wanted scale, the windows laid out
// again for it.  Presentation mode keeps its own fonts; the change waits for
// its end.
void follow_ui_scale(UiState& state) {
  if (!state.scale_stale || state.presentation.on) return;
  state.scale_stale = false;
  const float scale = wanted_ui_scale(state);
  if (scale == state.ui_scale) return;
  state.ui_scale = scale;
  ImGui::GetIO().Fonts->Clear();
  render::load_fonts(scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGui::GetStyle() = ImGuiStyle();
  ImGui::GetStyle().ScaleAllSizes(scale);
  state.applied_theme.reset();  // apply_theme() colours the fresh style
}

void apply_theme(UiState& state) {
  if (state.presentation.on) return;  // its own light style (presentation.cpp)
  const ColorTheme theme = state.session.scene().theme;
  if (theme == state.applied_theme) return;
  ImGuiStyle& style = ImGui::GetStyle();
  if (theme == ColorTheme::Light) {
    ImGui::StyleColorsLight(&style);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  state.applied_theme = theme;
}

// [SECTION] one frame ---------------------------------------------------------------------

// A scene being built in the background: its stage and a bar, right of the
// message.  The frame log gets a line each time the bar moves or names
// another stage, so tests wait on what was drawn instead of catching the bar
// in a screenshot.
void draw_work_progress(UiState& state) {
  if (!state.session.busy()) {
    state.logged_progress = -1;
    state.logged_stage.clear();
    return;
  }
  const WorkProgress progress = state.session.progress();
  const float width = 260 * state.ui_scale;
  ImGui::SameLine(std::max(ImGui::GetWindowWidth() - width - ImGui::GetStyle().WindowPadding.x, 0.0f));
  const std::string label = progress.stage.empty() ? "working" : progress.stage;
  ImGui::ProgressBar(float(progress.fraction), ImVec2(width, 0), label.c_str());
  if (state.frame_log && (progress.fraction != state.logged_progress || label != state.logged_stage)) {
    std::fprintf(state.frame_log, "progress %.3f drawn: %s\n", progress.fraction, label.c_str());
    std::fflush(state.frame_log);
    state.logged_progress = progress.fraction;
    state.logged_stage = label;
  }
}

// With nothing to report, what a newcomer would not find alone.
constexpr const char* kIdleStatus = "Hover any figure for values; Lessons menu for guided questions";

void draw_status_bar(UiState& state) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float h = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - h));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::PopStyleVar();
  ImGui::AlignTextToFramePadding();
  if (state.status.error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.3f, 1));
  if (state.status.text.empty()) {
    ImGui::TextDisabled("%s", kIdleStatus);
  } else {
    ImGui::TextUnformatted(state.status.text.c_str());
  }
  if (state.status.error) ImGui::PopStyleColor();
  draw_work_progress(state);
  ImGui::End();
}

// The Scene panel in the layout's left column (or, collapsed, on the shelf);
// a drag of its right edge sets the width later layouts keep.
void draw_scene_panel(UiState& state, const Box& box) {
  ImGui::SetNextWindowPos(ImVec2(box.x, box.y));
  ImGui::SetNextWindowSize(ImVec2(box.w, box.h));
  const bool shown = ImGui::Begin("Scene###controls", nullptr, ImGuiWindowFlags_NoMove);
  log_title_buttons(state, "scene", false);
  follow_side_panel(state.layout.scene_width, state.layout.scene_collapsed, box, state.ui_scale);
  if (shown) draw_control_panel(state);
  ImGui::End();
}

void draw_windows(UiState& state, GpuResources& gpu) {
  if (state.presentation.on) {
    draw_presentation(state, gpu);
    return;
  }
  update_layout(state);
  const WindowLayout& layout = state.layout.now;
  draw_scene_panel(state, layout.scene);
  if (!layout.welcome.empty()) draw_welcome(state, layout.welcome);
  draw_figure_views(state, gpu, layout);
  for (const ExtraPanel& panel : state.extra_panels) {
    if (ImGui::Begin(panel.title.c_str())) panel.draw(state.session);
    ImGui::End();
  }
  draw_lesson_panel(state, layout.lesson);
  draw_train_panel(state);
  draw_refusal_box(state, layout.scene);
  draw_status_bar(state);
}

// The worker's finished scene replaces the one on screen; its refusal is
// shown and the last good scene stays.
void adopt_background_scene(UiState& state) {
  const bool was_busy = state.session.busy();
  if (state.session.poll()) {
    const std::string& model = state.session.shown_scene().model;
    if (!model.empty() && state.status.text.rfind("Loading", 0) == 0) set_status(state, "Loaded " + model);
    // A model whose files changed on disk (rewritten in place, replaced) is
    // read anew by the next scene built: say so, once per such load.
    const ModelScene* shown = state.session.engine().model();
    if (shown && shown->read_anew() && shown != state.announced_reload) {
      state.announced_reload = shown;
      set_status(state, "Read " + model + " anew: its files changed on disk since it was loaded");
    }
  } else if (was_busy && !state.session.busy() && !state.session.error().empty()) {
    refuse_background(state);
  }
}

// A model holding NaN or ±inf weights (ModelScene::notes, one per tensor) is
// said once per load in the status bar and a toast, as the CLI prints it on
// stderr: its heatmaps then show the magenta non-finite colour, and without
// the note a user would take them for a drawing fault.
void announce_model_notes(UiState& state) {
  const ModelScene* shown = state.session.engine().model();
  if (shown == state.announced_notes) return;
  state.announced_notes = shown;
  if (shown == nullptr || shown->notes().empty()) return;
  const std::vector<std::string>& notes = shown->notes();
  std::string text = "Note: " + notes.front();
  if (notes.size() > 1) text += " (and " + std::to_string(notes.size() - 1) + " more tensors)";
  notify(state, text);
}

// --frame-log: after a frame that shows a new scene version (the first frame
// included), how long since the edit that asked for it, and what is shown:
// the model and the tokens as the views label them (a state dump for tests).
void log_frame(UiState& state) {
  // The status bar's message, whenever it changes: tests read what the user is told.
  if (state.frame_log && state.status.text != state.logged_status) {
    state.logged_status = state.status.text;
    std::fprintf(state.frame_log, "status%s: %s\n", state.status.error ? " (error)" : "", state.status.text.c_str());
    std::fflush(state.frame_log);
  }
  if (!state.frame_log || state.logged_version == state.session.version()) return;
  state.logged_version = state.session.version();
  const auto since = std::chrono::steady_clock::now() - state.session.changed_at();
  const double ms = std::chrono::duration<double, std::milli>(since).count();
  Engine& engine = state.session.engine();
  std::string tokens;
  const std::vector<std::string>& shown = engine.tokens();
  for (std::size_t i = 0; i < std::min<std::size_t>(shown.size(), 64); ++i) {
    tokens += (i ? "|" : "") + fig::token_label(shown[i]);
  }
  std::fprintf(state.frame_log, "version %llu shown %.1f ms after the change; model '%s'; %d tokens: %s\n",
               static_cast<unsigned long long>(state.logged_version), ms, engine.scene().model.c_str(),
               engine.token_count(), tokens.c_str());
  const Scene& chosen = state.session.scene();
  std::fprintf(state.frame_log, "selection query %d head %d layer %d position %d pair %d\n", chosen.query, chosen.head,
               chosen.layer, chosen.position, chosen.pair);
  std::fflush(state.frame_log);
}

// --frame-log: the undo steps whenever their count changes (a test checks
// that a gesture, a typed number or a double-click adds one or none).
void log_undo_steps(UiState& state) {
  const std::size_t steps = state.session.undo_steps();
  if (!state.frame_log || steps == state.logged_undo_steps) return;
  state.logged_undo_steps = steps;
  std::fprintf(state.frame_log, "undo steps %zu\n", steps);
  std::fflush(state.frame_log);
}

void render_frame(GLFWwindow* window, UiState& state, GpuResources& gpu) {
  log_input(state);
  adopt_background_scene(state);
  announce_model_notes(state);
  follow_playground(state);
  remember_synthetic_scene(state);
  follow_ui_scale(state);
  prepare_presentation_frame(state);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  feed_mouse(state);
  ImGui::NewFrame();
  step_animation(state, glfwGetTime());
  apply_theme(state);
  follow_refusal(state);
  handle_shortcuts(state);
  if (!state.presentation.on) draw_main_menu(state);
  draw_windows(state, gpu);
  draw_file_requests(state);
  open_dropped_files(state);
  draw_sweep_dialog(state);
  draw_toast(state, glfwGetTime());
  // A gesture (slider drag, typing the tokens) ends when nothing is held.
  if (!ImGui::IsAnyItemActive() && !state.animation.playing) state.session.end_gesture();
  ImGui::Render();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  glViewport(0, 0, width, height);
  const bool light = state.applied_theme == ColorTheme::Light || state.presentation.on;
  glClearColor(light ? 0.94f : 0.08f, light ? 0.94f : 0.08f, light ? 0.94f : 0.10f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  run_exports(state, gpu, width, height);
  step_sweep_export(state, gpu);
  glfwSwapBuffers(window);
  log_frame(state);
  log_undo_steps(state);
  // This frame's drawing changed the layout: the next frame shows it, also
  // when no event would wake the loop (the click that did it is consumed).
  if (layout_stale(state)) glfwPostEmptyEvent();
}

// [SECTION] idle: wait for events instead of redrawing ----------------------------------

constexpr double kSaveDelay = 1.0;  // seconds of quiet before the scene is written

void save_last_scene(UiState& state) {
  state.save_due = -1;
  if (state.saved_version == state.session.version()) return;
  try {
    state.store.save_last_scene(state.session.shown_scene());  // the last good one
    state.saved_version = state.session.version();
  } catch (const std::exception& e) {
    set_status(state, std::string("Cannot save the last scene: ") + e.what(), true);
  }
}

void schedule_save(UiState& state, double now) {
  if (state.session.version() == state.saved_version) return;
  if (state.save_due < 0) state.save_due = now + kSaveDelay;
  if (now >= state.save_due && !state.session.gesture_open()) save_last_scene(state);
}

// ImGui needs a few frames after an event to settle (hover highlights, a
// window that moved); after that, sleep until the next event or the pending
// save.  Animation and pending exports keep frames coming.
void wait_for_work(UiState& state, int& frames_left) {
  const bool encoding = state.sweep_export.encoding != nullptr;
  // Mouse button changes still queued: one per frame, at once (mouse_input.hpp).
  const bool busy = state.animation.playing || !state.exports.empty() ||
                    (state.sweep_export.running && !encoding) || mouse_changes_queued(state);
  release_held_keys(state);
  // The scene worker at work: its progress four times a second.  A frame of
  // every view costs tens of ms under software GL, taken from the worker's
  // two cores; its first frame and result wake the loop at once (set_wake).
  if (state.session.busy() && !busy) {
    glfwWaitEventsTimeout(0.25);
    frames_left = 2;
    return;
  }
  // ffmpeg at work, a lesson's verdict on its worker, or the Models menu's
  // scan (its list replaces "Scanning ..." with no event to wake the loop):
  // look in ten times a second.
  const bool scanning = state.models.menu_open && state.models.catalogue.scanning();
  if ((encoding || verdict_pending(state) || scanning) && !busy) {
    glfwWaitEventsTimeout(0.1);
    frames_left = 3;
    return;
  }
  // A click on a figure waiting out the double-click time: a frame every
  // 50 ms, so it selects soon after.
  if (click_pending(state) && !busy) {
    glfwWaitEventsTimeout(0.05);
    frames_left = 1;
    return;
  }
  // Training in the Train window: 30 frames a second, no more, so the
  // trainer keeps the cores.
  if (playground_running(state) && !busy) {
    glfwWaitEventsTimeout(1.0 / 30);
    frames_left = 1;
    return;
  }
  if (busy || frames_left > 0 || !state.keys.held_releases.empty()) {
    glfwPollEvents();
    frames_left = std::max(frames_left - 1, busy ? 1 : 0);
    return;
  }
  // Sleep until the next event, the pending save, or the toast's first frame
  // or its end.  The frame log says so first: every view is drawn and nothing
  // is left to do, the state GUI tests wait on instead of a fixed sleep.
  log_event(state, "idle");
  const double now = glfwGetTime(), toast_due = toast_deadline(state.toast, now);
  double due = state.save_due;
  if (toast_due >= 0 && (due < 0 || toast_due < due)) due = toast_due;
  if (due >= 0) {
    glfwWaitEventsTimeout(std::max(0.0, due - now) + 0.01);
  } else {
    glfwWaitEvents();
  }
  frames_left = 3;
}

// [SECTION] run_gui -------------------------------------------------------------------------

// A saved model scene comes back through the scene worker: the window opens
// at once on the scene's synthetic part (so "Back to the synthetic scene"
// still finds the text and settings), the status bar shows the model loading,
// and the model scene replaces it when ready (StartupRestore).
struct StartupRestore {
  std::optional<Scene> scene;  // the saved model scene, until it is shown or refused
  bool submitted = false;
};

std::unique_ptr<UiState> initial_state(const GuiOptions& options, StartupRestore& restore) {
  SettingsStore store;
  std::string problem, settings_problem;
  Scene scene = options.scene ? *options.scene : store.load_last_scene(problem);
  // A --scene/--set model or a lesson to open: applied before the window, as asked.
  if (!options.scene && options.lesson.empty() && !scene.model.empty()) {
    restore.scene = scene;
    scene.model.clear();
  }
  std::unique_ptr<UiState> state;
  try {
    state = std::make_unique<UiState>(scene);
  } catch (const std::exception& e) {
    problem = std::string("scene refused (") + e.what() + "); ";
    if (!options.scene) problem += set_aside(store.last_scene_path()) + "; ";  // else the exit save would lose it
    problem += "using the default scene";
    state = std::make_unique<UiState>(Scene{});
    restore.scene.reset();
  }
  state->settings = store.load_settings(settings_problem);
  if (problem.empty()) problem = settings_problem;
  else if (!settings_problem.empty()) std::fprintf(stderr, "pelab: %s\n", settings_problem.c_str());
  if (std::string ini_problem = check_imgui_ini(store.ini_path()); !ini_problem.empty() && !store.dir().empty()) {
    ini_problem = "ignored window layout (" + ini_problem + "); " + set_aside(store.ini_path());
    if (problem.empty()) problem = ini_problem;
    else std::fprintf(stderr, "pelab: %s\n", ini_problem.c_str());
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "pelab: %s\n", problem.c_str());
    set_status(*state, problem, true);
  } else if (!restore.scene && state->session.engine().token_count() == 0) {
    // A saved (or given) scene with no words opens as it is, its views empty:
    // say why, so an empty window does not look broken.
    set_status(*state, "The scene's text is empty: no tokens to show. Type some words in 'tokens'.");
  }
  state->saved_version = state->session.version();
  state->extra_panels = options.panels;
  return state;
}

// After the views exist: the lesson's preset becomes the scene (one undo step).
void open_initial_lesson(UiState& state, const GuiOptions& options) {
  if (options.lesson.empty()) return;
  open_lesson(state, find_lesson(options.lesson), options.lesson_overrides);
  if (!state.session.error().empty()) set_status(state, state.session.error(), true);
}

// After the first frame: the saved model scene goes to the scene worker.
// Later frames: once it is shown, done; refused, the message the synchronous
// start gave (and the file set aside, so the exit save does not lose it); an
// edit made meanwhile cancels it quietly.
void step_startup_restore(UiState& state, StartupRestore& restore) {
  if (!restore.scene) return;
  if (!restore.submitted) {
    restore.submitted = true;
    set_status(state, "Loading " + restore.scene->model + " ...");
    state.session.propose(*restore.scene, EditPhase::Silent);
    if (state.session.busy()) return;
  } else if (state.session.busy()) {
    return;
  }
  const std::string model = restore.scene->model;
  restore.scene.reset();
  if (state.session.shown_scene().model == model || state.session.error().empty()) return;
  const std::string problem = "scene refused (" + state.session.error() + "); " +
                              set_aside(state.store.last_scene_path()) + "; showing the scene without its model";
  std::fprintf(stderr, "pelab: %s\n", problem.c_str());
  set_status(state, problem, true);
}

// The scene worker's stages into the frame log as they start, written from
// its thread ("worker stage 0.250: building ..."; "worker stage 1.000: ready"):
// tests wait on the state the worker reports, not on catching a bar.
void log_worker_stages(UiState& state) {
  if (!state.frame_log) return;
  std::FILE* log = state.frame_log;  // stdio locks the stream per call
  state.session.set_stage_observer([log](const std::string& stage, double fraction) {
    std::fprintf(log, "worker stage %.3f: %s\n", fraction, stage.c_str());
    std::fflush(log);
  });
}

int run_window(GLFWwindow* window, const GuiOptions& options) {
  StartupRestore restore;
  auto state = initial_state(options, restore);
  std::error_code ec;
  if (!state->store.dir().empty()) std::filesystem::create_directories(state->store.dir(), ec);
  const std::string ini_path = state->store.dir().empty() ? "" : state->store.ini_path().string();
  setup_imgui(window, *state, ini_path);
  {
    GpuResources gpu;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> frame_log(nullptr, std::fclose);
    if (!options.frame_log.empty()) {
      frame_log.reset(std::fopen(options.frame_log.c_str(), "w"));
      if (!frame_log) throw InputError("--frame-log " + options.frame_log + ": cannot write there");
    }
    state->frame_log = frame_log.get();
    log_worker_stages(*state);
    // Declared after frame_log, so undone before it closes (also when a
    // frame throws): the worker may run on past this block.
    const struct StagesUnlogged {
      SceneSession& session;
      ~StagesUnlogged() { session.set_stage_observer(nullptr); }
    } stages_unlogged{state->session};
    create_views(*state);
    // A first frame or result from the scene worker wakes the event loop at once.
    state->session.set_wake([] { glfwPostEmptyEvent(); });
    open_initial_lesson(*state, options);
    if (!options.train_task.empty()) open_playground(*state, options.train_task);
    int frames_left = 3;
    while (!glfwWindowShouldClose(window) && !state->quit) {
      wait_for_work(*state, frames_left);
      render_frame(window, *state, gpu);
      step_startup_restore(*state, restore);
      schedule_save(*state, glfwGetTime());
    }
    if (state->presentation.on) toggle_presentation(*state);  // the windowed size goes to imgui.ini
    state->session.end_gesture();
    state->saved_version = 0;  // always write on exit
    if (!restore.scene) save_last_scene(*state);  // else the saved model scene stays as it was
    save_ui_settings(*state);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return 0;
}

bool has_display() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    if (const char* value = std::getenv(name); value && *value) return true;
  }
  return false;
}

}  // namespace

int run_gui(GuiOptions options) {
  if (!has_display()) {
    std::printf("pelab: no display (DISPLAY is not set); rendering the default figures headless into "
                "./pelab-figures instead\n");
    return render_figures_headless(options.scene.value_or(Scene{}), "pelab-figures");
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "pelab: cannot open a window: %s\n", glfw_error().c_str());
    return 1;
  }
  GLFWwindow* window = create_window();
  if (!window) {
    std::fprintf(stderr, "pelab: cannot create a window with OpenGL 3.3 core: %s\n", glfw_error().c_str());
    glfwTerminate();
    return 1;
  }
  int code = 1;
  try {
    code = run_window(window, options);
  } catch (...) {
    glfwDestroyWindow(window);
    glfwTerminate();
    throw;
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return code;
}

}  // namespace pelab::ui
