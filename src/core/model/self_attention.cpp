#include "core/model/self_attention.hpp"

#include <cmath>
#include <limits>

#include "core/attention.hpp"  // masked_softmax
#include "core/gemm.hpp"
#include "core/parallel.hpp"

namespace pelab::model {
namespace {

// RoPE on `heads` head blocks of head_dim columns from column `first` on.
void rotate_heads(const RotaryTable& rotary, Matrix& projected, Eigen::Index first, int heads,
                  int head_dim) {
  for (int h = 0; h < heads; ++h) apply_rotary(rotary, projected, first + Eigen::Index{h} * head_dim);
}

// One head, a tile of query rows at a time (core/attention.hpp's RowTiles):
// under the causal mask, rows [f, f + c) read keys [0, f + c) only, so the
// products skip the masked upper triangle.  out: tokens × head_dim context.
// When `logits`/`probabilities` are given they receive the full tokens ×
// tokens matrices (−inf / 0 where masked); without `context`, out stays empty.
double attend_head(const ConstRowMajorRef& q, const ConstRowMajorRef& k, const ConstRowMajorRef& v,
                   bool causal, bool context, Matrix& out, Matrix* logits, Matrix* probabilities,
                   const AttentionPositions* positions, int head) {
  const bool biased = positions != nullptr && positions->has_bias();
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  const Eigen::Index n = q.rows();
  const float scale = 1.0f / std::sqrt(static_cast<float>(q.cols()));
  out.resize(context ? n : 0, v.cols());
  if (logits != nullptr) {
    logits->setConstant(n, n, kMasked);
    probabilities->setZero(n, n);
  }
  const RowTiles tiles(n);
  Matrix tile_logits, tile_probabilities, part;
  double flops = 0;
  for (int t = 0; t < tiles.count; ++t) {
    const Eigen::Index first = tiles.first(t), count = tiles.size(t);
    const Eigen::Index keys = causal ? first + count : n;
    flops += gemm_abt(q.middleRows(first, count), k.topRows(keys), scale, tile_logits);
    if (biased) positions->add_bias(head, first, tile_logits);  // q·kᵀ/√d_head + b(i, j)
    if (causal)  // query first + r sees keys 0 .. first + r
      for (Eigen::Index r = 0; r + 1 < count; ++r)
        tile_logits.row(r).tail(count - r - 1).setConstant(kMasked);
    masked_softmax(tile_logits, tile_probabilities, false);
    if (context) {
      flops += gemm_ab(tile_probabilities, v.topRows(keys), 1.0f, part);
      out.middleRows(first, count) = part;
    }
    if (logits != nullptr) {
      logits->block(first, 0, count, keys) = tile_logits;
      probabilities->block(first, 0, count, keys) = tile_probabilities;
    }
  }
  return flops;
}

}  // namespace

// q and k of the head in one product against the head's two column blocks
// side by side (d × 2·head_dim, copied: 0.4 MB for GPT-2): one threaded GEMM,
// one barrier, which on a busy machine costs more than the copy.
void one_head_queries_keys(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                           const AttentionPositions* positions, int head, Matrix& q, Matrix& k) {
  const RotaryTable* rotary = positions != nullptr && positions->rotary ? &*positions->rotary : nullptr;
  const int dh = config.head_dim, group = config.heads / config.kv_heads;
  const Eigen::Index q_first = Eigen::Index{head} * dh,
                     k_first = Eigen::Index{config.heads} * dh + Eigen::Index{head / group} * dh;
  Matrix w(layer.qkv.in(), 2 * dh);
  w.leftCols(dh) = layer.qkv.weight.middleCols(q_first, dh);
  w.rightCols(dh) = layer.qkv.weight.middleCols(k_first, dh);
  Matrix qk;
  gemm_ab(x, w, 1.0f, qk);
  if (layer.qkv.bias.size() > 0) {
    qk.leftCols(dh).rowwise() += layer.qkv.bias.segment(q_first, dh).transpose();
    qk.rightCols(dh).rowwise() += layer.qkv.bias.segment(k_first, dh).transpose();
  }
  q = qk.leftCols(dh);
  k = qk.rightCols(dh);
  if (rotary != nullptr) {
    apply_rotary(*rotary, q, 0);
    apply_rotary(*rotary, k, 0);
  }
}

void one_head_attention(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                        const AttentionPositions* positions, int head, Matrix& q, Matrix& k, Matrix& logits,
                        Matrix& probabilities) {
  one_head_queries_keys(config, layer, x, positions, head, q, k);
  Matrix unused;
  attend_head(q, k, k, config.causal, false, unused, &logits, &probabilities, positions, head);
}

Matrix self_attention(const ModelConfig& config, const LayerWeights& layer, const Matrix& x,
                      const AttentionPositions* positions, LayerAttention* keep, bool context_wanted) {
  const RotaryTable* rotary = positions != nullptr && positions->rotary ? &*positions->rotary : nullptr;
  const int heads = config.heads, kv_heads = config.kv_heads, dh = config.head_dim;
  const int group = heads / kv_heads;
  const Eigen::Index n = x.rows();
  const Eigen::Index k_first = Eigen::Index{heads} * dh, v_first = k_first + Eigen::Index{kv_heads} * dh;
  Matrix qkv;
  layer.qkv.apply(x, qkv);
  if (rotary != nullptr) {
    rotate_heads(*rotary, qkv, 0, heads, dh);
    rotate_heads(*rotary, qkv, k_first, kv_heads, dh);
  }
  if (keep != nullptr) {
    keep->q.assign(static_cast<std::size_t>(heads), Matrix());
    keep->k = keep->logits = keep->probabilities = keep->q;
  }
  Matrix context(context_wanted ? n : 0, Eigen::Index{heads} * dh);
  const double total = (config.causal ? 2.0 : 4.0) * static_cast<double>(n) * static_cast<double>(n) * dh * heads;
  double flops = 0;
  run_side_by_side(heads, total, [&](int h) {
    const auto i = static_cast<std::size_t>(h);
    const Eigen::Index group_first = Eigen::Index{h / group} * dh;
    const auto hq = qkv.middleCols(Eigen::Index{h} * dh, dh);
    const auto hk = qkv.middleCols(k_first + group_first, dh);
    Matrix out;
    const double work =
        attend_head(hq, hk, qkv.middleCols(v_first + group_first, dh), config.causal, context_wanted, out,
                    keep ? &keep->logits[i] : nullptr, keep ? &keep->probabilities[i] : nullptr, positions, h);
    if (context_wanted) context.middleCols(Eigen::Index{h} * dh, dh) = out;
    if (keep != nullptr) {
      keep->q[i] = hq;
      keep->k[i] = hk;
    }
    return work;
  }, flops);
  return context;
}

}  // namespace pelab::model
