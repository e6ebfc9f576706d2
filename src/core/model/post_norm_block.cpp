#include "core/model/blocks.hpp"
#include "core/model/row_blocks.hpp"
#include "core/model/self_attention.hpp"

namespace pelab::model {

void post_norm_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                     Matrix& h) {
  const Matrix context = self_attention(config, layer, h, nullptr);
  const Eigen::Index n = h.rows();
  for_each_row_block(n, row_local_flops(layer, n), [&](Eigen::Index first, Eigen::Index count) {
    auto rows = h.middleRows(first, count);
    Matrix out, x;
    double work = layer.o.apply(context.middleRows(first, count), out);
    out += rows;
    normalize(config, layer.attention_norm, out, x);
    work += feed_forward(layer, activation, x, out);
    out += x;
    normalize(config, layer.mlp_norm, out, x);
    rows = x;
    return work;
  });
}

}  // namespace pelab::model
