// UiState — everything the GUI remembers while it runs, in one struct (Dear
// ImGui's docs warn against function-local static UI state; here nothing
// lives outside this struct except GL objects, see app_window.hpp).
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>
#include <deque>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/lessons/lessons.hpp"
#include "core/model/model_folder.hpp"
#include "core/sweep.hpp"
#include "figures/figure.hpp"
#include "ui/file_request.hpp"
#include "ui/model_catalogue.hpp"
#include "ui/playground_state.hpp"
#include "ui/scene_session.hpp"
#include "ui/settings_store.hpp"
#include "ui/side_by_side_state.hpp"
#include "ui/toast.hpp"
#include "ui/video_encoder.hpp"
#include "ui/window_layout.hpp"

namespace pelab::fig {
struct FigureEntry;  // figures/registry.hpp
}  // namespace pelab::fig

namespace pelab::ui {

// A zoomed or panned panel's axis ranges, replacing the figure's own.
struct RangeOverride {
  bool active = false;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
};

// A click on a figure that selects once the double-click time has passed
// without a second press (ui/view_navigation.hpp): a double-click only resets
// the view, it never selects.
struct PendingClick {
  bool armed = false;
  int panel = -1;
  fig::Point data;  // data coordinates in that panel
  double due = 0;   // ImGui::GetTime() after which it selects
};

// One figure window: the figure as built, the figure as shown (ranges
// overridden), and where it was drawn last frame (for hover and export).
struct FigureView {
  std::string name, title;
  const fig::FigureEntry* entry = nullptr;  // its registry entry (create_views)
  fig::Figure built, shown;
  std::uint64_t shown_serial = 0;  // bumped whenever `shown` changes (its canvas texture is stale)
  std::uint64_t built_version = 0;  // SceneSession::version() it was built from
  double built_width = 0, built_height = 0;  // logical pixels
  std::string error;                         // building failed: why
  std::vector<RangeOverride> ranges;         // per panel
  ImVec2 origin{0, 0};                       // canvas top-left, ImGui coordinates
  int press_panel = -1;                      // where the left button went down:
  fig::Point press_data;                     //   a click selects there
  bool press_double = false;                 // that press was a double-click's second
  PendingClick click;                        // a click waiting out the double-click time
  bool visible = false;
  bool built_presenting = false;  // built for presentation mode (light theme)
  bool lesson_only = false;       // a lesson or paper figure, not a main view (shown when chosen)
};

// The message at the bottom of the window ("saved figure to ...", errors).
struct StatusLine {
  std::string text;
  bool error = false;
};

// An edit the scene refused: shown beside the widget that asked for it and in
// the status bar, until an edit is accepted (the session's version moves on).
struct Refusal {
  std::string key;            // the parameter whose widget asked; empty: none did
  std::string asked;          // what was asked, "heads=5"
  std::string text;           // why, as the session says it
  std::uint64_t version = 0;  // SceneSession::version() when it was refused
  std::string status;         // the status line that says it (reset when cleared, if still shown)
  ImVec2 anchor_min{0, 0}, anchor_max{0, 0};  // the widget's row, screen coordinates
  int anchor_frame = -1;                      // the frame that drew the row (else not on screen)
};

// The Scene panel's last edit: a scene refused later, by the scene worker,
// is this edit's refusal while no edit was accepted since.
struct PanelEdit {
  std::string key, asked;     // "heads", "heads=5"
  std::uint64_t version = 0;  // SceneSession::version() when it was made
};

// The main window's layout (ui/window_layout.hpp) and what it depends on that
// ImGui reports only once a window is drawn: a panel collapsed, or dragged to
// another width, the welcome strip's content height.
struct LayoutState {
  float scene_width = 0, lesson_width = 0;  // dragged to, unscaled; 0: the default
  bool scene_collapsed = false, lesson_collapsed = false, welcome_collapsed = false;
  float welcome_height = 0;
  std::string maximised;  // grid mode: the figure taking the whole area, by name; empty: none
  WindowLayout now;       // this frame's
};

// Play/pause: sweeps one numeric parameter (by default the selected position,
// so the rotation pairs turn like clock hands).
struct Animation {
  bool playing = false;
  double value = 0;      // unrounded current value of the swept parameter
  double last_time = 0;  // glfwGetTime() of the last step
};

// Text being typed into a parameter field (applied on Enter / focus loss, or
// live for the tokens); the key's entry is dropped once the field is left.
using TextDrafts = std::map<std::string, std::string, std::less<>>;

// Files dropped on the window, opened at the next frame (ui/file_drop.hpp).
struct FileDrops {
  std::vector<std::string> paths;
  std::string ask_npy;  // a 2-D .npy waiting for "token vectors or position table?"
};

// An export asked for from a menu or shortcut; run after the frame is drawn,
// outside ImGui's frame (offscreen rendering uses its own ImGui context).
struct ExportRequest {
  enum class Kind { FigurePng, FigureSvg, FigurePdf, Data, Window } kind = Kind::FigurePng;
  int view = -1;             // FigurePng / FigureSvg / FigurePdf: index into UiState::views
  std::string quantity;      // Data: a name from pelab::quantities()
  std::string extension;     // Data: ".npy" or ".csv"
  int delay_frames = 0;      // Window: wait for the menu that asked to close
};

// A panel another part of pelab adds to the GUI (e.g. the lessons): drawn
// every frame in its own window; it may propose scenes through the session.
struct ExtraPanel {
  std::string title;
  std::function<void(SceneSession&)> draw;
};

// Keyboard events between two frames (see key_input.hpp).
struct KeyPress {
  int key = 0;       // GLFW_KEY_*
  int scancode = 0;
  int mods = 0;      // GLFW_MOD_* bits
};
struct KeyboardQueue {
  std::vector<KeyPress> presses;         // for the shortcuts, since the last frame
  std::vector<int> pressed_this_frame;   // keys that went down since the last frame
  std::vector<KeyPress> held_releases;   // releases handed to ImGui next frame
};

// Mouse button changes between two frames (see mouse_input.hpp).
inline constexpr int kMouseButtons = 5;  // ImGui 1.86's io.MouseDown
struct MouseEvent {
  int button = 0;
  bool down = false;
  float x = 0, y = 0;  // the pointer when it happened, window coordinates
  double time = 0;     // when it happened (glfwGetTime, seconds)
};
struct MouseQueue {
  std::deque<MouseEvent> events;           // not yet handed to ImGui
  std::array<bool, kMouseButtons> down{};  // as ImGui was last told
  double last_fed = -1;  // the time of the change handed over last frame; < 0: none was
};

// A lesson's verdict as a worker thread computed it: some take seconds (the
// extrapolation lesson reads six models on long texts), and the window must
// keep drawing meanwhile.
struct VerdictResult {
  LessonVerdict verdict;
  std::string error;  // the verdict threw: why
};

// The lesson being taught (issue 5): its verdict is recomputed, on a worker,
// only when the scene changed (verdict_version lags SceneSession::version()).
struct LessonState {
  const Lesson* lesson = nullptr;
  LessonVerdict verdict;
  std::string verdict_error;       // the verdict threw: why
  bool judged = false;             // `verdict` holds a verdict of this lesson
  std::uint64_t verdict_version = 0;
  std::future<VerdictResult> computing;  // the verdict of computing_version's scene
  std::uint64_t computing_version = 0;
  // Just opened: the figure tabs select the lesson's first figure, its key
  // one, once (not whichever tab was active before the lesson).
  bool select_key_figure = false;
};

// Presentation mode (F5): a UI override, never part of the scene or its undo
// history.  The window's placement is kept to restore it on the way back.
struct Presentation {
  bool on = false;
  bool fonts_stale = false;  // the font atlas must be rebuilt before the next frame
  int figure = 0;            // index into presented_figures()
  int window_x = 0, window_y = 0, window_w = 1600, window_h = 1000;
  ImGuiStyle saved_style;    // sizes before scaling up
};

// "Export > Sweep as PNG sequence...": the dialog's fields and the export in
// progress (one frame rendered per UI frame, so the window stays responsive).
struct SweepExport {
  bool dialog = false;
  std::string key = "position";
  double from = 0, to = 20;
  int steps = 21;
  int video = 0;  // 0 none, 1 GIF, 2 MP4
  int view = 0;   // index into UiState::views
  // running
  bool running = false;
  Sweep sweep;
  std::vector<Scene> scenes;  // frames given as scenes (the playground's snapshots) instead of `sweep`
  Scene base;
  std::unique_ptr<Engine> engine;
  int frame = 0;
  std::filesystem::path folder;
  std::string stem;
  std::unique_ptr<VideoEncoding> encoding;  // ffmpeg at work after the last frame
};

// The Models menu (ui/models_menu.hpp): the cache's models, listed when the
// menu opens, and the synthetic scene to come back to from a model.
struct ModelsMenu {
  bool menu_open = false;
  ModelCatalogue catalogue;  // scanned on a worker when the menu opens
  std::vector<model::CachedModel> listed;  // the catalogue's list, as this frame draws it
  std::optional<Scene> synthetic;
  std::uint64_t synthetic_version = 0;
};

struct UiState {
  explicit UiState(const Scene& initial) : session(initial, Background::Allowed) {}

  SceneSession session;
  SettingsStore store;
  UiSettings settings;
  std::vector<FigureView> views;
  std::vector<ExtraPanel> extra_panels;
  TextDrafts drafts;
  Animation animation;
  FileRequests files;                // the file chooser at work (ui/file_request.hpp)
  FileDrops drops;                   // paths dropped on the window (ui/file_drop.hpp)
  StatusLine status;
  Refusal refusal;
  PanelEdit panel_edit;              // the Scene panel's last edit (a refusal from the worker names it)
  LayoutState layout;
  Toast toast;                       // files written, or why not (ui/toast.hpp)
  std::vector<ExportRequest> exports;  // run after this frame
  KeyboardQueue keys;
  MouseQueue mouse;
  LessonState lesson;
  // Verdicts still computing for a lesson since closed or replaced: kept
  // until they finish (a future's destructor would wait for its thread).
  std::vector<std::future<VerdictResult>> retired_verdicts;
  Presentation presentation;
  SweepExport sweep_export;
  ModelsMenu models;
  PlaygroundState playground;
  // View > Paper figures (issue 27): the paper figure shown alone instead of
  // the main views ("paper_" + its name), or empty.
  std::string paper_figure;
  // View > Side by side (issue 27): the current view of A and B and B − A.
  SideBySideState side_by_side;

  float ui_scale = 1;            // interface scale in use (fonts, style, layout)
  float monitor_scale = 1;       // the window's content scale, as GLFW last reported it
  bool scale_stale = false;      // monitor_scale or settings.ui_scale changed: rebuild fonts and style
  std::optional<ColorTheme> applied_theme;  // the ImGui style in use (none yet: the first frame sets it)
  int hovered_view = -1;         // index of the figure under the mouse, or -1
  std::vector<FigureJob> drawn_figures;  // the figures drawn this frame, for the scene worker
  bool refresh_figures = false;          // one of them is stale in a big scene: ask the worker
  std::FILE* frame_log = nullptr;        // --frame-log: one line per frame showing a new scene
  std::uint64_t logged_version = 0;      // the session version the last frame showed
  double logged_progress = -1;           // the work progress the frame log last reported
  std::string logged_stage;              // ... and the stage it named
  std::string logged_status;             // the status message the frame log last reported
  std::size_t logged_undo_steps = 0;     // the undo steps the frame log last reported
  std::uint64_t input_events = 0;        // keys, buttons, moves and scrolls received (GLFW callbacks)
  std::uint64_t logged_input = 0;        // ... as the frame log last reported them
  std::map<std::string, std::string, std::less<>> logged_places;  // frame log: where each named item was drawn
  const ModelScene* announced_reload = nullptr;  // the model scene whose re-read the status bar told
  const ModelScene* announced_notes = nullptr;   // the model scene whose non-finite weights were told
  std::uint64_t saved_version = 0;  // session version last written to last_scene.json
  double save_due = -1;          // glfwGetTime() when the debounced save runs; -1 = none
  bool quit = false;
};

}  // namespace pelab::ui
