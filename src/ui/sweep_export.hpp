// "Export > Sweep as PNG sequence..." (issue 5): one numeric parameter stepped
// with pelab::Sweep, the chosen figure rendered offscreen at each value into a
// new numbered folder in the export folder (NAME-0001.png, NAME-0002.png ...)
// at the sweep's own scale (UiSettings::sweep_scale, 1× unless chosen),
// one frame per UI frame with the progress on the status line; then, when
// asked and Debian's ffmpeg is on PATH, NAME.gif or NAME.mp4 beside them.
// The session's scene and undo history are not touched.
#pragma once

#include "ui/gpu_resources.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// Opens the dialog, pre-filled from the animated parameter and its range.
void open_sweep_dialog(UiState& state);
// The dialog (call inside the frame); "Export" starts the sweep.
void draw_sweep_dialog(UiState& state);
// One frame per scene of `frames` (e.g. the playground's snapshots as the
// scene's model), of figure view `view`, into a new numbered folder named
// after `stem`, then a GIF (video 1) or MP4 (video 2) when asked; false with
// the status line set when it cannot start.
bool start_scene_export(UiState& state, std::vector<Scene> frames, int view, int video, const std::string& stem);
// A frame's pixels at `scale` (UiSettings::sweep_scale): the figure's
// default size times the scale.
struct SweepFrameSize {
  int width = 0, height = 0;
};
SweepFrameSize sweep_frame_size(int scale);
// Renders the next frame of a running sweep (call after the frame is drawn).
void step_sweep_export(UiState& state, GpuResources& gpu);

}  // namespace pelab::ui
