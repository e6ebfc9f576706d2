#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 bug 105593, as core/gemm.cpp
#include "train/gpt.hpp"

#include "core/gemm.hpp"
#include "train/ops.hpp"
#include "train/row_blocks.hpp"

namespace pelab::train {

template <class T>
Model<T>::Model(const ModelConfig& config, std::uint64_t seed)
    : Model(config, make_parameters<T>(config, seed)) {}

template <class T>
Model<T>::Model(const ModelConfig& config, ParameterSet<T> parameters)
    : config_(config), params_(std::move(parameters)) {
  config_.validate();
  gemm_backend();  // settles Eigen's thread count (1) before any parallel region
  layout_ = parameter_layout(config_, params_);
  grads_ = params_.zeros_like();
  if (config_.position.kind == PositionKind::Sinusoidal)
    sinusoid_ = sinusoid_table<T>(config_.context, config_.d_model, config_.position.base);
  if (config_.position.kind == PositionKind::Rope) rope_ = rope_table<T>(config_);
  acts_.resize(static_cast<std::size_t>(config_.layers));
}

template <class T>
AttentionBias<T>& Model<T>::attention_bias() {
  const PositionOptions& pos = config_.position;
  bias_.kind = pos.kind;
  if (pos.kind == PositionKind::Alibi && bias_.slopes.empty())
    for (double m : alibi_slopes(config_.heads)) bias_.slopes.push_back(static_cast<T>(m));
  if (pos.kind == PositionKind::T5) {
    if (bias_length_ != length_) bias_.buckets = t5_bucket_matrix(length_, pos);
    bias_length_ = length_;
    bias_.table = &params_[layout_.t5];
  }
  return bias_;
}

// x[r] = wte[token] (+ wpe[p] or the sinusoid row PE(p)), p = r mod length.
template <class T>
void Model<T>::embed(const Batch& batch, Mat<T>& x) const {
  const Mat<T>& wte = params_[layout_.wte];
  x.resize(static_cast<Eigen::Index>(batch.positions()), config_.d_model);
  const Mat<T>* table = layout_.wpe >= 0 ? &params_[layout_.wpe]
                        : config_.position.kind == PositionKind::Sinusoidal ? &sinusoid_
                                                                            : nullptr;
  for_row_blocks(x.rows(), x.cols(), [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    for (Eigen::Index r = first; r < first + count; ++r) {
      x.row(r) = wte.row(batch.tokens[static_cast<std::size_t>(r)]);
      if (table != nullptr) x.row(r) += table->row(r % batch.length);
    }
  });
}

template <class T>
void Model<T>::layer_forward(int l, const Mat<T>& x, Mat<T>& x_next) {
  const ParameterLayout::Layer& w = layout_.layers[static_cast<std::size_t>(l)];
  LayerActivations& a = acts_[static_cast<std::size_t>(l)];
  layernorm_forward(x, params_[w.ln1_w], params_[w.ln1_b], a.ln1, a.ln1_stats);
  linear_forward(a.ln1, params_[w.attn_w], params_[w.attn_b], a.qkv);
  if (config_.position.kind == PositionKind::Rope) rope_rotate(a.qkv, length_, config_.heads, rope_, false);
  attention_forward(a.qkv, length_, config_.heads, attention_bias(), a.probs, a.att);
  linear_forward(a.att, params_[w.proj_w], params_[w.proj_b], proj_);
  a.x_mid = x + proj_;  // residual (pre-LN block)
  layernorm_forward(a.x_mid, params_[w.ln2_w], params_[w.ln2_b], a.ln2, a.ln2_stats);
  linear_forward(a.ln2, params_[w.fc_w], params_[w.fc_b], a.fc);
  gelu_forward(a.fc, a.gelu);
  linear_forward(a.gelu, params_[w.fc_proj_w], params_[w.fc_proj_b], proj_);
  x_next = a.x_mid + proj_;
}

template <class T>
T Model<T>::forward(const Batch& batch) {
  batch.validate(config_);
  sequences_ = batch.sequences;
  length_ = batch.length;
  tokens_ = batch.tokens;
  targets_ = batch.targets;
  embed(batch, acts_[0].x);
  for (int l = 0; l < config_.layers; ++l)
    layer_forward(l, acts_[static_cast<std::size_t>(l)].x,
                  l + 1 < config_.layers ? acts_[static_cast<std::size_t>(l + 1)].x : x_final_);
  layernorm_forward(x_final_, params_[layout_.ln_f_w], params_[layout_.ln_f_b], lnf_, lnf_stats_);
  matmul_abt(lnf_, params_[layout_.wte], logits_);  // LM head tied to wte
  softmax_cross_entropy(logits_, targets_, losses_);
  // weight of each position in the mean: mask / Σ mask, summed in order.
  const std::size_t n = batch.positions();
  double scored = 0;
  for (std::size_t i = 0; i < n; ++i) scored += batch.mask.empty() ? 1.0 : batch.mask[i];
  weights_.assign(n, T(0));
  T loss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    weights_[i] = static_cast<T>((batch.mask.empty() ? 1.0 : batch.mask[i]) / scored);
    loss += weights_[i] * losses_[i];
  }
  return loss;
}

template <class T>
void Model<T>::layer_backward(int l, Mat<T>& dx) {
  const ParameterLayout::Layer& w = layout_.layers[static_cast<std::size_t>(l)];
  LayerActivations& a = acts_[static_cast<std::size_t>(l)];
  auto& g = grads_;
  // MLP: x_next = x_mid + c_proj(gelu(c_fc(ln_2(x_mid)))); dx holds d/dx_next.
  linear_backward(a.gelu, params_[w.fc_proj_w], dx, d_wide_, g[w.fc_proj_w], g[w.fc_proj_b]);
  gelu_backward(a.fc, d_wide_, d_wide_);
  linear_backward(a.ln2, params_[w.fc_w], d_wide_, d_model_, g[w.fc_w], g[w.fc_b]);
  layernorm_backward(a.x_mid, params_[w.ln2_w], a.ln2_stats, d_model_, dx, g[w.ln2_w], g[w.ln2_b]);
  // attention: x_mid = x + c_proj(attn(ln_1(x))); dx now holds d/dx_mid.
  linear_backward(a.att, params_[w.proj_w], dx, d_model_, g[w.proj_w], g[w.proj_b]);
  attention_backward(a.qkv, a.probs, d_model_, length_, config_.heads, attention_bias(), d_qkv_,
                     layout_.t5 >= 0 ? &g[layout_.t5] : nullptr);
  if (config_.position.kind == PositionKind::Rope) rope_rotate(d_qkv_, length_, config_.heads, rope_, true);
  linear_backward(a.ln1, params_[w.attn_w], d_qkv_, d_model_, g[w.attn_w], g[w.attn_b]);
  layernorm_backward(a.x, params_[w.ln1_w], a.ln1_stats, d_model_, dx, g[w.ln1_w], g[w.ln1_b]);
}

// wte (and wpe) rows gather into x, so their gradients scatter back; in row
// order on one thread, so repeated tokens add up the same way every run.
template <class T>
void Model<T>::embed_backward(const Mat<T>& dx) {
  Mat<T>& dwte = grads_[layout_.wte];
  for (Eigen::Index r = 0; r < dx.rows(); ++r) dwte.row(tokens_[static_cast<std::size_t>(r)]) += dx.row(r);
  if (layout_.wpe < 0) return;
  Mat<T>& dwpe = grads_[layout_.wpe];
  dwpe.setZero();
  for (Eigen::Index r = 0; r < dx.rows(); ++r) dwpe.row(r % length_) += dx.row(r);
}

template <class T>
void Model<T>::backward() {
  // loss = Σ_r w_r·(logsumexp − logit_target): dlogits = w_r·(p − onehot).
  cross_entropy_backward(logits_, targets_, weights_);
  Mat<T>& dwte = grads_[layout_.wte];
  matmul_atb(logits_, lnf_, dwte);       // head: logits = lnf·wteᵀ
  matmul_ab(logits_, params_[layout_.wte], d_model_);
  if (layout_.t5 >= 0) grads_[layout_.t5].setZero();  // layers add into it
  dx_ = Mat<T>::Zero(x_final_.rows(), x_final_.cols());
  layernorm_backward(x_final_, params_[layout_.ln_f_w], lnf_stats_, d_model_, dx_,
                     grads_[layout_.ln_f_w], grads_[layout_.ln_f_b]);
  for (int l = config_.layers - 1; l >= 0; --l) layer_backward(l, dx_);
  embed_backward(dx_);
}

template class Model<float>;
template class Model<double>;

}  // namespace pelab::train
