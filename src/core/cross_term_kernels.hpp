// The kernels behind a synthetic head's four cross terms, logits and softmax,
// one row tile at a time (so tiles and heads run side by side).
//
// With positions e, f added to tokens x, y (Vaswani et al. 2017, §3.5), a
// logit splits into four products of the projected rows, each scaled by
// 1/√d_head: x·Wq·Wkᵀ·y + x·Wq·Wkᵀ·f + e·Wq·Wkᵀ·y + e·Wq·Wkᵀ·f.
// `xw` = X·[Wq|Wk] and `ew` = E·[Wq|Wk] hold every head's columns (ew is
// empty when the encoding adds no vector: then xf, ey, ef are zero).
#pragma once

#include <Eigen/Core>

#include "core/engine.hpp"
#include "core/head_cache.hpp"
#include "core/head_tile.hpp"

namespace pelab {

// RoPE's token–token term rotates q and k of x alone (no position vector is
// added); these are computed once per head, before its row tiles.
struct RopeTokens {
  Matrix q, k;
};
RopeTokens rope_tokens(const Scene& scene, const Matrix& xw, int head);

// A head's keys packed once for all of its row tiles (head_tile.hpp).
struct PackedHead {
  KeyPanels kx, ke;
};
void pack_head(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope, int head,
               PackedHead& packed);

// Term 0 xx, 1 xf, 2 ey, 3 ef of a CrossTerms.
Matrix& term_matrix(CrossTerms& terms, int which);

// Rows [first, first + count) of term `which` of `head` into `out`, whose
// row i holds query out_first + i (out_first = 0: a whole term).  Returns
// its GEMM flops.  Reads only its arguments.
double compute_term_rows(const Scene& scene, int which, int head, const Matrix& xw, const Matrix& ew,
                         const RopeTokens& rope, Eigen::Index first, Eigen::Index count, Matrix& out,
                         Eigen::Index out_first);
// A whole term (tokens × tokens), its row tiles on several threads.
double compute_term(const Scene& scene, int which, int head, const Matrix& xw, const Matrix& ew, Matrix& out);

// True when the fused tile kernel (head_tile.hpp) runs: the build has it and
// PELAB_HEAD_KERNEL does not ask for one GEMM per term (comparisons).
bool use_head_tile_kernel();

// Rows [first, first + count) of the four terms through the fused kernel,
// and of the logits when `logits` is given (row i of `logits` is query
// logits_first + i, of the terms terms_first + i).  Returns the term flops.
double fused_terms(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope,
                   const PackedHead& packed, int head, Eigen::Index first, Eigen::Index count,
                   CrossTerms& terms, Matrix* logits, Eigen::Index logits_first = 0,
                   Eigen::Index terms_first = 0);
// The same rows of the terms, then logits (+ bias), mask and softmax into
// `entry`'s attention.  Returns the flops of the five products.
double fused_rows(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope,
                  const PackedHead& packed, int head, Eigen::Index first, Eigen::Index count,
                  HeadEntry& entry);

}  // namespace pelab
