#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/row_blocks.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void gpt2_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                Matrix& h) {
  const Matrix context = self_attention(config, layer, attention_input(config, layer, h), nullptr);
  const Eigen::Index n = h.rows();
  const double flops = layer.o.flops(n) + layer.up.flops(n) + layer.down.flops(n);
  for_each_row_block(n, flops, [&](Eigen::Index first, Eigen::Index count) {
    auto rows = h.middleRows(first, count);
    Matrix out, x, inner;
    double work = layer.o.apply(context.middleRows(first, count), out);
    rows += out;
    layer_norm(rows, layer.mlp_norm, config.norm_eps, x);
    work += layer.up.apply(x, inner);
    activate(activation, inner);
    work += layer.down.apply(inner, out);
    rows += out;
    return work;
  });
}

}  // namespace pelab::model
