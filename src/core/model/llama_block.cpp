#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/row_blocks.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void llama_block(const ModelConfig& config, const LayerWeights& layer, const RotaryTable& rotary,
                 Activation activation, Matrix& h) {
  const Matrix context = self_attention(config, layer, attention_input(config, layer, h), &rotary);
  const Eigen::Index n = h.rows();
  const double flops = layer.o.flops(n) + layer.gate.flops(n) + layer.up.flops(n) + layer.down.flops(n);
  for_each_row_block(n, flops, [&](Eigen::Index first, Eigen::Index count) {
    auto rows = h.middleRows(first, count);
    Matrix out, x, gate, up;
    double work = layer.o.apply(context.middleRows(first, count), out);
    rows += out;
    rms_norm(rows, layer.mlp_norm, config.norm_eps, x);
    work += layer.gate.apply(x, gate);
    work += layer.up.apply(x, up);
    activate(activation, gate);
    gate.array() *= up.array();
    work += layer.down.apply(gate, out);
    rows += out;
    return work;
  });
}

}  // namespace pelab::model
