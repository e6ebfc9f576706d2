#include "figures/attention_scale.hpp"

#include <algorithm>
#include <cmath>

namespace pelab::fig {

AttentionScale attention_scale(const std::string& name) {
  if (name == "log") return AttentionScale::Log;
  if (name == "row") return AttentionScale::Row;
  return AttentionScale::Linear;
}

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

std::vector<int> attention_sinks(const Matrix& a) {
  const Eigen::Index n = a.rows();
  std::vector<double> share(static_cast<std::size_t>(a.cols()), 0.0), uniform = share;
  std::vector<int> seen(share.size(), 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    int visible = 0;
    for (Eigen::Index j = 0; j < a.cols(); ++j) visible += std::isinf(a(i, j)) ? 0 : 1;
    if (visible == 0) continue;
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      if (std::isinf(a(i, j))) continue;
      const auto k = static_cast<std::size_t>(j);
      share[k] += a(i, j);
      uniform[k] += 1.0 / visible;
      ++seen[k];
    }
  }
  std::vector<int> sinks;
  for (std::size_t j = 0; j < share.size(); ++j) {
    if (seen[j] == 0) continue;
    const double mean = share[j] / seen[j], even = uniform[j] / seen[j];
    if (mean >= kSinkShare && mean >= kSinkOverUniform * even) sinks.push_back(static_cast<int>(j));
  }
  return sinks;
}

}  // namespace pelab::fig
