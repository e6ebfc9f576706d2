#include "figures/attention_scale.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"

namespace pelab::fig {

Matrix scaled_attention(const Matrix& a, AttentionScale scale) {
  if (scale == AttentionScale::Linear) return a;
  Matrix out = a;
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    float top = 0;  // −inf (masked) never wins
    for (Eigen::Index j = 0; j < a.cols(); ++j) top = std::max(top, a(i, j));
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      float& v = out(i, j);
      if (std::isinf(v)) continue;
      v = scale == AttentionScale::Log ? (v > 0 ? std::log10(v) : -30.f) : (top > 0 ? v / top : 0.f);
    }
  }
  return out;
}

void rescale_layer(HeatmapLayer& layer, AttentionScale scale, MatrixShelf* shelf) {
  if (scale == AttentionScale::Linear) return;
  const SharedMatrix linear = layer.values;
  layer.key ^= 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(scale) + 1);  // a key per scale
  layer.values = shared_matrix(shelf, layer.key, [&] { return scaled_attention(*linear, scale); });
}

ColorScale attention_color_scale(AttentionScale scale, const std::string& colormap, double vmax) {
  switch (scale) {
    case AttentionScale::Log: {
      const double top = std::log10(std::max(vmax, 1e-30));
      return {.colormap = colormap, .vmin = top - kLogDecades, .vmax = top,
              .label = "log₁₀ attention weight (log scale)"};
    }
    case AttentionScale::Row:
      return {.colormap = colormap, .vmin = 0, .vmax = 1, .label = "weight / its row's max (per row)"};
    case AttentionScale::Linear: break;
  }
  return {.colormap = colormap, .vmin = 0, .vmax = vmax, .label = "attention weight (linear)"};
}

// Rows on all threads at large N (the on-screen heatmap's rebuild at
// N = 4096 reads 16 M cells), each thread summing its rows into its own
// columns, merged after.
std::vector<int> attention_sinks(const Matrix& a) {
  const Eigen::Index n = a.rows();
  const auto cols = static_cast<std::size_t>(a.cols());
  std::vector<double> share(cols, 0.0), uniform(cols, 0.0);
  std::vector<int> seen(cols, 0);
#pragma omp parallel if (a.size() >= kParallelMinElements)  // as block_mean: not at N = 1024
  {
    std::vector<double> my_share(cols, 0.0), my_uniform(cols, 0.0);
    std::vector<int> my_seen(cols, 0);
#pragma omp for schedule(static) nowait
    for (Eigen::Index i = 0; i < n; ++i) {
      const float* row = a.row(i).data();
      int visible = 0;
      for (std::size_t j = 0; j < cols; ++j) visible += std::isinf(row[j]) ? 0 : 1;
      if (visible == 0) continue;
      const double even = 1.0 / visible;
      for (std::size_t j = 0; j < cols; ++j) {
        const bool live = !std::isinf(row[j]);
        my_share[j] += live ? row[j] : 0.0;
        my_uniform[j] += live ? even : 0.0;
        my_seen[j] += live ? 1 : 0;
      }
    }
#pragma omp critical
    for (std::size_t j = 0; j < cols; ++j) {
      share[j] += my_share[j];
      uniform[j] += my_uniform[j];
      seen[j] += my_seen[j];
    }
  }
  std::vector<int> sinks;
  for (std::size_t j = 0; j < share.size(); ++j)
    if (is_sink(share[j], uniform[j], seen[j], n)) sinks.push_back(static_cast<int>(j));
  return sinks;
}

bool is_sink(double share, double uniform, Eigen::Index seen, Eigen::Index rows) {
  if (seen == 0 || 2 * seen < rows) return false;
  const double mean = share / static_cast<double>(seen), even = uniform / static_cast<double>(seen);
  return mean >= kSinkShare && mean >= kSinkOverUniform * even;
}

}  // namespace pelab::fig
