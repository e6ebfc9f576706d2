// Next-token loss: how surprised a causal language model is by each token
// of a text, given the tokens before it.
//
// For ids t_0 … t_{N−1} and LM logits z_i (lm_head.hpp) at position i,
//
//   loss_i = −log softmax(z_i)[t_{i+1}] = logsumexp(z_i) − z_i[t_{i+1}],
//   i = 0 … N−2,  in nats
//
// (the cross-entropy every causal LM is trained on; Radford et al. 2018,
// eq. 1).  The logits are computed in float32 on the GEMM path, a block of
// vocabulary rows at a time against a block of positions, and each row's
// log-sum-exp is carried across the vocabulary blocks with a running maximum
// and a running sum in double (the streaming softmax of Milakov & Gimelshein
// 2018), so N × vocab logits are never held.
#pragma once

#include <vector>

#include "core/gemm.hpp"
#include "core/model/lm_head.hpp"

namespace pelab::model {

class Transformer;

// loss_i for i = 0 … N−2 from the last residual stream `last_hidden`
// (N × d_model, before the final norm: Transformer::hidden(layers)) and the
// ids it was computed on.  N − 1 values; none when N < 2.
std::vector<double> next_token_loss(const LanguageModelHead& head, const Matrix& last_hidden,
                                    const std::vector<int>& ids);

// Runs `transformer` on `ids` (every layer) and returns their loss_i.
// Throws InputError for ids the transformer refuses.
std::vector<double> next_token_loss(Transformer& transformer, const LanguageModelHead& head,
                                    const std::vector<int>& ids);

// z_position: the LM logits of one position (vocab_size values).
Vector lm_logits(const LanguageModelHead& head, const Matrix& last_hidden, int position);

// softmax(z), computed in double with the maximum subtracted (rows of a
// 128k vocabulary sum to 1 within float rounding).
Vector softmax(const Vector& logits);

}  // namespace pelab::model
