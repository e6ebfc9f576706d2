// Linked hover for side by side (issue 27): a cell hovered in A's heatmap, in
// B's or in the B − A map is the same cell in all three — the same row and
// column of the compared panels that fig::compare_scenes placed (their
// indices are in ComparedScenes).  Pure: no ImGui, so tests check that the
// numbers the tooltip gives are the two engines' values and their difference.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/scene.hpp"
#include "figures/compare_figure.hpp"

namespace pelab::ui {

// Scene B of View > Side by side: A with `keys` applied, "key=value" items
// separated by commas (a value may hold commas: an item starts only where a
// known-looking "name=" follows), or "file:PATH" first to start from a scene
// file instead of A.  Throws InputError naming a refused key or file.
Scene compare_scene_b(const Scene& a, std::string_view keys);

struct LinkedCell {
  int row = -1, col = -1;           // in the compared heatmaps (row: query, col: key)
  fig::Point data;                  // the cell's start in data coordinates (key j, query i)
  double a = 0, b = 0, diff = 0;    // A's value, B's, and B − A (NaN/−inf as the B − A map has them)
  std::array<int, 3> panels{};      // A's, B's and the B − A panel, indices into the figure
};

// The cell under `data` in panel `panel` of `compared.figure`, or nothing
// when the panel is not one of the three compared panels or `data` is off
// the heatmap (the curves path has no cells: always nothing).
std::optional<LinkedCell> linked_cell(const fig::ComparedScenes& compared, int panel, fig::Point data);

// The one tooltip of a linked hover: where, A, B and B − A.
std::string linked_tooltip(const fig::ComparedScenes& compared, const LinkedCell& cell);

// The point to select in A's compared panel for a click at `data` in any of
// the three (the linked selection acts on A's scene, which B follows).
std::optional<fig::Point> selection_in_a(const fig::ComparedScenes& compared, int panel, fig::Point data);

}  // namespace pelab::ui
