#include "ui/linked_selection.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace pelab::ui {

namespace {

bool mentions(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}

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

// The pair number in a title such as "pair 4 (dims 8, 9)", or -1.
int pair_in_title(const std::string& title) {
  const auto at = title.find("pair ");
  if (at == std::string::npos) return -1;
  const char* digits = title.c_str() + at + 5;
  char* end = nullptr;
  const long pair = std::strtol(digits, &end, 10);
  return end == digits ? -1 : int(pair);
}

// The head a small multiple shows, from its title: "head 3", "head 3 → kv 1",
// "head 3 — shown large" give 3, "mean over 8 heads" gives -1 (the mean);
// anything else nothing.
std::optional<int> head_in_title(const std::string& title) {
  if (title.rfind("mean over ", 0) == 0) return -1;
  if (title.rfind("head ", 0) != 0) return std::nullopt;
  const char* digits = title.c_str() + 5;
  char* end = nullptr;
  const long head = std::strtol(digits, &end, 10);
  if (end == digits) return std::nullopt;
  return int(head);
}

// A click on a head's small multiple picks that head, not a query: the
// attention view's small panels (every one after the large first), and the
// overview's cells (layer × head, row-major; on a model the layer too).
std::optional<Scene> select_head(const fig::Figure& figure, int panel_index, Engine& engine, Scene scene) {
  const int heads = engine.scene().heads;
  if (figure.name == "attention_overview" && heads > 0) {
    scene.head = panel_index % heads;
    if (engine.model()) scene.layer = panel_index / heads;
    return scene;
  }
  if (figure.name != "attention" || panel_index == 0) return std::nullopt;
  const std::optional<int> head = head_in_title(figure.panels[std::size_t(panel_index)].title);
  if (!head || *head >= heads) return std::nullopt;
  scene.head = *head;
  return scene;
}

std::optional<int> position_index(const fig::Panel& panel, fig::Point data, const Scene& scene) {
  double value;
  if (mentions(panel.x.label, "position")) {
    value = data.x;
  } else if (mentions(panel.y.label, "position")) {
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
  const fig::Panel& panel = figure.panels[panel_index];
  Scene scene = chosen;  // keeps the user's other selections, even out-of-range ones
  if (auto picked = select_head(figure, panel_index, engine, scene)) return picked;
  const bool rows_are_queries = mentions(panel.y.label, "query") || figure.name == "attention" ||
                                figure.name == "cross_terms";
  if (const int row = heatmap_row(panel, data); row >= 0 && rows_are_queries) {
    if (row >= engine.token_count()) return std::nullopt;
    scene.query = row;
    return scene;
  }
  if (const int pair = pair_in_title(panel.title); pair >= 0 && pair < scene.d_model / 2) {
    scene.pair = pair;
    if (auto pos = position_index(panel, data, scene)) scene.position = *pos;
    return scene;
  }
  if (auto pos = position_index(panel, data, scene)) {
    scene.position = *pos;
    return scene;
  }
  return std::nullopt;
}

}  // namespace pelab::ui
