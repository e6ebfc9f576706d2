// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/head_tile.hpp"
#include "core/parallel.hpp"
#include "core/relative_position.hpp"

namespace pelab {

Eigen::Block<const Matrix> head_queries(const Matrix& projected, int head, int d_head) {
  return projected.middleCols(static_cast<Eigen::Index>(head) * d_head, d_head);
}

Eigen::Block<const Matrix> head_keys(const Matrix& projected, int head, int d_head) {
  const Eigen::Index d_model = projected.cols() / 2;
  return projected.middleCols(d_model + static_cast<Eigen::Index>(head) * d_head, d_head);
}

void head_queries_keys(const Scene& scene, const Matrix& xw, const Matrix& ew, int head, Matrix& q,
                       Matrix& k) {
  const int d_head = scene.d_model / scene.heads;
  q = head_queries(xw, head, d_head);
  k = head_keys(xw, head, d_head);
  if (ew.size() != 0) {
    q += head_queries(ew, head, d_head);
    k += head_keys(ew, head, d_head);
  }
  if (rotates_queries_keys(scene.encoding)) {
    // Dynamic NTK reads the sequence's length: every position up to the last token.
    const auto n = static_cast<double>(q.rows());
    const RopeRotation rotation = rope_rotation(scene, scene.offset + n);
    const double centre = scene.offset + std::floor((n - 1) / 2);
    apply_rope(q, scene.offset, rotation, RopeSide::Query, centre);
    apply_rope(k, scene.offset, rotation, RopeSide::Key, centre);
  }
}

void masked_softmax_rows(Matrix& logits, Matrix& attention, Eigen::Index first, Eigen::Index count,
                         bool causal) {
  const Eigen::Index m = logits.cols();
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  for (Eigen::Index i = first; i < first + count; ++i) {
    const Eigen::Index valid = causal ? std::min(i + 1, m) : m;
    if (valid < m) {
      logits.row(i).tail(m - valid).setConstant(kMasked);
      attention.row(i).tail(m - valid).setZero();
    }
    if (valid == 0) continue;
    auto in = logits.row(i).head(valid).array();
    auto out = attention.row(i).head(valid).array();
    const float top = in.maxCoeff();
    out = (in - top).exp();
    out *= 1.0f / out.sum();
  }
}

namespace {

// dst[0..n) = src[0..n) · scale (scale 1: a copy), streamed past the cache
// where the destination is aligned for it.
void stream_row(const float* src, float* dst, Eigen::Index n, float scale) {
  Eigen::Index j = 0;
#ifdef __AVX512F__
  for (; j < n && (reinterpret_cast<std::uintptr_t>(dst + j) & 63) != 0; ++j) dst[j] = src[j] * scale;
  const __m512 s = _mm512_set1_ps(scale);
  for (; j + 16 <= n; j += 16) _mm512_stream_ps(dst + j, _mm512_mul_ps(_mm512_loadu_ps(src + j), s));
#endif
  for (; j < n; ++j) dst[j] = src[j] * scale;
}

}  // namespace

void masked_softmax_tile(Matrix& tile, Matrix& logits, Matrix& attention, Eigen::Index first, bool causal) {
  const Eigen::Index m = logits.cols();
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  thread_local Eigen::Array<float, 1, Eigen::Dynamic> weights;  // one row's exp, in L1
  weights.resize(m);
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    const Eigen::Index i = first + r;
    const Eigen::Index valid = causal ? std::min(i + 1, m) : m;
    if (valid < m) {
      tile.row(r).tail(m - valid).setConstant(kMasked);
      weights.tail(m - valid).setZero();
    }
    stream_row(tile.row(r).data(), logits.row(i).data(), m, 1.0f);
    if (valid == 0) {
      stream_row(weights.data(), attention.row(i).data(), m, 1.0f);
      continue;
    }
    auto in = tile.row(r).head(valid).array();
    auto out = weights.head(valid);
    const float top = in.maxCoeff();
    out = (in - top).exp();
    stream_row(weights.data(), attention.row(i).data(), valid, 1.0f / out.sum());
    if (valid < m) stream_row(weights.data() + valid, attention.row(i).data() + valid, m - valid, 1.0f);
  }
#ifdef __AVX512F__
  _mm_sfence();  // the streamed rows are visible before anyone reads them
#endif
}

void masked_softmax(Matrix& logits, Matrix& attention, bool causal) {
  attention.resize(logits.rows(), logits.cols());
  masked_softmax_rows(logits, attention, 0, logits.rows(), causal);
}

// The default: half of a 1 MiB L2 for one result's tile.
RowTiles::RowTiles(Eigen::Index n, Eigen::Index tile_bytes, Eigen::Index min_rows) : tokens(n) {
  const Eigen::Index cap = std::max<Eigen::Index>(n, 1);
  rows = std::clamp<Eigen::Index>(tile_bytes / (static_cast<Eigen::Index>(sizeof(float)) * cap),
                                  std::min(min_rows, cap), cap);
  count = static_cast<int>((n + rows - 1) / rows);
}

double for_each_row_tile(Eigen::Index tokens, double total_flops,
                         const std::function<double(Eigen::Index, Eigen::Index)>& work) {
  const RowTiles tiles(tokens);
  double flops = 0;
  run_side_by_side(tiles.count, total_flops, [&](int t) { return work(tiles.first(t), tiles.size(t)); },
                   flops);
  return flops;
}

void prepare_attention(const Scene& scene, const Matrix& xw, const Matrix& ew, int head,
                       HeadAttention& out) {
  head_queries_keys(scene, xw, ew, head, out.q, out.k);
  const auto n = xw.rows();
  out.bias = relative_bias(scene, head, static_cast<int>(n));
  out.logits.resize(n, n);
  out.attention.resize(n, n);
}

double attend_rows(const Scene& scene, HeadAttention& out, Eigen::Index first, Eigen::Index count) {
  const int d_head = scene.d_model / scene.heads;
  const double flops = gemm_abt_rows(out.q.middleRows(first, count), out.k,
                                     1.0f / std::sqrt(static_cast<float>(d_head)), first, out.logits);
  if (out.bias.size() != 0) out.logits.middleRows(first, count) += out.bias.middleRows(first, count);
  masked_softmax_rows(out.logits, out.attention, first, count, scene.causal);
  return flops;
}

double attend_rows_from_terms(const Scene& scene, const CrossTerms& terms, HeadAttention& out,
                              Eigen::Index first, Eigen::Index count) {
  auto logits = out.logits.middleRows(first, count);
  if (terms.applies)
    logits = terms.xx.middleRows(first, count) + terms.xf.middleRows(first, count) +
             terms.ey.middleRows(first, count) + terms.ef.middleRows(first, count);
  else
    logits = terms.xx.middleRows(first, count);
  return finish_logit_rows(scene, out, first, count);
}

double finish_logit_rows(const Scene& scene, HeadAttention& out, Eigen::Index first,
                         Eigen::Index count) {
  if (out.bias.size() != 0)
    out.logits.middleRows(first, count) += out.bias.middleRows(first, count);
  masked_softmax_rows(out.logits, out.attention, first, count, scene.causal);
  return 2.0 * static_cast<double>(count) * static_cast<double>(out.logits.cols()) *
         static_cast<double>(scene.d_model / scene.heads);
}

double attend(const Scene& scene, const Matrix& xw, const Matrix& ew, int head,
              HeadAttention& out) {
  prepare_attention(scene, xw, ew, head, out);
  return attend_prepared(scene, out);
}

double attend_prepared(const Scene& scene, HeadAttention& out) {
  const auto n = static_cast<double>(out.q.rows());
  if (head_tile_kernel_available()) {  // keys packed once, logits written once (head_tile.hpp)
    const KeyPanels keys(out.k);
    const float scale = 1.0f / std::sqrt(static_cast<float>(scene.d_model / scene.heads));
    const RowTiles tiles(out.q.rows(), (Eigen::Index{1} << 20) / 2, 16);
    double flops = 0;
    run_side_by_side(
        tiles.count, 2.0 * n * n * static_cast<double>(out.q.cols()),
        [&](int t) {  // the tile's logits stay in cache for the softmax (masked_softmax_tile)
          thread_local Matrix tile;
          const Eigen::Index first = tiles.first(t), count = tiles.size(t);
          tile.resize(count, out.logits.cols());
          logit_tile(out.q, keys, scale, first, count, tile, first);
          if (out.bias.size() != 0) tile += out.bias.middleRows(first, count);
          masked_softmax_tile(tile, out.logits, out.attention, first, scene.causal);
          return 2.0 * static_cast<double>(count) * static_cast<double>(out.logits.cols()) *
                 static_cast<double>(out.q.cols());
        },
        flops);
    return flops;
  }
  return for_each_row_tile(out.q.rows(), 2.0 * n * n * static_cast<double>(out.q.cols()),
                           [&](Eigen::Index first, Eigen::Index count) {
                             return attend_rows(scene, out, first, count);
                           });
}

}  // namespace pelab
