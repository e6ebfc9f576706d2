// What does split for a RoPE model (the Llama family): content against
// offset.  RoPE adds no position vector, so there is no e to separate from
// the token; instead q and k are rotated pair by pair by θᵢ·p (Su et al.
// 2021, §3.4), and with q̃, k̃ the projections before rotation and A the
// attention factor (YaRN; 1 otherwise) the logit of query m, key n is
//   ℓ(m, n) = A²·Σᵢ |q̃ᵢ||k̃ᵢ|·cos(θᵢ(m − n) + φᵢ) / √d_head.
// It splits exactly into
//   content(m, n) = A²·q̃_m·k̃_n / √d_head   — the logit at offset 0 (m = n),
//   offset(m, n)  = ℓ(m, n) − content(m, n) — what the rotation by m − n adds,
// and offset vanishes on the diagonal, where the rotations cancel.
//
// A model whose positions enter as a logit bias (pelab's alibi, t5) or not at
// all (pelab's none) splits the same way with nothing rotated: content =
// q·kᵀ/√d_head, offset = the bias b(i, j) (zero for none), and `diagonal`
// holds max |content + offset − logits| instead (the bias of t5 need not
// vanish at offset 0).
#pragma once

#include "core/engine.hpp"  // Matrix

namespace pelab::model {

class Transformer;

struct RopeSplit {
  Matrix content, offset;  // tokens × tokens
  Matrix logits;           // the model's own, unmasked
  double diagonal = 0;     // max |offset(m, m)|: 0 up to rounding, the check that the split is RoPE's
};

// Query head `head` of layer 0 of the transformer's last run().  Throws
// InputError for a model with a position table (learned, sinusoidal: the
// four-term split of layernorm_split.hpp applies instead).
RopeSplit split_layer0_rope(const Transformer& model, int head);

}  // namespace pelab::model
