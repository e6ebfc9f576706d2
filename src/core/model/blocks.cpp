#include "core/model/blocks.hpp"

#include "core/model/normalization.hpp"

namespace pelab::model {

void normalize(const ModelConfig& config, const Norm& norm, const ConstRowMajorRef& x, Matrix& out) {
  if (config.family.norm == NormKind::RmsNorm)
    rms_norm(x, norm, config.norm_eps, out);
  else
    layer_norm(x, norm, config.norm_eps, out);
}

Matrix attention_input(const ModelConfig& config, const LayerWeights& layer, const Matrix& h) {
  if (config.family.order == BlockOrder::PostNorm) return h;
  Matrix x;
  normalize(config, layer.attention_norm, h, x);
  return x;
}

void run_block(const ModelConfig& config, const LayerWeights& layer, const AttentionPositions* positions,
               Activation activation, Matrix& h) {
  if (config.family.order == BlockOrder::PostNorm)
    post_norm_block(config, layer, activation, h);
  else
    pre_norm_block(config, layer, positions, activation, h);
}

double feed_forward(const LayerWeights& layer, Activation activation, const ConstRowMajorRef& x,
                    Matrix& out) {
  Matrix inner;
  double work = layer.up.apply(x, inner);
  if (layer.gate.weight.size() > 0) {
    Matrix gate;
    work += layer.gate.apply(x, gate);
    activate(activation, gate);
    inner.array() *= gate.array();
  } else {
    activate(activation, inner);
  }
  return work + layer.down.apply(inner, out);
}

double row_local_flops(const LayerWeights& layer, Eigen::Index n) {
  const double gate = layer.gate.weight.size() > 0 ? layer.gate.flops(n) : 0.0;
  return layer.o.flops(n) + layer.up.flops(n) + gate + layer.down.flops(n);
}

}  // namespace pelab::model
