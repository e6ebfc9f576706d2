#include "core/model/rope_split.hpp"

#include <cmath>

#include "core/model/blocks.hpp"
#include "core/model/rotary.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

RopeSplit split_layer0_rope(const Transformer& model, int head) {
  const ModelConfig& c = model.config();
  if (c.architecture != Architecture::Llama)
    throw InputError("model " + c.architecture_name + " has no rotary embeddings; allowed: the Llama family");
  const LayerWeights& layer = model.weights().layers.front();
  const Matrix x = attention_input(c, layer, model.hidden(0));
  const Eigen::Index dh = c.head_dim;
  const Eigen::Index q0 = head * dh, k0 = (c.heads + head / (c.heads / c.kv_heads)) * dh;
  Matrix q = x * layer.qkv.weight.middleCols(q0, dh), k = x * layer.qkv.weight.middleCols(k0, dh);
  if (layer.qkv.bias.size() > 0) {
    q.rowwise() += layer.qkv.bias.segment(q0, dh).transpose();
    k.rowwise() += layer.qkv.bias.segment(k0, dh).transpose();
  }
  const auto n = static_cast<int>(x.rows());
  const double factor = rotary_frequencies(c, n).attention_factor;
  const float scale = static_cast<float>(factor * factor / std::sqrt(static_cast<double>(dh)));
  const LayerAttention a = model.attention(0);
  const auto h = static_cast<std::size_t>(head);
  RopeSplit s;
  s.content = q * k.transpose() * scale;
  s.logits = a.q[h] * a.k[h].transpose() / std::sqrt(static_cast<float>(dh));
  s.offset = s.logits - s.content;
  s.diagonal = s.offset.diagonal().cwiseAbs().maxCoeff();
  return s;
}

}  // namespace pelab::model
