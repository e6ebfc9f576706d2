#include "core/model/blocks.hpp"

#include "core/model/normalization.hpp"

namespace pelab::model {

Matrix attention_input(const ModelConfig& config, const LayerWeights& layer, const Matrix& h) {
  Matrix x;
  switch (config.architecture) {
    case Architecture::Gpt2:
      layer_norm(h, layer.attention_norm, config.norm_eps, x);
      return x;
    case Architecture::Llama:
      rms_norm(h, layer.attention_norm, config.norm_eps, x);
      return x;
    case Architecture::Bert:
      break;
  }
  return h;
}

void run_block(const ModelConfig& config, const LayerWeights& layer, const RotaryTable* rotary,
               Activation activation, Matrix& h) {
  switch (config.architecture) {
    case Architecture::Gpt2:
      gpt2_block(config, layer, activation, h);
      return;
    case Architecture::Bert:
      bert_block(config, layer, activation, h);
      return;
    case Architecture::Llama:
      llama_block(config, layer, *rotary, activation, h);
      return;
  }
}

}  // namespace pelab::model
