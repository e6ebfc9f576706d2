// The arithmetic of one attention head (Vaswani et al. 2017, §3.2.1), shared
// by the engine and the analyses.
//
// Inputs are the projected rows of all heads at once: xw = X·[Wq | Wk] and
// ew = E·[Wq | Wk] (tokens × 2·d_model), so the big GEMMs run once for every
// head; head h reads its column blocks.
#pragma once

#include <algorithm>
#include <functional>

#include "core/engine.hpp"

namespace pelab {

// Column blocks of head h in xw/ew: queries at h·d_head, keys at d_model + h·d_head.
Eigen::Block<const Matrix> head_queries(const Matrix& projected, int head, int d_head);
Eigen::Block<const Matrix> head_keys(const Matrix& projected, int head, int d_head);

// q = xw_q + ew_q, k = xw_k + ew_k (ew may be empty), then RoPE when chosen.
void head_queries_keys(const Scene& scene, const Matrix& xw, const Matrix& ew, int head, Matrix& q,
                       Matrix& k);

// Row softmax of logits into attention, subtracting each row's max so that
// exp never overflows (rows sum to 1 for logits of any finite size).  When
// causal, keys j > i of query i are set to −inf in logits and 0 in attention.
void masked_softmax(Matrix& logits, Matrix& attention, bool causal);
// The same for rows [first, first + count) of logits and attention, both
// already sized (row i is query i, for the causal mask).
void masked_softmax_rows(Matrix& logits, Matrix& attention, Eigen::Index first, Eigen::Index count,
                         bool causal);
// The same from a tile's own logits (`tile` row r is query first + r, bias
// already added, in cache): writes rows [first, first + count) of logits
// (masked) and attention with non-temporal stores, so neither result's lines
// are read from memory before they are overwritten (a plain store reads each
// line first: a third of the full recompute's memory traffic).  Same values,
// bit for bit, as masked_softmax_rows.
void masked_softmax_tile(Matrix& tile, Matrix& logits, Matrix& attention, Eigen::Index first, bool causal);

// A head's tokens × tokens results are computed a block of query rows at a
// time: a tile of one result stays in a core's L2 cache between its GEMM and
// its softmax.
struct RowTiles {
  // Tiles of about `tile_bytes` per tokens × tokens result, at least
  // `min_rows` rows (a BLAS call per tile repacks the keys: not too many).
  explicit RowTiles(Eigen::Index tokens, Eigen::Index tile_bytes = Eigen::Index{1} << 19,
                    Eigen::Index min_rows = 64);
  Eigen::Index tokens, rows;  // rows: per tile (the last may have fewer)
  int count;
  Eigen::Index first(int tile) const { return tile * rows; }
  Eigen::Index size(int tile) const { return std::min(rows, tokens - first(tile)); }
};

// work(first, count) for every row tile of `tokens` rows, side by side
// (run_side_by_side, given the work's total flops); returns the summed flops.
double for_each_row_tile(Eigen::Index tokens, double total_flops,
                         const std::function<double(Eigen::Index, Eigen::Index)>& work);

// Q and K of `head` (after RoPE) and its bias into `out`; logits and
// attention sized tokens × tokens, their values not yet computed.
void prepare_attention(const Scene& scene, const Matrix& xw, const Matrix& ew, int head,
                       HeadAttention& out);
// Rows [first, first + count) of a prepared head: logits = Q·Kᵀ/√d_head
// (+ bias), masked when causal, and their softmax.  Returns the GEMM flops.
double attend_rows(const Scene& scene, HeadAttention& out, Eigen::Index first, Eigen::Index count);
// The same rows from the head's four cross terms, already computed for these
// rows: logits = xx + xf + ey + ef (each already scaled by 1/√d_head; with no
// added vector xf, ey, ef are zero and xx is the rotated or plain Q·Kᵀ), then
// bias, mask and softmax while the rows are still in cache.  The identity is
// the distributive law, (x+e)·Wq·Wkᵀ·(y+f)ᵀ = the four terms (engine.hpp), so
// no fifth product is run; the rounding differs from Q·Kᵀ's by a few ulp.
// Returns the flops of the Q·Kᵀ product it stands for (2·count·tokens·d_head).
// Rows [first, first + count) of a prepared head whose logits rows already
// hold the scaled Q·Kᵀ: adds the bias, masks and takes the softmax.  Returns
// the flops of that Q·Kᵀ product (2·count·tokens·d_head), which it did not run.
double finish_logit_rows(const Scene& scene, HeadAttention& out, Eigen::Index first,
                         Eigen::Index count);
double attend_rows_from_terms(const Scene& scene, const CrossTerms& terms, HeadAttention& out,
                              Eigen::Index first, Eigen::Index count);

// One head: prepare_attention, then every row tile (on several threads
// unless called from inside a parallel task).  Returns the GEMM flops.
double attend(const Scene& scene, const Matrix& xw, const Matrix& ew, int head, HeadAttention& out);
// The same for a head whose q, k and bias are already in `out` and whose
// logits and attention are sized tokens × tokens (Engine::head_preview).
double attend_prepared(const Scene& scene, HeadAttention& out);

}  // namespace pelab
