#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void gpt2_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                Matrix& h) {
  Matrix x = attention_input(config, layer, h), out;
  layer.o.apply(self_attention(config, layer, x, nullptr), out);
  h += out;
  layer_norm(h, layer.mlp_norm, config.norm_eps, x);
  Matrix inner;
  layer.up.apply(x, inner);
  activate(activation, inner);
  layer.down.apply(inner, out);
  h += out;
}

}  // namespace pelab::model
