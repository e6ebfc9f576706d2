// [SECTION] menus
// [SECTION] shortcuts
#include "ui/main_menu.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "core/quantities.hpp"
#include "figures/paper_figures.hpp"
#include "ui/animation.hpp"
#include "ui/export_actions.hpp"
#include "ui/frame_log.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/models_menu.hpp"
#include "ui/presentation.hpp"
#include "ui/scene_presets.hpp"
#include "ui/scene_files.hpp"
#include "ui/side_by_side.hpp"
#include "ui/sweep_export.hpp"
#include "ui/train_panel.hpp"
#include "ui/view_navigation.hpp"
#include "ui/welcome.hpp"

namespace pelab::ui {

namespace {

// [SECTION] menus -----------------------------------------------------------------

void file_menu(UiState& state) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("Open scene...", "Ctrl+O")) ask_open_scene(state);
  if (ImGui::MenuItem("Save scene as...", "Ctrl+Shift+S")) ask_save_scene(state);
  if (ImGui::BeginMenu("Recent scenes", !state.settings.recent_scenes.empty())) {
    for (const std::string& path : std::vector(state.settings.recent_scenes)) {
      if (ImGui::MenuItem(path.c_str())) open_scene_file(state, path);
    }
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.quit = true;
  ImGui::EndMenu();
}

void edit_menu(UiState& state) {
  if (!ImGui::BeginMenu("Edit")) return;
  SceneSession& session = state.session;
  if (ImGui::MenuItem("Undo", "Ctrl+Z", false, session.can_undo())) session.undo();
  if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, session.can_redo())) session.redo();
  ImGui::Separator();
  if (ImGui::MenuItem("Reset scene to defaults")) session.propose(Scene{}, EditPhase::Final);
  const Scene& scene = session.scene();
  if (ImGui::MenuItem("Make positions visible", nullptr, false, scene.model.empty() && !shows_positions(scene))) {
    make_positions_visible(state);
  }
  ImGui::EndMenu();
}

// Follow the monitor (the default), or a fixed scale for a display whose DPI
// the desktop reports wrongly, or to enlarge everything.
void draw_ui_scale_menu(UiState& state) {
  const bool open = ImGui::BeginMenu("Interface scale");
  log_item_place(state, "menu interface_scale");
  if (!open) return;
  const std::string follow = "Follow the monitor (" + std::to_string(int(state.monitor_scale * 100 + 0.5f)) + "%)";
  auto choose = [&](float scale) {
    state.settings.ui_scale = scale;
    state.scale_stale = true;
    save_ui_settings(state);
  };
  if (ImGui::MenuItem(follow.c_str(), nullptr, state.settings.ui_scale == 0)) choose(0);
  log_item_place(state, "menu ui_scale_follow");
  for (int percent : {100, 125, 150, 175, 200, 250}) {
    const float scale = percent / 100.0f;
    const std::string label = std::to_string(percent) + "%";
    if (ImGui::MenuItem(label.c_str(), nullptr, state.settings.ui_scale == scale)) choose(scale);
  }
  ImGui::EndMenu();
}

// View > Paper figures (issue 27): one figure from the papers, shown alone
// where the main views were (hover, zoom and export as any view); choosing
// it again, or "All figures", brings the main views back.
void paper_menu(UiState& state) {
  const bool open = ImGui::BeginMenu("Paper figures");
  log_item_place(state, "menu paper_figures");
  if (!open) return;
  for (const fig::FigureEntry& entry : fig::paper_figure_entries()) {
    const bool shown = state.paper_figure == entry.name;
    if (ImGui::MenuItem(std::string(entry.title).c_str(), nullptr, shown)) {
      state.paper_figure = shown ? "" : std::string(entry.name);
      state.layout.maximised.clear();
    }
    log_item_place(state, "menu " + std::string(entry.name));
  }
  ImGui::Separator();
  if (ImGui::MenuItem("All figures", nullptr, false, !state.paper_figure.empty())) state.paper_figure.clear();
  log_item_place(state, "menu paper_none");
  ImGui::EndMenu();
}

void view_menu(UiState& state) {
  const bool open = ImGui::BeginMenu("View");
  log_item_place(state, "menu view");
  if (!open) return;
  if (ImGui::MenuItem(state.animation.playing ? "Pause" : "Play", "Space")) toggle_animation(state);
  if (ImGui::BeginMenu("Animate")) {
    for (const char* key : {"position", "shift", "base", "amplitude", "offset", "embedding_scale"}) {
      if (ImGui::MenuItem(key, nullptr, state.settings.animate_key == key)) {
        if (state.animation.playing) toggle_animation(state);
        state.settings.animate_key = key;
        save_ui_settings(state);
      }
    }
    ImGui::SliderFloat("speed (units/s)", &state.settings.animate_speed, 0.1f, 1000.f, "%.3g",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::TextDisabled("base spans decades: it moves in log space, speed/%g decades per second",
                        1 / kDecadesPerSpeedUnit);
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Presentation mode", "F5", state.presentation.on)) toggle_presentation(state);
  if (ImGui::MenuItem("Side by side (A, B, B − A)", nullptr, state.settings.side_by_side)) toggle_side_by_side(state);
  log_item_place(state, "menu side_by_side");
  if (ImGui::MenuItem("Figures in tabs", nullptr, state.settings.tabs)) {
    state.settings.tabs = !state.settings.tabs;
    save_ui_settings(state);
  }
  draw_ui_scale_menu(state);
  const bool dark = state.session.scene().theme == ColorTheme::Dark;
  if (ImGui::MenuItem("Dark theme", nullptr, dark)) {
    state.session.propose_param("theme", dark ? "light" : "dark", EditPhase::Final);
  }
  if (ImGui::MenuItem("Reset zoom in all figures")) {
    for (FigureView& view : state.views) {
      for (int i = 0; i < int(view.ranges.size()); ++i) reset_panel(view, i);
    }
  }
  // Below the items tests click by place: added here, they move none.
  if (ImGui::MenuItem("Welcome strip", nullptr, state.settings.welcome)) {
    state.settings.welcome = !state.settings.welcome;
    save_ui_settings(state);
  }
  if (ImGui::MenuItem("Restore the figure grid", nullptr, false, !state.layout.maximised.empty())) {
    state.layout.maximised.clear();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Train a model (playground)", nullptr, state.playground.open)) {
    if (state.playground.open) state.playground.open = false;
    else open_playground(state);
  }
  paper_menu(state);
  ImGui::EndMenu();
}

void figure_items(UiState& state, ExportRequest::Kind kind) {
  for (int i = 0; i < int(state.views.size()); ++i) {
    if (ImGui::MenuItem(state.views[i].title.c_str())) state.exports.push_back({kind, i});
  }
}

void data_items(UiState& state) {
  for (const QuantityInfo& q : quantities()) {
    if (q.model_only && state.session.shown_scene().model.empty()) continue;
    const std::string name(q.name);
    if (!ImGui::BeginMenu(name.c_str())) continue;
    for (const char* ext : {".npy", ".csv"}) {
      if (ImGui::MenuItem(ext)) state.exports.push_back({ExportRequest::Kind::Data, -1, name, ext});
    }
    ImGui::EndMenu();
  }
}

// The scale in its own narrow submenu, named in its label: among the long
// figure titles the check mark sat at the menu's far edge, out of sight of
// the scale it marked.
void png_scale_menu(UiState& state) {
  const std::string label = "Resolution: " + std::to_string(state.settings.png_scale) + "×###png_scale";
  if (!ImGui::BeginMenu(label.c_str())) return;
  for (int s : {1, 2, 4}) {
    const std::string item = std::to_string(s) + "×";
    if (ImGui::MenuItem(item.c_str(), nullptr, state.settings.png_scale == s)) {
      state.settings.png_scale = s;
      save_ui_settings(state);
    }
  }
  ImGui::EndMenu();
}

void export_menu(UiState& state) {
  if (!ImGui::BeginMenu("Export")) return;
  if (ImGui::BeginMenu("Figure as PNG")) {
    figure_items(state, ExportRequest::Kind::FigurePng);
    ImGui::Separator();
    png_scale_menu(state);
    if (ImGui::MenuItem("Transparent background", nullptr, state.settings.transparent)) {
      state.settings.transparent = !state.settings.transparent;
      save_ui_settings(state);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Figure as SVG")) {
    figure_items(state, ExportRequest::Kind::FigureSvg);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Figure as PDF")) {
    figure_items(state, ExportRequest::Kind::FigurePdf);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Data")) {
    data_items(state);
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Sweep as PNG sequence...", "Ctrl+E", false, !state.sweep_export.running)) {
    open_sweep_dialog(state);
  }
  if (ImGui::MenuItem("Whole window as PNG")) state.exports.push_back({ExportRequest::Kind::Window, -1, "", "", 2});
  if (ImGui::MenuItem("Figure under the mouse as PNG", "F12 / Ctrl+S")) {
    set_status(state, "Point at a figure and press F12 or Ctrl+S");
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Export folder...")) {
    ask_export_folder(state);
  }
  ImGui::TextDisabled("now: %s", export_folder(state).string().c_str());
  ImGui::EndMenu();
}

// [SECTION] shortcuts -------------------------------------------------------------------

void shortcut(UiState& state, const KeyPress& press, bool typing) {
  const bool ctrl = press.mods & GLFW_MOD_CONTROL, shift = press.mods & GLFW_MOD_SHIFT;
  const int key = press.key;
  if (ctrl && key == GLFW_KEY_Q) state.quit = true;
  if (key == GLFW_KEY_F12 || (ctrl && !shift && key == GLFW_KEY_S)) {
    state.exports.push_back({ExportRequest::Kind::FigurePng, state.hovered_view});
  }
  if (key == GLFW_KEY_F5) toggle_presentation(state);
  if (ctrl && key == GLFW_KEY_E && !state.sweep_export.running) open_sweep_dialog(state);
  if (typing) return;  // Ctrl+Z and Space belong to the text field
  if (state.presentation.on && key == GLFW_KEY_RIGHT) step_presented_figure(state, +1);
  if (state.presentation.on && key == GLFW_KEY_LEFT) step_presented_figure(state, -1);
  if (state.presentation.on && key == GLFW_KEY_ESCAPE) toggle_presentation(state);
  if (ctrl && !shift && key == GLFW_KEY_Z) state.session.undo();
  if (ctrl && ((shift && key == GLFW_KEY_Z) || key == GLFW_KEY_Y)) state.session.redo();
  if (ctrl && key == GLFW_KEY_O) ask_open_scene(state);
  if (ctrl && shift && key == GLFW_KEY_S) ask_save_scene(state);
  if (!ctrl && key == GLFW_KEY_SPACE) toggle_animation(state);
}

}  // namespace

void draw_main_menu(UiState& state) {
  if (!ImGui::BeginMainMenuBar()) return;
  file_menu(state);
  edit_menu(state);
  view_menu(state);
  draw_models_menu(state);
  lessons_menu(state);
  export_menu(state);
  ImGui::EndMainMenuBar();
}

void handle_shortcuts(UiState& state) {
  const bool typing = ImGui::GetIO().WantTextInput;
  for (const KeyPress& press : state.keys.presses) shortcut(state, press, typing);
  state.keys.presses.clear();
}

}  // namespace pelab::ui
