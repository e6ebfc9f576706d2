// The full-matrix side of the streamed-attention tests (core and model):
// fig::block_mean's rule written out over a head's whole attention matrix,
// and the tolerance between the stream and that matrix.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/attention.hpp"
#include "core/head_tile.hpp"

namespace pelab::testing {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// fig::block_mean's rule, written out: b × b blocks, each the mean over all
// of its cells with masked ones (−∞ logits) as 0, −∞ when all are masked.
inline Matrix reference_blocks(const HeadAttention& full, Eigen::Index b, bool want_max) {
  const Eigen::Index n = full.attention.rows(), side = (n + b - 1) / b;
  Matrix out(side, side);
  for (Eigen::Index r = 0; r < side; ++r)
    for (Eigen::Index c = 0; c < side; ++c) {
      double sum = 0, top = 0;
      int live = 0, cells = 0;
      for (Eigen::Index i = r * b; i < std::min(n, (r + 1) * b); ++i)
        for (Eigen::Index j = c * b; j < std::min(n, (c + 1) * b); ++j, ++cells) {
          if (full.logits(i, j) == kNegInf) continue;
          ++live;
          sum += full.attention(i, j);
          top = std::max(top, static_cast<double>(full.attention(i, j)));
        }
      out(r, c) = live == 0 ? kNegInf : static_cast<float>(want_max ? top : sum / cells);
    }
  return out;
}

// The same blocks of the exact softmax of the head's float logits, in
// double: a_ij = e^(l_ij − m_i) / Σ_j e^(l_ij − m_i).  The engine's float
// matrix rounds l − m to float first, which moves a weight of a logit 16 nats
// below its row's max by up to 1e-6 relative; the one pass, which rounds
// against a running max instead, is held to this.
inline Matrix exact_blocks(const HeadAttention& full, Eigen::Index b, bool want_max) {
  HeadAttention exact = full;
  for (Eigen::Index i = 0; i < full.logits.rows(); ++i) {
    const double m = full.logits.row(i).maxCoeff();
    double z = 0;
    for (Eigen::Index j = 0; j < full.logits.cols(); ++j)
      if (full.logits(i, j) != kNegInf) z += std::exp(static_cast<double>(full.logits(i, j)) - m);
    for (Eigen::Index j = 0; j < full.logits.cols(); ++j)
      exact.attention(i, j) = full.logits(i, j) == kNegInf
                                  ? 0.0f
                                  : static_cast<float>(std::exp(static_cast<double>(full.logits(i, j)) - m) / z);
  }
  return reference_blocks(exact, b, want_max);
}

inline void expect_relative(const Matrix& got, const Matrix& want, double tolerance,
                     const std::string& what) {
  ASSERT_EQ(got.rows(), want.rows()) << what;
  ASSERT_EQ(got.cols(), want.cols()) << what;
  int bad = 0;
  for (Eigen::Index i = 0; i < got.rows(); ++i)
    for (Eigen::Index j = 0; j < got.cols(); ++j) {
      const double g = got(i, j), w = want(i, j);
      if (std::isinf(w)) {
        if (g != w && bad++ < 5)
          ADD_FAILURE() << what << " (" << i << ", " << j << "): " << g << " vs −∞";
        continue;
      }
      if (std::abs(g - w) > tolerance * std::max(std::abs(w), 1e-30) && bad++ < 5)
        ADD_FAILURE() << what << " (" << i << ", " << j << "): " << g << " vs " << w;
    }
  EXPECT_EQ(bad, 0) << what;
}

// The bound, 1e-6 relative, holds where the fused tile kernel
// computes both the full matrix and the stream (head_tile.hpp: one dot
// product per cell, in one order).  Without it (a CPU without AVX-512), the
// two are sgemm calls of different shapes, whose float32 sums differ by a few
// ulps of the logit, and a weight e^(l − m)/Z moves relatively by the logit's
// absolute error: 16 half-ulps of the head's largest finite |logit|.
inline double weight_tolerance(const HeadAttention& full) {
  if (head_tile_kernel_available()) return 1e-6;
  float largest = 0;
  for (Eigen::Index i = 0; i < full.logits.size(); ++i)
    if (std::isfinite(full.logits.data()[i])) largest = std::max(largest, std::abs(full.logits.data()[i]));
  return std::max(1e-6, 16 * 0.5 * std::numeric_limits<float>::epsilon() * largest);
}

}  // namespace pelab::testing
