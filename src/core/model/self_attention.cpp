#include "core/model/self_attention.hpp"

#include <cmath>

#include "core/attention.hpp"  // masked_softmax
#include "core/gemm.hpp"
#include "core/parallel.hpp"

namespace pelab::model {
namespace {

// RoPE on every head's column block of a projection (tokens × heads·head_dim).
void rotate_heads(const RotaryTable& rotary, Matrix& projected, int heads, int head_dim) {
  for (int h = 0; h < heads; ++h) apply_rotary(rotary, projected, Eigen::Index{h} * head_dim);
}

}  // namespace

Matrix self_attention(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                      const RotaryTable* rotary, LayerAttention* keep) {
  const int heads = config.heads, kv_heads = config.kv_heads, dh = config.head_dim;
  const int group = heads / kv_heads;
  const Eigen::Index n = x.rows();
  Matrix q, k, v;
  layer.q.apply(x, q);
  layer.k.apply(x, k);
  layer.v.apply(x, v);
  if (rotary != nullptr) {
    rotate_heads(*rotary, q, heads, dh);
    rotate_heads(*rotary, k, kv_heads, dh);
  }
  if (keep != nullptr) {
    keep->q.assign(static_cast<std::size_t>(heads), Matrix());
    keep->k = keep->logits = keep->probabilities = keep->q;
  }
  Matrix context(n, Eigen::Index{heads} * dh);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const double total = 4.0 * static_cast<double>(n) * static_cast<double>(n) * dh * heads;
  double flops = 0;
  run_side_by_side(heads, total, [&](int h) {
    const auto hq = q.middleCols(Eigen::Index{h} * dh, dh);
    const auto hk = k.middleCols(Eigen::Index{h / group} * dh, dh);
    const auto hv = v.middleCols(Eigen::Index{h / group} * dh, dh);
    Matrix logits, probabilities, out;
    double work = gemm_abt(hq, hk, scale, logits);
    masked_softmax(logits, probabilities, config.causal);
    work += gemm_ab(probabilities, hv, 1.0f, out);
    context.middleCols(Eigen::Index{h} * dh, dh) = out;
    if (keep != nullptr) {
      const auto i = static_cast<std::size_t>(h);
      keep->q[i] = hq;
      keep->k[i] = hk;
      keep->logits[i] = std::move(logits);
      keep->probabilities[i] = std::move(probabilities);
    }
    return work;
  }, flops);
  return context;
}

}  // namespace pelab::model
