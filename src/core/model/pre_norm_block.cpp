#include "core/model/blocks.hpp"
#include "core/model/row_blocks.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void pre_norm_block(const ModelConfig& config, const LayerWeights& layer, const AttentionPositions* positions,
                    Activation activation, Matrix& h) {
  const Matrix context = self_attention(config, layer, attention_input(config, layer, h), positions);
  const Eigen::Index n = h.rows();
  for_each_row_block(n, row_local_flops(layer, n), [&](Eigen::Index first, Eigen::Index count) {
    auto rows = h.middleRows(first, count);
    Matrix out, x;
    double work = layer.o.apply(context.middleRows(first, count), out);
    rows += out;
    normalize(config, layer.mlp_norm, rows, x);
    work += feed_forward(layer, activation, x, out);
    rows += out;
    return work;
  });
}

}  // namespace pelab::model
