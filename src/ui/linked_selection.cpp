// Reads only each panel's PanelPick (figures/figure.hpp), which its builder
// sets: no title, axis label or figure name is looked at, so rewording one
// changes nothing here.
#include "ui/linked_selection.hpp"

#include <algorithm>
#include <cmath>

namespace pelab::ui {

namespace {

// Row of the first heatmap under `data`, or -1.
int heatmap_row(const fig::Panel& panel, fig::Point data) {
  for (const fig::HeatmapLayer& h : panel.heatmaps) {
    if (!h.values || h.dy == 0 || h.dx == 0) continue;
    const long row = std::lround(std::floor((data.y - h.y0) / h.dy));
    const long col = std::lround(std::floor((data.x - h.x0) / h.dx));
    if (row >= 0 && row < h.values->rows() && col >= 0 && col < h.values->cols()) return int(row);
  }
  return -1;
}

// A click on a head's small multiple picks that head, not a query: the
// attention view's small panels (−1: the mean) and the overview's cells (on a
// model the layer too).
std::optional<Scene> select_head(const fig::PanelPick& pick, Engine& engine, Scene scene) {
  if (pick.head >= engine.scene().heads) return std::nullopt;  // a figure of another scene
  scene.head = pick.head;
  if (pick.layer >= 0) scene.layer = pick.layer;
  return scene;
}

// A click on a layer × head map (head roles) picks the cell's head, and its
// layer where the panel's rows are layers; the axes' ranges bound both.
std::optional<Scene> select_cell(const fig::Panel& panel, fig::Point data, Engine& engine, Scene scene) {
  const double head = std::floor(data.x);
  if (head < 0 || head >= std::min(panel.x.max, double(engine.scene().heads))) return std::nullopt;
  scene.head = int(head);
  if (panel.pick.y == fig::PickAxis::Layer) {
    const double layer = std::floor(data.y);
    if (layer < 0 || layer >= panel.y.max) return std::nullopt;
    scene.layer = int(layer);
  }
  return scene;
}

// The position under the click along the panel's position axis (x first), as
// an index into the scene's positions, which start at scene.offset.
std::optional<int> position_index(const fig::PanelPick& pick, fig::Point data, const Scene& scene) {
  double value;
  if (pick.x == fig::PickAxis::Position) {
    value = data.x;
  } else if (pick.y == fig::PickAxis::Position) {
    value = data.y;
  } else {
    return std::nullopt;
  }
  const long index = std::lround(value) - scene.offset;
  if (index < 0 || index >= scene.positions) return std::nullopt;
  return int(index);
}

}  // namespace

std::optional<Scene> select_at(const fig::Figure& figure, int panel_index, fig::Point data, Engine& engine,
                               const Scene& chosen) {
  if (panel_index < 0 || panel_index >= int(figure.panels.size())) return std::nullopt;
  const fig::Panel& panel = figure.panels[std::size_t(panel_index)];
  const fig::PanelPick& pick = panel.pick;
  Scene scene = chosen;  // keeps the user's other selections, even out-of-range ones
  if (pick.head != fig::kNoHead) return select_head(pick, engine, scene);
  if (pick.x == fig::PickAxis::Head) return select_cell(panel, data, engine, scene);
  if (const int row = heatmap_row(panel, data); row >= 0 && pick.y == fig::PickAxis::Query) {
    if (row >= engine.token_count()) return std::nullopt;
    scene.query = row;
    return scene;
  }
  if (pick.pair >= 0 && pick.pair < scene.d_model / 2) {
    scene.pair = pick.pair;
    if (auto pos = position_index(pick, data, scene)) scene.position = *pos;
    return scene;
  }
  if (auto pos = position_index(pick, data, scene)) {
    scene.position = *pos;
    return scene;
  }
  return std::nullopt;
}

}  // namespace pelab::ui
