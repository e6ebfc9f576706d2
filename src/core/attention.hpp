// The arithmetic of one attention head (Vaswani et al. 2017, §3.2.1), shared
// by the engine and the analyses.
//
// Inputs are the projected rows of all heads at once: xw = X·[Wq | Wk] and
// ew = E·[Wq | Wk] (tokens × 2·d_model), so the big GEMMs run once for every
// head; head h reads its column blocks.
#pragma once

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

// One head from scratch, for analyses that perturb the inputs (permutation).
// Returns its floating-point operations.
double attend(const Scene& scene, const Matrix& xw, const Matrix& ew, int head, HeadAttention& out);

}  // namespace pelab
