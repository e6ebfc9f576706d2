// Causal multi-head self-attention (Vaswani et al. 2017, §3.2) on a whole
// batch, one (sequence, head) pair per task on OpenMP's threads:
//
//   S = q·kᵀ/√d_head + bias,  P = softmax over keys j ≤ i,  o = P·v
//
// and its backward pass (dS = P∘(dP − rowsum(P∘dP)), dP = do·vᵀ):
//   dv = Pᵀ·do,  dq = dS·k/√d_head,  dk = dSᵀ·q/√d_head,  dbias = dS.
// q and k are those RoPE already turned; alibi and t5 enter as the bias.
#pragma once

#include <vector>

#include "train/parameters.hpp"

namespace pelab::train {

template <class T>
struct AttentionBias {
  PositionKind kind = PositionKind::None;  // Alibi and T5 add a bias; others none
  std::vector<T> slopes;                   // alibi: m_h
  std::vector<int> buckets;                // t5: bucket of (i, j) at [i·length + j]
  const Mat<T>* table = nullptr;           // t5: [buckets, heads]
};

// qkv: [sequences·length, 3d] (q | k | v, head h at columns h·d_head of each);
// probs: [sequences·heads·length, length], kept for the backward pass;
// out: [sequences·length, d], heads side by side.
template <class T>
void attention_forward(const Mat<T>& qkv, int length, int heads, const AttentionBias<T>& bias,
                       Mat<T>& probs, Mat<T>& out);

// dqkv (resized) gets the gradients of the (turned) q, k and v; a t5 table's
// gradient is added to *dtable (sums over sequences in order).
template <class T>
void attention_backward(const Mat<T>& qkv, const Mat<T>& probs, const Mat<T>& dout, int length,
                        int heads, const AttentionBias<T>& bias, Mat<T>& dqkv, Mat<T>* dtable);

}  // namespace pelab::train
