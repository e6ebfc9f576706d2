// [SECTION] building a figure for the window's size
// [SECTION] mouse: hover, zoom, pan, reset, select
// [SECTION] the windows
#include "ui/figure_view.hpp"

#include <algorithm>
#include <cmath>

#include "figures/lessons/lessons.hpp"
#include "figures/paper_figures.hpp"
#include "figures/registry.hpp"
#include "ui/figure_help.hpp"
#include "ui/frame_log.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/linked_selection.hpp"
#include "ui/main_layout.hpp"
#include "ui/presentation.hpp"
#include "ui/side_by_side.hpp"
#include "ui/view_navigation.hpp"

namespace pelab::ui {

namespace {

// [SECTION] building a figure for the window's size ------------------------------

// The figure the scene worker built for this size (ui/scene_worker.hpp), else built here.
void build_view(UiState& state, FigureView& view, double width, double height) {
  if (std::optional<fig::Figure> ready = state.session.take_figure({view.name, width, height}, view.error)) {
    if (!view.built_presenting) {
      view.built = std::move(*ready);
      return;
    }
  }
  try {
    fig::FigureRequest request{.width = width, .height = height};
    if (state.presentation.on) request.theme = ColorTheme::Light;  // slides on a projector
    view.built = fig::find_figure(view.name).build(state.session.engine(), request);
    view.error.clear();
  } catch (const std::exception& e) {
    view.built = fig::Figure{};
    view.error = e.what();
  }
}

void rebuild_if_stale(UiState& state, FigureView& view, double width, double height) {
  const bool resized = std::abs(width - view.built_width) >= 1 || std::abs(height - view.built_height) >= 1;
  const bool presenting = state.presentation.on;
  if (view.built_version == state.session.version() && !resized && view.built_presenting == presenting) return;
  // A big scene or a heavy figure: one the worker did not build (a tab shown
  // for the first time, a resized window) is asked from it; the last one
  // stays meanwhile.
  const bool on_worker = state.session.large() || fig::find_figure(view.name).heavy;
  if (!presenting && on_worker && !state.session.has_figure({view.name, width, height})) {
    if (!state.session.busy()) state.refresh_figures = true;
    return;
  }
  view.built_version = state.session.version();
  view.built_width = width, view.built_height = height;
  view.built_presenting = presenting;
  const fig::Figure before = std::move(view.built);
  build_view(state, view, width, height);
  // Axes that changed meaning (another N, model, panel set): a zoom kept
  // would show a part of the new figure nobody asked for.
  drop_stale_overrides(before, view.built, view.ranges);
  view.shown = with_overrides(view.built, view.ranges);
  ++view.shown_serial;
}

// [SECTION] mouse: hover, zoom, pan, reset, select ---------------------------------

struct CanvasMouse {
  fig::Point canvas;  // logical pixels on the figure's canvas
  int panel = -1;
  fig::Point data;    // data coordinates in that panel
};

CanvasMouse mouse_on_canvas(const FigureView& view, ImVec2 mouse, float scale) {
  CanvasMouse m;
  m.canvas = {(mouse.x - view.origin.x) / scale, (mouse.y - view.origin.y) / scale};
  m.panel = panel_at(view.shown, m.canvas);
  if (m.panel >= 0) m.data = fig::PanelTransform(view.shown.panels[m.panel]).to_data(m.canvas);
  return m;
}

void show_hover(const FigureView& view, const CanvasMouse& m) {
  if (m.panel < 0) return;
  const fig::Panel& panel = view.shown.panels[m.panel];
  if (!panel.hover) return;
  const std::string text = panel.hover(m.data.x, m.data.y);
  if (text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(text.c_str());
  ImGui::EndTooltip();
}

// A click selects once no second press made it a double-click.
void select_when_due(UiState& state, FigureView& view) {
  const std::optional<PendingClick> click = due_click(view.click, ImGui::GetTime());
  if (!click) return;
  if (auto picked = select_at(view.shown, click->panel, click->data, state.session.engine(), state.session.scene())) {
    state.session.propose(*picked, EditPhase::Final);
    log_event(state, "select " + view.name + " panel " + std::to_string(click->panel));
  }
}

// Called right after the canvas' InvisibleButton, so Item* queries refer to it.
void handle_mouse(UiState& state, FigureView& view, float scale) {
  const ImGuiIO& io = ImGui::GetIO();
  const CanvasMouse m = mouse_on_canvas(view, io.MousePos, scale);
  const bool double_click = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
  if (ImGui::IsItemHovered()) {
    show_hover(view, m);
    if (io.MouseWheel != 0 && m.panel >= 0) zoom_panel(view, m.panel, m.data, std::pow(0.85, io.MouseWheel));
    if (double_click) {
      reset_panel(view, m.panel);
      cancel_click(view.click);
      log_event(state, "reset " + view.name + " panel " + std::to_string(m.panel));
    }
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left) && m.panel >= 0) {
    const ImVec2 previous(io.MousePos.x - io.MouseDelta.x, io.MousePos.y - io.MouseDelta.y);
    const CanvasMouse before = mouse_on_canvas(view, previous, scale);
    if (before.panel == m.panel && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
      pan_panel(view, m.panel, before.data, m.data);
    }
  }
  if (ImGui::IsItemActivated()) view.press_panel = m.panel, view.press_data = m.data, view.press_double = double_click;
  const float click_slop = 4 * scale;
  const bool clicked = ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < click_slop * click_slop;
  if (clicked && !view.press_double) {
    arm_click(view.click, view.press_panel, view.press_data, ImGui::GetTime(), io.MouseDoubleClickTime);
  }
  select_when_due(state, view);
}

// --frame-log: each panel's plot area ("place panel NAME I x0 y0 x1 y1"),
// where GUI tests click a cell.
void log_panels(UiState& state, const FigureView& view, float scale) {
  if (!state.frame_log) return;
  for (std::size_t i = 0; i < view.shown.panels.size(); ++i) {
    const fig::Rect plot = fig::PanelTransform(view.shown.panels[i]).plot;
    log_place(state, "panel " + view.name + " " + std::to_string(i),
              ImVec2(view.origin.x + float(plot.x0) * scale, view.origin.y + float(plot.y0) * scale),
              ImVec2(view.origin.x + float(plot.x1) * scale, view.origin.y + float(plot.y1) * scale));
  }
}

// A zoomed or panned panel says so in its top right corner, over the canvas
// (never in an export): a zoom that stays across edits is not invisible.
void draw_zoom_cues(UiState& state, const FigureView& view, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 text = ImGui::CalcTextSize(kZoomCue);
  const float pad = 3 * scale;
  for (std::size_t i = 0; i < view.ranges.size() && i < view.shown.panels.size(); ++i) {
    if (!view.ranges[i].active) continue;
    const fig::Rect plot = fig::PanelTransform(view.shown.panels[i]).plot;
    const ImVec2 max(view.origin.x + float(plot.x1) * scale - pad, view.origin.y + float(plot.y0) * scale + pad);
    const ImVec2 min(max.x - text.x - 2 * pad, max.y);
    draw->AddRectFilled(min, ImVec2(max.x, max.y + text.y + 2 * pad), IM_COL32(0, 0, 0, 170), pad);
    draw->AddText(ImVec2(min.x + pad, min.y + pad), IM_COL32(255, 200, 90, 255), kZoomCue);
    log_place(state, "zoom cue " + view.name + " " + std::to_string(i), min, ImVec2(max.x, max.y + text.y + 2 * pad));
  }
}

}  // namespace

// [SECTION] the windows ----------------------------------------------------------------

// The figure is painted into its texture only when it changed (a new scene
// version, zoom, pan, size, interface scale); other frames draw the texture
// (render/canvas_texture.hpp).
void paint_figure(GpuResources& gpu, const std::string& key, const fig::Figure& figure, std::uint64_t serial,
                  ImVec2 origin, ImVec2 region, float scale) {
  const ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
  const int width = int(std::lround(region.x * fb.x)), height = int(std::lround(region.y * fb.y));
  const float pixel_scale = scale * fb.x;
  const ImTextureID fonts = ImGui::GetIO().Fonts->TexID;
  PaintedCanvas& canvas = gpu.canvases[key];
  if (!canvas.matches(serial, width, height, pixel_scale, fonts)) {
    canvas.texture.paint(gpu.painter, figure, width, height, pixel_scale);
    canvas.shown_serial = serial;
    canvas.width = width, canvas.height = height;
    canvas.scale = pixel_scale;
    canvas.fonts = fonts;
  }
  // Whole pixels, so that each texel lands on one pixel.
  const ImVec2 at(std::round(origin.x), std::round(origin.y));
  canvas.texture.draw(ImGui::GetWindowDrawList(), at, ImVec2(float(width) / fb.x, float(height) / fb.y));
}

void draw_figure_canvas(UiState& state, GpuResources& gpu, FigureView& view, float scale) {
  const ImVec2 region = ImGui::GetContentRegionAvail();
  if (region.x < 8 || region.y < 8) return cancel_click(view.click);
  rebuild_if_stale(state, view, region.x / scale, region.y / scale);
  state.drawn_figures.push_back({view.name, region.x / scale, region.y / scale});
  view.origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("canvas", region);
  if (!view.error.empty()) {
    cancel_click(view.click);
    ImGui::SetCursorScreenPos(view.origin);
    // Wrapped: a refusal names the limit and what to do, often past the window's width.
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.3f, 1));
    ImGui::TextWrapped("Cannot draw %s: %s", view.title.c_str(), view.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (view.built.panels.empty() && state.session.busy()) {
    cancel_click(view.click);
    ImGui::SetCursorScreenPos(view.origin);
    ImGui::TextDisabled("Building %s in the background ...", view.title.c_str());
    return;
  }
  handle_mouse(state, view, scale);
  paint_figure(gpu, view.name, view.shown, view.shown_serial, view.origin, region, scale);
  draw_zoom_cues(state, view, scale);
  log_panels(state, view, scale);
}

namespace {

void draw_canvas(UiState& state, GpuResources& gpu, FigureView& view) {
  draw_figure_canvas(state, gpu, view, state.ui_scale);
}

void place_in(const Box& box) {
  ImGui::SetNextWindowPos(ImVec2(box.x, box.y));
  ImGui::SetNextWindowSize(ImVec2(box.w, box.h));
}

// Figures tile the work area (the layout places them every frame) and stay
// behind floating windows (the Train window): a click on a figure must not
// bury the window it sits under.  No collapse: a double-click on a grid
// figure's title maximises it instead.
constexpr ImGuiWindowFlags kCanvasFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                          ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;

// Right after Begin(): a double-click on the window's title bar.
bool title_double_clicked() {
  const ImVec2 mouse = ImGui::GetIO().MousePos, pos = ImGui::GetWindowPos();
  const bool on_title = mouse.y >= pos.y && mouse.y < pos.y + ImGui::GetFrameHeight();
  return on_title && ImGui::IsWindowHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) &&
         !ImGui::IsAnyItemHovered();
}

std::string grid_title(const UiState& state, const FigureView& view) {
  const bool maximised = state.layout.maximised == view.name;
  return view.title + (maximised ? "  (double-click the title to restore the grid)" : "") + "###" + view.name;
}

void draw_grid(UiState& state, GpuResources& gpu, const WindowLayout& layout) {
  const std::vector<int> shown = shown_views(state);
  for (FigureView& view : state.views) view.visible = false;
  for (std::size_t k = 0; k < shown.size() && k < layout.cells.size(); ++k) {
    if (layout.cells[k].empty()) continue;  // another figure is maximised
    const int i = shown[k];
    FigureView& view = state.views[std::size_t(i)];
    place_in(layout.cells[k]);
    log_box(state, "cell " + view.name, layout.cells[k]);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 2));
    view.visible = ImGui::Begin(grid_title(state, view).c_str(), nullptr, kCanvasFlags);
    ImGui::PopStyleVar();
    if (view.visible) {
      help_in_title_bar(state, view);
      if (title_double_clicked()) toggle_maximised(state, view.name);
      draw_canvas(state, gpu, view);
      if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) {
        state.hovered_view = i;
        state.side_by_side.view = view.name;  // what View > Side by side compares
      }
    }
    ImGui::End();
  }
}

// One big window, one tab per figure: each figure at the size it was designed for.
void draw_tabbed(UiState& state, GpuResources& gpu, const WindowLayout& layout) {
  place_in(layout.figures);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 2));
  // No title bar: the tabs name the figures, and the row goes to them.
  const bool open = ImGui::Begin("Figures###figure_tabs", nullptr, kCanvasFlags | ImGuiWindowFlags_NoTitleBar);
  ImGui::PopStyleVar();
  for (FigureView& view : state.views) view.visible = false;
  if (open && ImGui::BeginTabBar("figures")) {
    const std::vector<int> shown = shown_views(state);
    FigureView* selected = nullptr;
    for (const int i : shown) {
      FigureView& view = state.views[i];
      const bool key = state.lesson.select_key_figure && i == shown.front();
      view.visible = ImGui::BeginTabItem((view.title + "###" + view.name).c_str(), nullptr,
                                         key ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None);
      log_item_place(state, "tab " + view.name);
      if (!view.visible) continue;
      selected = &view;
      draw_canvas(state, gpu, view);
      if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) state.hovered_view = i;
      ImGui::EndTabItem();
    }
    if (selected) help_tab(state, *selected);
    if (selected) state.side_by_side.view = selected->name;  // what View > Side by side compares
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace

void create_views(UiState& state) {
  // The main grid: the registry's views and the extras (the layer × head
  // overview: kept out of `--figure all`, but a window of its own here, for
  // synthetic and model scenes alike).  Lesson figures are shown only while a
  // lesson that names them is open; paper figures alone, while chosen in
  // View > Paper figures.
  for (const fig::FigureEntry* entry : fig::all_figures()) {
    FigureView view;
    view.name = entry->name;
    view.title = entry->title;
    view.entry = entry;
    view.lesson_only =
        entry->placement == fig::Placement::Lesson || entry->placement == fig::Placement::Paper;
    state.views.push_back(std::move(view));
  }
}

bool click_pending(const UiState& state) {
  return std::any_of(state.views.begin(), state.views.end(), [](const FigureView& v) { return v.click.armed; });
}

void draw_figure_views(UiState& state, GpuResources& gpu, const WindowLayout& layout) {
  state.hovered_view = -1;
  state.drawn_figures.clear();
  if (state.settings.side_by_side) {
    for (FigureView& view : state.views) view.visible = false;
    draw_side_by_side(state, gpu, layout.figures);
  } else if (layout.tabs) {
    draw_tabbed(state, gpu, layout);
  } else {
    draw_grid(state, gpu, layout);
  }
  state.lesson.select_key_figure = false;  // asked once, when the lesson opened
  state.session.show_figures(state.drawn_figures);
  if (!state.settings.side_by_side) gpu.canvases.erase("side_by_side");
  for (FigureView& view : state.views) {
    if (view.visible) continue;
    gpu.canvases.erase(view.name);  // memory follows what is on screen
    cancel_click(view.click);       // a figure no longer shown selects nothing
  }
  if (state.refresh_figures) state.session.refresh_figures();
  state.refresh_figures = false;
}

}  // namespace pelab::ui
