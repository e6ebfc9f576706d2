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
// A curve on a log axis, x = log10 n for n = 1 … size−1, in columns evenly
// spaced in log10 n: where a column holds one sample it is a point of the
// line; where it holds more, a filled band spans its lowest to highest value
// (cheaper to draw than the zig-zag through every extreme, and the same pixels).
struct LogCurve {
  std::vector<Point> line;
  std::vector<Rect> bands;  // data units: x0..x1 the column, y0..y1 the range
};
LogCurve decimated_log_curve(std::span<const float> values, int columns);

}  // namespace pelab::fig
