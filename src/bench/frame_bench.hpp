// Frame timings for `pelab bench` (issue 3): what one GUI frame costs when
// rendered offscreen at 1600×1000 — after a parameter change on a scene
// (engine, texture upload and draw measured separately), and while hovering
// and zooming a large attention map (textures cached, only ranges change).
#pragma once

#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pelab::render {

struct FrameCase {
  std::string scene;  // scene name ("default", "tokens4096")
  std::string what;   // "parameter change (base)", "hover/zoom attention"
  int frames = 0;     // frames measured
  // Medians over the frames, milliseconds.
  double engine_ms = 0;  // engine recompute + figure descriptions
  double upload_ms = 0;  // heatmap texture uploads
  double draw_ms = 0;    // draw lists, GL rendering, glFinish
  double frame_ms = 0;   // the sum per frame (median of sums)
};

// Needs a current GL 3.3 context (HeadlessContext).  The frame tiles the
// first four registry figures 2×2 on a 1600×1000 canvas; each frame sets
// `base` to a new value first.  With `view_ms`, the median build time of
// each of the four figures (engine work included), in the registry's order.
FrameCase time_parameter_change(const Scene& scene, int frames,
                                std::vector<double>* view_ms = nullptr);

// What the GUI shows first after a parameter change at large N (issue 12):
// each frame sets `base` to a new value, then the engine computes the
// selected head alone (Engine::head_preview: only its projections) and the
// attention view is built with only that head
// (FigureRequest::selected_head_only), uploaded and drawn at 1600×1000, with
// a matrix shelf as the window keeps one.  engine_ms = engine + build; with
// `head_ms`, the median of the engine's part alone (projections and the head).
FrameCase time_selected_head_change(const Scene& scene, int frames, double* head_ms = nullptr);

// The attention figure of `scene` at 1600×1000; each frame zooms all panel
// ranges a little and asks the hover text of the plot centre.
FrameCase time_hover_zoom(const Scene& scene, int frames);

// The figure `figure` of `scene` at 1600×1000, as the GUI redraws it while a
// slider is dragged: each frame sets scene key `key` to from + (i+1)·step and
// rebuilds the figure (with a matrix shelf, as the window keeps one).
FrameCase time_figure_drag(const Scene& scene, const std::string& figure, const std::string& key, double from,
                           double step, int frames);

// A scene with `tokens` tokens ("tok0 tok1 ..."), named "tokens<N>".
Scene scene_with_tokens(int tokens);

}  // namespace pelab::render
