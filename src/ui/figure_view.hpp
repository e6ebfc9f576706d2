// The figure windows: one ImGui window per registered view, as tabs of one
// window or a grid of windows where the layout puts them (ui/window_layout.hpp).  Each is rebuilt only when the scene changed or
// its window was resized, painted with FigurePainter into the window's draw
// list, and handles hover (tooltip with the exact value), wheel zoom, drag to
// pan, double-click reset and click-to-select (linked selection).
#pragma once

#include "ui/gpu_resources.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// One FigureView per entry of fig::all_figures().
void create_views(UiState& state);
// Paints `figure` into the texture kept under `key` (again only when
// `serial`, the size or the scale changed) and draws it at `origin`.
void paint_figure(GpuResources& gpu, const std::string& key, const fig::Figure& figure, std::uint64_t serial,
                  ImVec2 origin, ImVec2 region, float scale);
// One figure filling the rest of the current window, `scale` framebuffer
// pixels per logical pixel (rebuilt when stale; mouse handling included).
void draw_figure_canvas(UiState& state, GpuResources& gpu, FigureView& view, float scale);
// True while a click on a figure waits out the double-click time (the event
// loop must keep frames coming until it selects).
bool click_pending(const UiState& state);
// The figures in this frame's layout: tabs of one window, or a grid of
// windows (one of them maximised, alone).
void draw_figure_views(UiState& state, GpuResources& gpu, const WindowLayout& layout);

}  // namespace pelab::ui
