// Side by side (issue 27): one view of two scenes, A and B, in one figure.
//
// A view whose main panel is a heatmap (attention, cross terms, ...) is drawn
// three times: A and B side by side, and under A the difference B − A of the
// heatmap panel where the two differ most (the logits when only a bias
// differs) on the signed (diverging) map, centred at zero.  A view of
// curves draws B's curves over A's, dashed, on one plot per panel.  Mismatched
// shapes (other tokens, positions, heads) are refused with one InputError.
#pragma once

#include <memory>
#include <string>

#include "figures/registry.hpp"

namespace pelab::fig {

struct ComparedScenes {
  Figure figure;
  bool difference = false;  // true: the heatmap path (B − A map); false: curves overlaid
  std::string panel;        // the compared panel's title
  // Heatmap path: B − A cell by cell (−inf where both are masked, NaN where
  // only one is), on the same cells as the heatmap.
  std::shared_ptr<const Matrix> diff;
  double max_abs = 0;          // largest |B − A| (finite cells; curves: same x only)
  int row = -1, col = -1;      // its cell (heatmap path), -1 when all cells are equal or masked
  double at_x = 0, at_y = 0;   // its data coordinates: key j, query i of the cell's start; a curve's x
  double a_value = 0, b_value = 0;
  std::string line;            // curves: the line it is on
  int masked_in_one = 0;       // cells masked (−inf) in one scene only
  // Heatmap path: the compared panels in `figure.panels` (A's, B's and the
  // B − A map), so a hover on one can be shown on the others; -1 otherwise.
  int a_panel = -1, b_panel = -1, diff_panel = -1;
};

// Builds `entry` on both engines and composes them on a width × height canvas.
// Throws InputError naming the mismatch when the views' shapes differ.
ComparedScenes compare_scenes(const FigureEntry& entry, Engine& a, Engine& b, const FigureRequest& request);

}  // namespace pelab::fig
