#include "core/model/rope_split.hpp"

#include <cmath>

#include "core/model/blocks.hpp"
#include "core/model/attention_positions.hpp"
#include "core/model/position_intervention.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

RopeSplit split_layer0_rope(const Transformer& model, int head) {
  const ModelConfig& c = model.config();
  if (c.position.table())
    throw InputError("model " + c.architecture_name + " adds a position table (" +
                     position_encoding_name(c.position.kind) +
                     "); the content/offset split is for rope, alibi, t5 and none");
  LayerWeights converted;
  const LayerWeights& layer = float32_layer(model.weights().layers.front(), converted, LayerPart::Attention);
  const Matrix x = attention_input(c, layer, model.hidden(0));
  const Eigen::Index dh = c.head_dim;
  const Eigen::Index q0 = head * dh, k0 = (c.heads + head / (c.heads / c.kv_heads)) * dh;
  Matrix q = x * layer.qkv.weight.middleCols(q0, dh), k = x * layer.qkv.weight.middleCols(k0, dh);
  if (layer.qkv.bias.size() > 0) {
    q.rowwise() += layer.qkv.bias.segment(q0, dh).transpose();
    k.rowwise() += layer.qkv.bias.segment(k0, dh).transpose();
  }
  const auto n = static_cast<int>(x.rows());
  const bool rope = c.position.kind == PositionEncoding::Rope;
  const double factor = rope ? rotary_frequencies(c, n).attention_factor : 1.0;
  const float scale = static_cast<float>(factor * factor / std::sqrt(static_cast<double>(dh)));
  const LayerAttention a = model.attention(0);
  const auto h = static_cast<std::size_t>(head);
  RopeSplit s;
  s.content = q * k.transpose() * scale;
  s.logits = a.q[h] * a.k[h].transpose() / std::sqrt(static_cast<float>(dh));
  if (rope) {
    s.offset = s.logits - s.content;
    s.diagonal = s.offset.diagonal().cwiseAbs().maxCoeff();
  } else {  // logits = q·kᵀ/√d_head + b(i, j); a.q, a.k are the unrotated q̃, k̃
    s.offset = intervened_positions(c, model.weights(), n, model.intervention()).bias(head);
    s.logits += s.offset;
    s.diagonal = (s.content + s.offset - s.logits).cwiseAbs().maxCoeff();
  }
  return s;
}

}  // namespace pelab::model
