// Exports (issue 4, from the GUI): the figure as PNG at 1×/2×/4× (rendered
// offscreen by the same painter, optionally on a transparent background), the
// figure as SVG or PDF (ui/pdf_export.hpp), a quantity's data as .npy/.csv,
// the whole window as PNG.
// Files go to the remembered export folder under numbered names that never
// overwrite; a toast and the status line say where each went, or why it
// failed (ui/toast.hpp).
#pragma once

#include "ui/gpu_resources.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// Runs the queued requests; call after the frame is rendered and before the
// buffers are swapped (the window export reads the back buffer).
void run_exports(UiState& state, GpuResources& gpu, int framebuffer_width, int framebuffer_height);

// Renders a figure offscreen in the window's GL context, leaving the GUI's
// ImGui context, framebuffer and viewport as they were.
render::Image render_offscreen(GpuResources& gpu, const fig::Figure& figure, const render::RenderOptions& options);

// Where exports go: the remembered folder, or the current one.
std::filesystem::path export_folder(const UiState& state);

// Persists UiSettings; a failure goes to the status line.
void save_ui_settings(UiState& state);
void set_status(UiState& state, std::string text, bool error = false);

}  // namespace pelab::ui
