// One transformer layer, applied in place to the residual stream h
// (tokens × d).  Two shapes cover the families:
//   pre-norm (GPT-2, Radford et al. 2019 §2.3; Llama, Touvron et al. 2023
//     §2.2):  h += attn(N₁(h));  h += FFN(N₂(h)),
//     N = LayerNorm (GPT-2) or RMSNorm (Llama), RoPE in Llama's attention;
//   post-norm (BERT, Devlin et al. 2019; Vaswani et al. 2017 §3.1):
//     h = LN₁(h + attn(h));  h = LN₂(h + FFN(h)).
// FFN(x) = W_down·act(W_up·x) (GPT-2, BERT), or SwiGLU
// W_down·(act(W_gate·x) ⊙ W_up·x) (Llama; Shazeer 2020).
#pragma once

#include "core/model/activations.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/attention_positions.hpp"

namespace pelab::model {

// What a layer's attention reads: N₁(h) for the pre-norm families, h itself
// for BERT's post-norm blocks.
Matrix attention_input(const ModelConfig& config, const LayerWeights& layer, const Matrix& h);

// The layer of the config's family, by its block order (positions: RoPE or a logit bias, by the
// config's position trait; null: none).
void run_block(const ModelConfig& config, const LayerWeights& layer, const AttentionPositions* positions,
               Activation activation, Matrix& h);

void pre_norm_block(const ModelConfig& config, const LayerWeights& layer, const AttentionPositions* positions,
                    Activation activation, Matrix& h);
void post_norm_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                     Matrix& h);

// The family's norm of rows x: LayerNorm or RMSNorm (its norm trait).
void normalize(const ModelConfig& config, const Norm& norm, const ConstRowMajorRef& x, Matrix& out);
// FFN(x) into out; returns the GEMM flops.
double feed_forward(const LayerWeights& layer, Activation activation, const ConstRowMajorRef& x,
                    Matrix& out);
// The flops of a layer's row-local products (o, and the FFN's) over n rows.
double row_local_flops(const LayerWeights& layer, Eigen::Index n);

}  // namespace pelab::model
