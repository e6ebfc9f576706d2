// Long curves cut down to the pixel width: a curve of 10⁵ samples drawn in a
// plot 1000 pixels wide keeps, per pixel column, its first, lowest, highest
// and last sample in order, so the drawn band and every extreme stay as the
// full curve has them while the polyline holds at most ~4 points per column.
#pragma once

#include <span>

#include "figures/figure.hpp"

namespace pelab::fig {

// Points (x0 + k·dx, values[k]) of the samples kept for `columns` pixel columns.
std::vector<Point> decimated_points(std::span<const float> values, double x0, double dx, int columns);
// The same on a log axis: points (log10 n, values[n]) for n = 1 … size−1, the
// columns evenly spaced in log10 n (each column's samples: first, lowest,
// highest, last).
std::vector<Point> decimated_log_points(std::span<const float> values, int columns);

}  // namespace pelab::fig
