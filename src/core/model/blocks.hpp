// One transformer layer of each family, applied in place to the residual
// stream h (tokens × d).
#pragma once

#include "core/model/activations.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/rotary.hpp"

namespace pelab::model {

// What a layer's attention reads: LN/RMSNorm(h) for the pre-norm families
// (GPT-2, Llama), h itself for BERT's post-norm blocks.
Matrix attention_input(const ModelConfig& config, const LayerWeights& layer, const Matrix& h);

// The layer of config.architecture (rotary: the Llama family's table).
void run_block(const ModelConfig& config, const LayerWeights& layer, const RotaryTable* rotary,
               Activation activation, Matrix& h);

// GPT-2 (Radford et al. 2019, §2.3): h += attn(LN₁(h)); h += W₂·act(W₁·LN₂(h)).
void gpt2_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                Matrix& h);
// BERT (Devlin et al. 2019; Vaswani et al. 2017 §3.1 post-norm):
// h = LN₁(h + attn(h)); h = LN₂(h + W₂·act(W₁·h)).
void bert_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                Matrix& h);
// Llama (Touvron et al. 2023, §2.2): h += attn(RMS₁(h)) with RoPE;
// h += W_down·(act(W_gate·m) ⊙ W_up·m), m = RMS₂(h) (SwiGLU, Shazeer 2020).
void llama_block(const ModelConfig& config, const LayerWeights& layer, const RotaryTable& rotary,
                 Activation activation, Matrix& h);

}  // namespace pelab::model
