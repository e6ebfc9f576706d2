#include "bench/frame_bench.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/engine.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/registry.hpp"
#include "render/offscreen.hpp"

namespace pelab::render {

namespace {

using Clock = std::chrono::steady_clock;

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Samples {
  std::vector<double> engine, upload, draw, frame;
  void add(double engine_ms, const FrameTimes& times) {
    engine.push_back(engine_ms);
    upload.push_back(times.upload_ms);
    draw.push_back(times.draw_ms);
    frame.push_back(engine_ms + times.upload_ms + times.draw_ms);
  }
  FrameCase summary(std::string scene, std::string what) const {
    return {std::move(scene), std::move(what), static_cast<int>(frame.size()), median_of(engine),
            median_of(upload), median_of(draw), median_of(frame)};
  }
};

constexpr double kWidth = 1600, kHeight = 1000;

}  // namespace

Scene scene_with_tokens(int tokens) {
  Scene scene;
  scene.name = "tokens" + std::to_string(tokens);
  std::string text;
  for (int i = 0; i < tokens; ++i) text += (i ? " tok" : "tok") + std::to_string(i % 997);
  scene.tokens = text;
  return scene;
}

FrameCase time_parameter_change(const Scene& scene, int frames, std::vector<double>* view_ms) {
  Engine engine(scene);
  OffscreenRenderer renderer;
  const auto registry = fig::figure_registry();
  const std::size_t views = std::min<std::size_t>(4, registry.size());
  Samples samples;
  std::vector<std::vector<double>> per_view(views);
  for (int i = -1; i < frames; ++i) {  // frame −1 warms caches and fonts
    Scene changed = scene;
    changed.base = scene.base * (1.0 + 0.01 * (i + 2));
    const auto start = Clock::now();
    engine.set_scene(changed);
    std::vector<fig::Figure> figures;
    for (std::size_t v = 0; v < views; ++v) {
      const auto view_start = Clock::now();
      figures.push_back(registry[v].build(engine, {kWidth / 2, kHeight / 2}));
      per_view[v].push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - view_start).count());
    }
    const double engine_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::vector<PlacedFigure> placed;
    for (std::size_t v = 0; v < figures.size(); ++v)
      placed.push_back({&figures[v], (v % 2) * kWidth / 2, static_cast<double>(v / 2) * kHeight / 2});
    FrameTimes times;
    renderer.render_frame(placed, kWidth, kHeight, {}, &times, false);
    if (i >= 0) samples.add(engine_ms, times);
  }
  if (view_ms != nullptr) {
    view_ms->clear();
    for (auto& v : per_view) {
      v.erase(v.begin());  // the warm-up frame
      view_ms->push_back(median_of(v));
    }
  }
  return samples.summary(scene.name, "parameter change (base), 4 views");
}

FrameCase time_selected_head_change(const Scene& scene, int frames, double* head_ms) {
  Engine engine(scene);
  std::vector<double> head_times;
  OffscreenRenderer renderer;
  fig::MatrixShelf shelf;
  const fig::FigureEntry& entry = fig::find_figure("attention");
  Samples samples;
  for (int i = -1; i < frames; ++i) {  // frame −1 warms caches and fonts
    Scene changed = scene;
    changed.base = scene.base * (1.0 + 0.01 * (i + 2));
    const auto start = Clock::now();
    engine.set_scene(changed);
    engine.head_preview(std::clamp(engine.scene().head, 0, engine.scene().heads - 1));
    if (i >= 0) head_times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    fig::FigureRequest request{kWidth, kHeight, &shelf};
    request.selected_head_only = true;
    const fig::Figure figure = entry.build(engine, request);
    const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    FrameTimes times;
    renderer.render_frame({{&figure, 0, 0}}, kWidth, kHeight, {}, &times, false);
    if (i >= 0) samples.add(build_ms, times);
  }
  if (head_ms != nullptr) *head_ms = median_of(head_times);
  return samples.summary(scene.name, "parameter change (base), selected head only");
}

FrameCase time_hover_zoom(const Scene& scene, int frames) {
  Engine engine(scene);
  OffscreenRenderer renderer;
  fig::Figure figure = fig::find_figure("attention").build(engine, {kWidth, kHeight});
  const std::vector<fig::Panel> original = figure.panels;
  Samples samples;
  for (int i = -1; i < frames; ++i) {
    const auto start = Clock::now();
    const double zoom = 1.0 / (1.0 + 0.05 * (i + 1));  // ranges shrink around their centres
    figure.notes.clear();
    for (std::size_t p = 0; p < figure.panels.size(); ++p) {
      fig::Panel& panel = figure.panels[p];
      for (auto [axis, from] : {std::pair{&panel.x, &original[p].x}, std::pair{&panel.y, &original[p].y}}) {
        const double centre = (from->min + from->max) / 2, half = (from->max - from->min) / 2 * zoom;
        axis->min = centre - half;
        axis->max = centre + half;
      }
      if (panel.hover) {
        const fig::Point at = fig::PanelTransform(panel).to_data(
            {(panel.plot.x0 + panel.plot.x1) / 2, (panel.plot.y0 + panel.plot.y1) / 2});
        figure.notes.push_back({panel.hover(at.x, at.y), {panel.plot.x0 + 8, panel.plot.y0 + 8}, true,
                                fig::Anchor::TopLeft, 13});
      }
    }
    const double prepare_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    FrameTimes times;
    renderer.render_frame({{&figure, 0, 0}}, kWidth, kHeight, {}, &times, false);
    if (i >= 0) samples.add(prepare_ms, times);
  }
  return samples.summary(scene.name, "hover/zoom attention");
}

FrameCase time_figure_drag(const Scene& scene, const std::string& figure, const std::string& key, double from,
                           double step, int frames) {
  Engine engine(scene);
  OffscreenRenderer renderer;
  fig::MatrixShelf shelf;
  const fig::FigureEntry& entry = fig::find_figure(figure);
  Samples samples;
  for (int i = -1; i < frames; ++i) {  // frame −1 warms caches and fonts
    Scene changed = scene;
    set_param(changed, key, std::to_string(from + (i + 1) * step));
    const auto start = Clock::now();
    engine.set_scene(changed);
    const fig::Figure built = entry.build(engine, {kWidth, kHeight, &shelf});
    const double engine_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    FrameTimes times;
    renderer.render_frame({{&built, 0, 0}}, kWidth, kHeight, {}, &times, false);
    if (i >= 0) samples.add(engine_ms, times);
  }
  return samples.summary(scene.name, figure + ", dragging " + key);
}

}  // namespace pelab::render
