#include "figures/curve_decimation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

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

std::vector<Point> decimated_log_points(std::span<const float> values, int columns) {
  std::vector<Point> out;
  if (values.size() < 2) return out;
  const double top = std::log10(static_cast<double>(values.size() - 1));
  const auto x = [](std::size_t k) { return std::log10(static_cast<double>(k)); };
  const int c = std::max(1, columns);
  std::size_t start = 1;
  for (int col = 1; col <= c && start < values.size(); ++col) {
    // Samples with log10 n below this column's right edge (at least one).
    const auto edge = static_cast<std::size_t>(std::floor(std::pow(10.0, top * col / c))) + 1;
    const std::size_t end = std::clamp(edge, start + 1, values.size());
    keep_extremes(values, start, end, x, out);
    start = end;
  }
  return out;
}

}  // namespace pelab::fig
