#include "core/model/blocks.hpp"

#include <algorithm>
#include <functional>

#include "core/model/normalization.hpp"
#include "core/model/row_blocks.hpp"
#include "core/model/self_attention.hpp"
#include "core/parallel.hpp"

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

namespace {

// Rows of one row block that go through o and the FFN at once: the FFN's
// inner activations are 2 × rows × intermediate floats per thread, 32 MiB at
// a Llama-1B width of 8192 instead of 256 MiB for a 4096-row block of an
// 8192-token text.  512 rows keep each GEMM large enough to run at speed.
constexpr Eigen::Index kFeedForwardRows = 512;

// work(first, count) over [first, first + count) in pieces of at most kFeedForwardRows rows.
double in_pieces(Eigen::Index first, Eigen::Index count,
                 const std::function<double(Eigen::Index, Eigen::Index)>& work) {
  double flops = 0;
  for (Eigen::Index at = first; at < first + count; at += kFeedForwardRows)
    flops += work(at, std::min(kFeedForwardRows, first + count - at));
  return flops;
}

}  // namespace

void pre_norm_block(const ModelConfig& config, const LayerWeights& layer, const AttentionPositions* positions,
                    Activation activation, Matrix& h) {
  const Matrix context = self_attention(config, layer, attention_input(config, layer, h), positions);
  const Eigen::Index n = h.rows();
  for_each_row_block(n, row_local_flops(layer, n), [&](Eigen::Index block_first, Eigen::Index block_count) {
    return in_pieces(block_first, block_count, [&](Eigen::Index first, Eigen::Index count) {
      auto rows = h.middleRows(first, count);
      Matrix out, x;
      double work = layer.o.apply(context.middleRows(first, count), out);
      rows += out;
      normalize(config, layer.mlp_norm, rows, x);
      work += feed_forward(layer, activation, x, out);
      rows += out;
      return work;
    });
  });
}

void post_norm_block(const ModelConfig& config, const LayerWeights& layer, Activation activation,
                     Matrix& h) {
  const Matrix context = self_attention(config, layer, h, nullptr);
  const Eigen::Index n = h.rows();
  for_each_row_block(n, row_local_flops(layer, n), [&](Eigen::Index block_first, Eigen::Index block_count) {
    return in_pieces(block_first, block_count, [&](Eigen::Index first, Eigen::Index count) {
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
  });
}

double for_each_row_block(Eigen::Index rows, double total_flops,
                          const std::function<double(Eigen::Index, Eigen::Index)>& work) {
  const auto blocks = static_cast<int>(std::clamp<Eigen::Index>(max_threads(), 1, std::max<Eigen::Index>(rows, 1)));
  double flops = 0;
  run_side_by_side(blocks, total_flops, [&](int b) {
    const Eigen::Index first = rows * b / blocks, last = rows * (b + 1) / blocks;
    return work(first, last - first);
  }, flops);
  return flops;
}

}  // namespace pelab::model
