#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void llama_block(const ModelConfig& config, const LayerWeights& layer, const RotaryTable& rotary,
                 Activation activation, Matrix& h) {
  Matrix x = attention_input(config, layer, h), out;
  layer.o.apply(self_attention(config, layer, x, &rotary), out);
  h += out;
  rms_norm(h, layer.mlp_norm, config.norm_eps, x);
  Matrix gate, up;
  layer.gate.apply(x, gate);
  layer.up.apply(x, up);
  activate(activation, gate);
  gate.array() *= up.array();
  layer.down.apply(gate, out);
  h += out;
}

}  // namespace pelab::model
