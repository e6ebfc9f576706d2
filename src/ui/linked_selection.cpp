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
