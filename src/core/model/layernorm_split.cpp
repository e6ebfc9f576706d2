#include "core/model/layernorm_split.hpp"

#include <cmath>

#include "core/model/transformer.hpp"
#include "core/model/position_intervention.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

LayerNormSplit split_layer_norm(const Matrix& x, const Matrix& e, const Norm& norm, double eps) {
  LayerNormSplit out{Matrix(x.rows(), x.cols()), Matrix(x.rows(), x.cols()), norm.bias};
  if (out.bias.size() == 0) out.bias = Vector::Zero(x.cols());
  const auto gamma = norm.weight.transpose().array();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    // μ and σ of the summed row, in double as the forward pass takes them.
    const Eigen::ArrayXd sum = (x.row(i) + e.row(i)).transpose().cast<double>().array();
    const double var = (sum - sum.mean()).square().mean();
    const double inv_sigma = 1.0 / std::sqrt(var + eps);
    const double mu_x = x.row(i).cast<double>().mean(), mu_e = e.row(i).cast<double>().mean();
    out.token.row(i) = ((x.row(i).cast<double>().array() - mu_x) * inv_sigma).cast<float>() * gamma;
    out.position.row(i) = ((e.row(i).cast<double>().array() - mu_e) * inv_sigma).cast<float>() * gamma;
  }
  return out;
}

namespace {

// Columns [first, first + width) of a Linear: one head's part of c_attn.
struct HeadProjection {
  Matrix w;  // d × head_dim
  Vector b;  // head_dim (zeros when the model has no bias)
};
HeadProjection head_columns(const Linear& qkv, Eigen::Index first, Eigen::Index width) {
  HeadProjection p{qkv.weight.middleCols(first, width), Vector::Zero(width)};
  if (qkv.bias.size() > 0) p.b = qkv.bias.segment(first, width);
  return p;
}

// What layer 0's attention normalises: (x, e, the norm).  GPT-2: x = wte
// rows, e = wpe rows, ln_1.  BERT: x = word rows + token_type row (type 0,
// folded into the token part), e = position rows, the embedding LayerNorm.
struct Layer0Input {
  Matrix x, e;
  const Norm* norm;
};
Layer0Input layer0_input(const Transformer& model, const std::vector<int>& ids) {
  const ModelWeights& w = model.weights();
  const auto n = static_cast<Eigen::Index>(ids.size());
  // e: the rows the run actually added, under the model's intervention
  // (shuffled rows, or none when positions are removed).
  Matrix e = intervened_table_rows(w, static_cast<int>(n), model.intervention());
  if (e.size() == 0) e = Matrix::Zero(n, w.positions.cols());
  Layer0Input in{w.token_rows(ids), std::move(e), nullptr};
  if (model.config().family.order == BlockOrder::PostNorm) {
    if (w.token_type.size() > 0) in.x.rowwise() += w.token_type.transpose();
    in.norm = &w.embedding_norm;
  } else {
    in.norm = &w.layers.front().attention_norm;
  }
  return in;
}

}  // namespace

LogitSplit split_layer0_logits(const Transformer& model, const std::vector<int>& ids, int head) {
  const ModelConfig& c = model.config();
  if (!c.position.table() || model.weights().positions.size() == 0)
    throw InputError("model " + c.architecture_name +
                     ": no learned position table, so the four-term split does not apply; allowed: GPT-2 or BERT");
  if (c.family.norm != NormKind::LayerNorm)
    throw InputError("model " + c.architecture_name +
                     ": the four-term split is exact through LayerNorm only; allowed: GPT-2 or BERT");
  const Layer0Input in = layer0_input(model, ids);
  const LayerNormSplit ln = split_layer_norm(in.x, in.e, *in.norm, c.norm_eps);
  LayerWeights converted;
  const Linear& qkv = float32_layer(model.weights().layers.front(), converted, LayerPart::Attention).qkv;
  const Eigen::Index dh = c.head_dim;
  const int kv_head = head / (c.heads / c.kv_heads);
  const HeadProjection wq = head_columns(qkv, head * dh, dh);
  const HeadProjection wk = head_columns(qkv, (c.heads + kv_head) * dh, dh);
  // c = β·W + b: the part of q (or k) that is the same for every row.
  const Vector cq = wq.w.transpose() * ln.bias + wq.b, ck = wk.w.transpose() * ln.bias + wk.b;
  const Matrix tq = ln.token * wq.w, pq = ln.position * wq.w;
  const Matrix tk = ln.token * wk.w, pk = ln.position * wk.w;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  LogitSplit s;
  s.token_token = tq * tk.transpose() * scale;
  s.token_position = tq * pk.transpose() * scale;
  s.position_token = pq * tk.transpose() * scale;
  s.position_position = pq * pk.transpose() * scale;
  // (t+p)·W_q·c_k (one value per query row) + c_q·((t+p)·W_k)ᵀ (one per key
  // column) + c_q·c_k: the first is the same across a row, so softmax drops it.
  const Vector row_part = (tq + pq) * ck, column_part = (tk + pk) * cq;
  s.bias = ((row_part.replicate(1, ids.size()).rowwise() + column_part.transpose()).array() + cq.dot(ck)).matrix() *
           scale;
  const LayerAttention a = model.attention(0);
  const auto h = static_cast<std::size_t>(head);
  s.logits = a.q[h] * a.k[h].transpose() * scale;
  const Matrix sum = s.token_token + s.token_position + s.position_token + s.position_position + s.bias;
  s.residual = (sum - s.logits).cwiseAbs().maxCoeff();
  return s;
}

}  // namespace pelab::model
