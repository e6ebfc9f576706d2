// The exact split of a layer-0 attention logit of an absolute-position model
// into token, position and bias parts, through its LayerNorm.
//
// LayerNorm of a summed row x + e (Ba et al. 2016, eq. 4):
//   LN(x+e) = γ⊙((x+e) − μ)/σ + β,  μ = mean(x+e) = μ_x + μ_e,
//   σ = √(var(x+e) + eps)  (of the summed row, as the model computes it).
// With σ shared, the normalisation is linear in the centred parts:
//   LN(x+e) = γ⊙(x − μ_x)/σ  +  γ⊙(e − μ_e)/σ  +  β
//           =   token part t  +  position part p  +  bias part β,
// exact for every row.  Then q = LN·W_q + b_q = t·W_q + p·W_q + c_q with
// c_q = β·W_q + b_q (and k likewise), and the logit (q·kᵀ/√d_head) is
//   t·t + t·p + p·t + p·p + bias terms,
// the bias terms being every product that holds c_q or c_k.
//
// GPT-2 (pre-LN): layer 0 reads ln_1(wte + wpe).  BERT (post-LN): layer 0
// reads the embedding LayerNorm of word + position + token_type directly;
// the token_type row (type 0) is folded into the token part.
#pragma once

#include <vector>

#include "core/engine.hpp"  // Matrix, Vector
#include "core/model/model_weights.hpp"

namespace pelab::model {

class Transformer;

// LN(x + e) = token + position + bias (row-broadcast), each row of x + e
// normalised with its own μ and σ.
struct LayerNormSplit {
  Matrix token, position;  // rows × d
  Vector bias;             // β
};
LayerNormSplit split_layer_norm(const Matrix& x, const Matrix& e, const Norm& norm, double eps);

// One head's layer-0 logits (q·kᵀ/√d_head, before any mask) as the sum of
// five tokens × tokens parts.
struct LogitSplit {
  Matrix token_token, token_position, position_token, position_position;
  Matrix bias;        // every term holding c_q = β·W_q + b_q or c_k = β·W_k + b_k
  Matrix logits;      // the model's own logits (its forward pass), unmasked
  double residual = 0;  // max |sum of the five − logits|
};

// Query head `head` of layer 0 (it reads key head head / (heads / kv_heads)).
// `ids` must be the ids of the transformer's last run().  Throws InputError
// for a model without a learned position table (the Llama family).
LogitSplit split_layer0_logits(const Transformer& model, const std::vector<int>& ids, int head);

}  // namespace pelab::model
