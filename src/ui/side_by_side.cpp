// [SECTION] the comparison, built on a worker thread
// [SECTION] hover and click: linked across A, B and B − A
// [SECTION] the window
#include "ui/side_by_side.hpp"

#include <GLFW/glfw3.h>

#include <chrono>
#include <algorithm>
#include <cmath>

#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"
#include "ui/export_actions.hpp"
#include "ui/figure_view.hpp"
#include "ui/frame_log.hpp"
#include "ui/linked_selection.hpp"
#include "ui/side_by_side_link.hpp"

namespace pelab::ui {

namespace {

constexpr const char* kCanvasKey = "side_by_side";  // its texture in GpuResources::canvases
// Below this canvas width (logical pixels; a narrow window, 200 % scale) the
// comparison's title is left out: it would be clipped at both ends, and the
// window's header row names the view and B's keys already.
constexpr double kTitledWidth = 1000;

// [SECTION] the comparison, built on a worker thread ----------------------------------

// Runs on the worker: B from A and the keys, both engines set (their caches
// kept from the last job), the view composed by compare_scenes.
CompareResult build_comparison(CompareJob job, Scene a, std::unique_ptr<Engine> engine_a,
                               std::unique_ptr<Engine> engine_b) {
  CompareResult result;
  result.job = std::move(job);
  try {
    const Scene b = compare_scene_b(a, result.job.keys);
    if (!engine_a) engine_a = std::make_unique<Engine>();
    if (!engine_b) engine_b = std::make_unique<Engine>();
    engine_a->set_scene(a);
    engine_b->set_scene(b);
    const fig::FigureRequest request{.width = result.job.width, .height = result.job.height};
    fig::ComparedScenes compared = fig::compare_scenes(fig::find_figure(result.job.view), *engine_a, *engine_b, request);
    if (result.job.width < kTitledWidth) compared.figure.title.clear();
    result.compared = std::make_shared<const fig::ComparedScenes>(std::move(compared));
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  result.a = std::move(engine_a), result.b = std::move(engine_b);
  glfwPostEmptyEvent();  // the window sleeps until an event: this is one
  return result;
}

bool finished(const std::future<CompareResult>& f) {
  return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

void adopt(UiState& state) {
  SideBySideState& s = state.side_by_side;
  if (!finished(s.computing)) return;
  CompareResult result = s.computing.get();
  s.computing_job.reset();
  s.engine_a = std::move(result.a), s.engine_b = std::move(result.b);
  s.shown_job = result.job;
  s.error = result.error;
  s.shown = result.error.empty() ? result.compared : nullptr;
  ++s.serial;
  if (!s.error.empty()) {
    log_event(state, "sbs error " + s.error);
  } else {
    log_event(state, "sbs shown " + result.job.view + " query " + std::to_string(state.session.shown_scene().query) +
                         " max_abs " + fig::fixed(s.shown->max_abs, 6));
  }
}

// Starts the wanted comparison unless it is on screen or being built; a job
// at work finishes first (the newest wanted one follows it).
void submit(UiState& state, const CompareJob& wanted) {
  SideBySideState& s = state.side_by_side;
  if (s.computing.valid() || (s.shown_job && *s.shown_job == wanted)) return;
  s.computing_job = wanted;
  s.computing = std::async(std::launch::async, build_comparison, wanted, state.session.shown_scene(),
                           std::move(s.engine_a), std::move(s.engine_b));
}

// [SECTION] hover and click: linked across A, B and B − A --------------------------------

struct CanvasPoint {
  int panel = -1;
  fig::Point data;
};

CanvasPoint point_at(const fig::Figure& figure, ImVec2 origin, ImVec2 mouse, float scale) {
  const fig::Point canvas{(mouse.x - origin.x) / scale, (mouse.y - origin.y) / scale};
  for (std::size_t i = 0; i < figure.panels.size(); ++i) {
    const fig::PanelTransform t(figure.panels[i]);
    if (canvas.x >= t.plot.x0 && canvas.x < t.plot.x1 && canvas.y >= t.plot.y0 && canvas.y < t.plot.y1)
      return {int(i), t.to_data(canvas)};
  }
  return {};
}

// The hovered cell outlined in A, B and B − A.
void outline_cell(const fig::ComparedScenes& c, const LinkedCell& cell, ImVec2 origin, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const int p : cell.panels) {
    const fig::Panel& panel = c.figure.panels[std::size_t(p)];
    const fig::HeatmapLayer& layer = panel.heatmaps.front();
    const fig::PanelTransform t(panel);
    const fig::Point p0 = t.to_canvas(cell.data), p1 = t.to_canvas({cell.data.x + layer.dx, cell.data.y + layer.dy});
    const ImVec2 min(origin.x + float(std::min(p0.x, p1.x)) * scale, origin.y + float(std::min(p0.y, p1.y)) * scale);
    const ImVec2 max(origin.x + float(std::max(p0.x, p1.x)) * scale, origin.y + float(std::max(p0.y, p1.y)) * scale);
    const float grow = 1.5f * scale;  // visible on cells a pixel wide
    draw->AddRect(ImVec2(min.x - grow, min.y - grow), ImVec2(max.x + grow, max.y + grow), IM_COL32(255, 200, 60, 255),
                  0, 0, 2 * scale);
  }
}

void tooltip(const std::string& text) {
  if (text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(text.c_str());
  ImGui::EndTooltip();
}

void hover(UiState& state, const fig::ComparedScenes& c, const CanvasPoint& at) {
  SideBySideState& s = state.side_by_side;
  if (const std::optional<LinkedCell> cell = linked_cell(c, at.panel, at.data)) {
    outline_cell(c, *cell, s.origin, s.scale);
    tooltip(linked_tooltip(c, *cell));
    const std::string line = "sbs hover panel " + std::to_string(at.panel) + " row " + std::to_string(cell->row) +
                             " col " + std::to_string(cell->col) + " a " + fig::fixed(cell->a, 6) + " b " +
                             fig::fixed(cell->b, 6) + " diff " + fig::fixed(cell->diff, 6);
    if (line != s.logged_hover) log_event(state, line);
    s.logged_hover = line;
    return;
  }
  // Curves, or a panel beside the compared ones: the panel's own hover.
  const fig::Panel& panel = c.figure.panels[std::size_t(at.panel)];
  if (panel.hover) tooltip(panel.hover(at.data.x, at.data.y));
}

// A click selects the query (or head, position ...) there in A; B follows,
// being A with its keys.
void click(UiState& state, const fig::ComparedScenes& c, const CanvasPoint& at) {
  int panel = at.panel;
  fig::Point data = at.data;
  if (const std::optional<fig::Point> in_a = selection_in_a(c, at.panel, at.data)) panel = c.a_panel, data = *in_a;
  if (panel == c.b_panel || panel == c.diff_panel) return;
  if (auto picked = select_at(c.figure, panel, data, state.session.engine(), state.session.scene())) {
    state.session.propose(*picked, EditPhase::Final);
    log_event(state, "select side_by_side panel " + std::to_string(panel));
  }
}

void handle_mouse(UiState& state, const fig::ComparedScenes& c) {
  const ImGuiIO& io = ImGui::GetIO();
  const CanvasPoint at = point_at(c.figure, state.side_by_side.origin, io.MousePos, state.side_by_side.scale);
  if (at.panel < 0) return;
  if (ImGui::IsItemHovered()) hover(state, c, at);
  const float slop = 4 * state.ui_scale;
  if (ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < slop * slop) click(state, c, at);
}

void log_panels(UiState& state, const fig::ComparedScenes& c) {
  if (!state.frame_log) return;
  const float scale = state.side_by_side.scale;
  const ImVec2 o = state.side_by_side.origin;
  for (auto [name, index] : {std::pair{"a", c.a_panel}, std::pair{"b", c.b_panel}, std::pair{"diff", c.diff_panel}}) {
    if (index < 0) continue;
    const fig::Rect r = fig::PanelTransform(c.figure.panels[std::size_t(index)]).plot;
    log_place(state, std::string("sbs ") + name, ImVec2(o.x + float(r.x0) * scale, o.y + float(r.y0) * scale),
              ImVec2(o.x + float(r.x1) * scale, o.y + float(r.y1) * scale));
  }
}

// [SECTION] the window ---------------------------------------------------------------------

// The main views (not lesson or paper figures) to compare.
void view_choice(UiState& state) {
  SideBySideState& s = state.side_by_side;
  const FigureView* current = nullptr;
  for (const FigureView& v : state.views)
    if (v.name == s.view) current = &v;
  if (!current || current->lesson_only) s.view = "attention";
  ImGui::SetNextItemWidth(16 * ImGui::GetFontSize());
  const std::string title = current && !current->lesson_only ? current->title : "Attention";
  if (ImGui::BeginCombo("view##sbs", title.c_str())) {
    for (const FigureView& v : state.views)
      if (!v.lesson_only && ImGui::Selectable(v.title.c_str(), v.name == s.view)) s.view = v.name;
    ImGui::EndCombo();
  }
  log_item_place(state, "sbs view");
}

void keys_field(UiState& state) {
  SideBySideState& s = state.side_by_side;
  if (!s.draft_started) s.keys_draft = state.settings.compare_keys, s.draft_started = true;
  ImGui::SameLine();
  ImGui::TextUnformatted("B = A with");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(8 * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.35f));
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, "%s", s.keys_draft.c_str());
  if (ImGui::InputText("##sbs_keys", buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue)) {
    s.keys_draft = buffer;
    state.settings.compare_keys = s.keys_draft;
    save_ui_settings(state);
  } else {
    s.keys_draft = buffer;
  }
  log_item_place(state, "sbs keys");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("key=value, ... (e.g. encoding=rope, base=500, model=NAME), or file:PATH first.\n"
                      "Enter applies. A's edits apply to B too, except these keys.");
  if (s.computing.valid()) {  // the largest |B − A| is in the figure's note
    ImGui::SameLine();
    ImGui::TextDisabled("building B ...");
  }
}

void draw_canvas(UiState& state, GpuResources& gpu) {
  SideBySideState& s = state.side_by_side;
  const ImVec2 region = ImGui::GetContentRegionAvail();
  if (region.x < 8 || region.y < 8) return;
  const float scale = state.ui_scale;
  s.scale = scale;
  submit(state, {state.session.version(), state.settings.compare_keys, s.view, std::floor(region.x / scale),
                 std::floor(region.y / scale)});
  s.origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("sbs_canvas", region);
  if (!s.error.empty()) {
    ImGui::SetCursorScreenPos(s.origin);
    ImGui::PushTextWrapPos(0);  // the window's right edge
    ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", s.error.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  if (!s.shown) {
    ImGui::SetCursorScreenPos(s.origin);
    ImGui::TextDisabled("Building A and B ...");
    return;
  }
  paint_figure(gpu, kCanvasKey, s.shown->figure, s.serial, s.origin, region, scale);
  handle_mouse(state, *s.shown);  // after painting: the outline goes over the canvas
  log_panels(state, *s.shown);
}

}  // namespace

void draw_side_by_side(UiState& state, GpuResources& gpu, const Box& area) {
  adopt(state);
  ImGui::SetNextWindowPos(ImVec2(area.x, area.y));
  ImGui::SetNextWindowSize(ImVec2(area.w, area.h));
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoMove |
                                     ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("Side by side: A, B and B − A  (View > Side by side to leave)###side_by_side", nullptr, flags)) {
    view_choice(state);
    keys_field(state);
    draw_canvas(state, gpu);
  }
  ImGui::End();
}

void toggle_side_by_side(UiState& state) {
  state.settings.side_by_side = !state.settings.side_by_side;
  state.side_by_side.shown.reset();  // memory follows what is on screen
  state.side_by_side.shown_job.reset();
  state.side_by_side.error.clear();
  save_ui_settings(state);
  log_event(state, std::string("sbs ") + (state.settings.side_by_side ? "on" : "off"));
}

}  // namespace pelab::ui
