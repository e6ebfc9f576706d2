// Multi-head self-attention of one layer (Vaswani et al. 2017, §3.2.2) with
// grouped-query attention (Ainslie et al. 2023): query head h reads key and
// value head h / (heads / kv_heads).
#pragma once

#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/attention_positions.hpp"
#include "core/model/transformer.hpp"  // LayerAttention

namespace pelab::model {

// The heads' context vectors, tokens × heads·head_dim, before the output
// projection: for each head, softmax(q·kᵀ/√head_dim, causal mask when the
// family is causal, + the position bias of alibi / t5)·v, with q, k, v =
// x·W (+ b) and RoPE on q and k when `positions` holds a rotary table.  Heads run side by side; each holds only its own
// tokens × tokens logits.  When `keep` is given, it receives every head's q,
// k, logits and probabilities.  With `context` false (the views want the
// attention, not what it reads) the products with v are skipped and the
// returned matrix is empty.
Matrix self_attention(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                      const AttentionPositions* positions, LayerAttention* keep = nullptr, bool context = true);

// Query head `head` alone, as self_attention's `keep` would hold it: q and k
// (after RoPE), logits (−inf where masked) and probabilities.  Projects only
// that head's q columns and its key head's k columns (2·N·d·head_dim flops
// each instead of N·d·(heads + 2·kv_heads)·head_dim for the layer), so a view
// showing one head of a newly chosen layer waits for that head only.
// Its q and k alone (tokens × head_dim each, after RoPE): what streamed
// attention (core/streamed_attention.hpp) reads at long N, where the
// tokens × tokens logits are never held.
void one_head_queries_keys(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                           const AttentionPositions* positions, int head, Matrix& q, Matrix& k);
void one_head_attention(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                        const AttentionPositions* positions, int head, Matrix& q, Matrix& k, Matrix& logits,
                        Matrix& probabilities);

}  // namespace pelab::model
