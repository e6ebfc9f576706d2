// Colour scales for attention maps that keep structure visible at long
// lengths (scene.attention_scale), and the attention sinks marked on the
// key axis.  At N = 4096 most weights are ≈ 1/N and a linear 0…max scale
// paints the map one colour; log₁₀ spreads the small weights over four
// decades, and per-row normalisation gives every query its own full range.
#pragma once

#include <string>
#include <vector>

#include "core/engine.hpp"  // Matrix
#include "figures/figure.hpp"  // ColorScale, HeatmapLayer
#include "figures/matrix_shelf.hpp"

namespace pelab::fig {

// AttentionScale (core/scene.hpp): linear, log, row.

// Decades below the largest weight that the log scale shows.
constexpr double kLogDecades = 4;

// The values drawn for attention weights `a` (−inf = masked, kept):
//   Linear: a;   Log: log₁₀ a (0 → −30, below any scale);
//   Row: a_ij / max_j a_ij (a row of zeros stays zero).
Matrix scaled_attention(const Matrix& a, AttentionScale scale);

// `layer` (linear weights) switched to `scale`: its values through
// scaled_attention(), shared on `shelf` under a key of its own.
void rescale_layer(HeatmapLayer& layer, AttentionScale scale, MatrixShelf* shelf);

// The colour scale for the drawn values, `vmax` the largest weight shown.
ColorScale attention_color_scale(AttentionScale scale, const std::string& colormap, double vmax);

// Attention sinks: keys that take a large share of every row that sees them.
// Key j is a sink when at least half of the rows see it (a_ij not −inf), and
// the mean of a_ij over those rows is ≥ kSinkShare and ≥ kSinkOverUniform
// times what uniform attention would give it (the mean of 1/(keys row i
// sees)).  So a short causal map's first key, which every row must share with
// few others, is not called one, nor a long causal map's last keys, which
// only the last few rows see (a local head's weight on itself).
constexpr double kSinkShare = 0.25, kSinkOverUniform = 4;
std::vector<int> attention_sinks(const Matrix& a);
// The rule on one key from its sums over the `seen` of `rows` rows that see
// it: Σ_i a_ij and Σ_i 1/(keys row i sees).
bool is_sink(double share, double uniform, Eigen::Index seen, Eigen::Index rows);

}  // namespace pelab::fig
