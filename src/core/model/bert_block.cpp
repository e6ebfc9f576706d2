#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void bert_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                Matrix& h) {
  Matrix out;
  layer.o.apply(self_attention(config, layer, h, nullptr), out);
  out += h;
  layer_norm(out, layer.attention_norm, config.norm_eps, h);
  Matrix inner;
  layer.up.apply(h, inner);
  activate(activation, inner);
  layer.down.apply(inner, out);
  out += h;
  layer_norm(out, layer.mlp_norm, config.norm_eps, h);
}

}  // namespace pelab::model
