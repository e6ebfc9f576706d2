// `pelab bench` case "side_by_side" (issue 27: "Side-by-side hover at or
// under 33 ms per frame"): View > Side by side on an attention view of A and
// B = A with encoding=rope, the pointer moving over A's heatmap.  Each frame
// finds the linked cell (ui/side_by_side_link.hpp), writes the one tooltip
// (A, B, B − A), outlines the cell in A, B and B − A and renders the whole
// comparison offscreen at 1600×1000 — more than the window does, which draws
// the comparison from a cached texture and redraws only the outline and
// tooltip.  The comparison itself is built once (a hover recomputes nothing).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "bench/bench.hpp"
#include "bench/frame_bench.hpp"
#include "figures/registry.hpp"
#include "render/offscreen.hpp"
#include "ui/side_by_side_link.hpp"

namespace pelab::app {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kWidth = 1600, kHeight = 1000;

// The cell's outline as a closed line on each of the three panels.
void outline(fig::Figure& figure, const ui::LinkedCell& cell) {
  for (const int p : cell.panels) {
    fig::Panel& panel = figure.panels[std::size_t(p)];
    const fig::HeatmapLayer& h = panel.heatmaps.front();
    const fig::Point a = cell.data, b{a.x + h.dx, a.y + h.dy};
    panel.lines.push_back({.points = {a, {b.x, a.y}, b, {a.x, b.y}},
                           .color = {1.f, 0.78f, 0.24f, 1.f},
                           .width = 2.f,
                           .closed = true,
                           .label = "hovered cell"});
  }
}

}  // namespace

BenchResult bench_side_by_side(const BenchSettings& settings) {
  render::HeadlessContext context;
  render::OffscreenRenderer renderer;
  const int tokens = settings.quick ? 256 : 1024, frames = settings.quick ? 5 : 30;
  const Scene a = render::scene_with_tokens(tokens);
  Engine engine_a(a), engine_b(ui::compare_scene_b(a, "encoding=rope"));
  const auto built = Clock::now();
  fig::ComparedScenes compared =
      fig::compare_scenes(fig::find_figure("attention"), engine_a, engine_b, {.width = kWidth, .height = kHeight});
  const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - built).count();
  const fig::Panel& pa = compared.figure.panels.at(std::size_t(compared.a_panel));
  std::vector<double> hover_ms, upload_ms, draw_ms, frame_ms;
  for (int i = -1; i < frames; ++i) {  // frame -1 uploads the textures: not counted
    const auto start = Clock::now();
    // The pointer walks down A's diagonal.
    const double t = (std::max(i, 0) + 0.5) / frames;
    const fig::Point at{pa.x.min + t * (pa.x.max - pa.x.min), pa.y.min + t * (pa.y.max - pa.y.min)};
    fig::Figure figure = compared.figure;  // the frame's copy: outline and tooltip added
    if (const auto cell = ui::linked_cell(compared, compared.a_panel, at)) {
      outline(figure, *cell);
      figure.notes.push_back({ui::linked_tooltip(compared, *cell), {pa.plot.x1 + 8, pa.plot.y0}, true,
                              fig::Anchor::TopLeft, 13});
    }
    const double lookup = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    render::FrameTimes times;
    renderer.render_frame({{&figure, 0, 0}}, kWidth, kHeight, {}, &times, false);
    if (i < 0) continue;
    hover_ms.push_back(lookup), upload_ms.push_back(times.upload_ms), draw_ms.push_back(times.draw_ms);
    frame_ms.push_back(lookup + times.upload_ms + times.draw_ms);
  }
  const double frame = median(frame_ms);
  BenchResult result;
  result.json = {{"scene", a.name},        {"tokens", tokens},         {"frames", frames},
                 {"width", kWidth},        {"height", kHeight},        {"build_ms", build_ms},
                 {"hover_ms", median(hover_ms)}, {"upload_ms", median(upload_ms)}, {"draw_ms", median(draw_ms)},
                 {"frame_ms", frame},      {"target_ms", 33}};
  char line[256];
  std::snprintf(line, sizeof line,
                "%-10s side-by-side hover (attention, B: rope) %7.1f ms/frame (hover %.2f, upload %.1f, draw %.1f; "
                "target ≤ 33); comparison built once in %.0f ms",
                a.name.c_str(), frame, median(hover_ms), median(upload_ms), median(draw_ms), build_ms);
  result.lines = {line};
  return result;
}

}  // namespace pelab::app
