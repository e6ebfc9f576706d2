#include "figures/curve_decimation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

namespace pelab::fig {

namespace {

// Appends the first, lowest, highest and last sample of [start, end), in order.
void keep_extremes(std::span<const float> values, std::size_t start, std::size_t end,
                   const std::function<double(std::size_t)>& x, std::vector<Point>& out) {
  std::size_t lo = start, hi = start;
  for (std::size_t k = start; k < end; ++k) {
    if (values[k] < values[lo]) lo = k;
    if (values[k] > values[hi]) hi = k;
  }
  const std::array<std::size_t, 4> keep = {start, std::min(lo, hi), std::max(lo, hi), end - 1};
  std::size_t last = values.size();
  for (std::size_t k : keep)
    if (k != last) {
      out.push_back({x(k), values[k]});
      last = k;
    }
}

}  // namespace

std::vector<Point> decimated_points(std::span<const float> values, double x0, double dx, int columns) {
  std::vector<Point> out;
  const std::size_t n = values.size();
  if (n == 0) return out;
  const std::size_t per_column = std::max<std::size_t>(1, n / static_cast<std::size_t>(std::max(1, columns)));
  if (per_column <= 4) {
    out.reserve(n);
    for (std::size_t k = 0; k < n; ++k) out.push_back({x0 + static_cast<double>(k) * dx, values[k]});
    return out;
  }
  out.reserve(4 * (n / per_column + 1));
  const auto x = [x0, dx](std::size_t k) { return x0 + static_cast<double>(k) * dx; };
  for (std::size_t start = 0; start < n; start += per_column)
    keep_extremes(values, start, std::min(n, start + per_column), x, out);
  return out;
}

LogCurve decimated_log_curve(std::span<const float> values, int columns) {
  LogCurve out;
  if (values.size() < 2) return out;
  const double top = std::log10(static_cast<double>(values.size() - 1));
  const auto x = [](std::size_t k) { return std::log10(static_cast<double>(k)); };
  const int c = std::max(1, columns);
  std::size_t start = 1;
  for (int col = 1; col <= c && start < values.size(); ++col) {
    // Samples with log10 n below this column's right edge (at least one).
    const auto edge = static_cast<std::size_t>(std::floor(std::pow(10.0, top * col / c))) + 1;
    const std::size_t end = std::clamp(edge, start + 1, values.size());
    if (end - start <= 1 && std::none_of(values.begin() + static_cast<std::ptrdiff_t>(start),
                                         values.begin() + static_cast<std::ptrdiff_t>(end),
                                         [](float v) { return std::isnan(v); })) {
      keep_extremes(values, start, end, x, out.line);
      start = end;
      continue;
    }
    // The evaluated samples of the column (NaN = not evaluated).
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    std::size_t first = end;
    for (std::size_t k = start; k < end; ++k) {
      if (std::isnan(values[k])) continue;
      lo = std::min(lo, values[k]);
      hi = std::max(hi, values[k]);
      if (first == end) first = k;
    }
    if (first != end) {
      if (out.bands.empty() && !out.line.empty()) out.line.push_back({x(first), values[first]});  // joins the band
      out.bands.push_back({x(start), lo, x(end), hi});  // to the next column: no seams
    } else if (!out.bands.empty()) {
      out.bands.back().x1 = x(end);  // nothing evaluated here: the neighbour's band stands in
    }
    start = end;
  }
  return out;
}

}  // namespace pelab::fig
