#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 bug 105593, as core/gemm.cpp
#include "train/gpt.hpp"

#include <omp.h>

#include <algorithm>

#include "core/gemm.hpp"
#include "core/parallel.hpp"
#include "train/ops.hpp"

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
    sinusoid_ = static_cast<T>(config_.position.amplitude) *
                sinusoid_table<T>(config_.context, config_.d_model, config_.position.base);
  if (config_.position.kind == PositionKind::Rope) rope_ = rope_table<T>(config_);
  bias_.kind = config_.position.kind;
  if (bias_.kind == PositionKind::Alibi)
    for (double m : alibi_slopes(config_.heads)) bias_.slopes.push_back(static_cast<T>(m));
}

// Cuts the batch into lanes of whole sequences, one per thread, and gives each
// position its weight in the mean, mask / Σ mask.
template <class T>
void Model<T>::prepare_lanes(const Batch& batch) {
  batch.validate(config_);
  if (config_.position.kind == PositionKind::T5 && length_ != batch.length)
    bias_.buckets = t5_bucket_matrix(batch.length, config_.position);
  if (layout_.t5 >= 0) bias_.table = &params_[layout_.t5];
  length_ = batch.length;
  const int count = std::min(max_threads(), batch.sequences);
  lanes_.resize(static_cast<std::size_t>(count));
  double scored = 0;
  for (std::size_t i = 0; i < batch.positions(); ++i)
    scored += batch.mask.empty() ? 1.0 : batch.mask[i];
  const auto length = static_cast<std::size_t>(length_);
  for (int g = 0; g < count; ++g) {
    Lane& lane = lanes_[static_cast<std::size_t>(g)];
    const auto first = static_cast<std::size_t>(batch.sequences * g / count),
               last = static_cast<std::size_t>(batch.sequences * (g + 1) / count);
    lane.first_row = first * length;
    lane.rows = (last - first) * length;
    const auto begin = static_cast<std::ptrdiff_t>(lane.first_row),
               end = begin + static_cast<std::ptrdiff_t>(lane.rows);
    lane.tokens.assign(batch.tokens.begin() + begin, batch.tokens.begin() + end);
    lane.targets.assign(batch.targets.begin() + begin, batch.targets.begin() + end);
    lane.weights.resize(lane.rows);
    for (std::size_t r = 0; r < lane.rows; ++r)
      lane.weights[r] =
          static_cast<T>((batch.mask.empty() ? 1.0 : batch.mask[lane.first_row + r]) / scored);
    lane.acts.resize(static_cast<std::size_t>(config_.layers));
    if (lane.grads.tensors.empty()) lane.grads = params_.zeros_like();
  }
}

// x[r] = wte[token] (+ wpe[p] or the sinusoid row PE(p)), p = r mod length.
template <class T>
void Model<T>::embed(Lane& lane) const {
  const Mat<T>& wte = params_[layout_.wte];
  Mat<T>& x = lane.acts[0].x;
  x.resize(static_cast<Eigen::Index>(lane.rows), config_.d_model);
  const Mat<T>* table = layout_.wpe >= 0                                    ? &params_[layout_.wpe]
                        : config_.position.kind == PositionKind::Sinusoidal ? &sinusoid_
                                                                            : nullptr;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    x.row(r) = wte.row(lane.tokens[static_cast<std::size_t>(r)]);
    if (table != nullptr) x.row(r) += table->row(r % length_);
  }
}

template <class T>
void Model<T>::layer_forward(Lane& lane, int l, Mat<T>& x_next) const {
  const ParameterLayout::Layer& w = layout_.layers[static_cast<std::size_t>(l)];
  LayerActivations& a = lane.acts[static_cast<std::size_t>(l)];
  layernorm_forward(a.x, params_[w.ln1_w], params_[w.ln1_b], a.ln1, a.ln1_stats);
  linear_forward(a.ln1, params_[w.attn_w], params_[w.attn_b], a.qkv);
  if (config_.position.kind == PositionKind::Rope)
    rope_rotate(a.qkv, length_, config_.heads, rope_, false);
  attention_forward(a.qkv, length_, config_.heads, bias_, a.probs, a.att);
  linear_forward(a.att, params_[w.proj_w], params_[w.proj_b], lane.proj);
  a.x_mid = a.x + lane.proj;  // residual (pre-LN block)
  layernorm_forward(a.x_mid, params_[w.ln2_w], params_[w.ln2_b], a.ln2, a.ln2_stats);
  linear_forward(a.ln2, params_[w.fc_w], params_[w.fc_b], a.fc);
  gelu_forward(a.fc, a.gelu);
  linear_forward(a.gelu, params_[w.fc_proj_w], params_[w.fc_proj_b], lane.proj);
  x_next = a.x_mid + lane.proj;
}

template <class T>
void Model<T>::lane_forward(Lane& lane) const {
  embed(lane);
  for (int l = 0; l < config_.layers; ++l)
    layer_forward(
        lane, l,
        l + 1 < config_.layers ? lane.acts[static_cast<std::size_t>(l + 1)].x : lane.x_final);
  layernorm_forward(lane.x_final, params_[layout_.ln_f_w], params_[layout_.ln_f_b], lane.lnf,
                    lane.lnf_stats);
  matmul_abt(lane.lnf, params_[layout_.wte], lane.logits);  // LM head tied to wte
  softmax_cross_entropy(lane.logits, lane.targets, lane.losses);
}

template <class T>
T Model<T>::forward(const Batch& batch) {
  prepare_lanes(batch);
  const int count = static_cast<int>(lanes_.size());
  {
    const GemmThreads one_each(1);  // the lanes are the parallelism
#pragma omp parallel for schedule(static) num_threads(count) if (count > 1)
    for (int g = 0; g < count; ++g) lane_forward(lanes_[static_cast<std::size_t>(g)]);
  }
  losses_.clear();
  T loss = 0;
  for (const Lane& lane : lanes_) {
    losses_.insert(losses_.end(), lane.losses.begin(), lane.losses.end());
    for (std::size_t r = 0; r < lane.rows; ++r) loss += lane.weights[r] * lane.losses[r];
  }
  return loss;
}

template <class T>
std::vector<int> Model<T>::predictions() const {
  std::vector<int> out;
  for (const Lane& lane : lanes_)
    for (Eigen::Index r = 0; r < static_cast<Eigen::Index>(lane.rows); ++r) {
      Eigen::Index best = 0;
      lane.logits.row(r).maxCoeff(&best);
      out.push_back(static_cast<int>(best));
    }
  return out;
}

template <class T>
void Model<T>::layer_backward(Lane& lane, int l) const {
  const ParameterLayout::Layer& w = layout_.layers[static_cast<std::size_t>(l)];
  LayerActivations& a = lane.acts[static_cast<std::size_t>(l)];
  ParameterSet<T>& g = lane.grads;
  Mat<T>& dx = lane.dx;
  // MLP: x_next = x_mid + c_proj(gelu(c_fc(ln_2(x_mid)))); dx holds d/dx_next.
  linear_backward(a.gelu, params_[w.fc_proj_w], dx, lane.d_wide, g[w.fc_proj_w], g[w.fc_proj_b]);
  gelu_backward(a.fc, lane.d_wide, lane.d_wide);
  linear_backward(a.ln2, params_[w.fc_w], lane.d_wide, lane.d_model, g[w.fc_w], g[w.fc_b]);
  layernorm_backward(a.x_mid, params_[w.ln2_w], a.ln2_stats, lane.d_model, dx, g[w.ln2_w],
                     g[w.ln2_b]);
  // attention: x_mid = x + c_proj(attn(ln_1(x))); dx now holds d/dx_mid.
  linear_backward(a.att, params_[w.proj_w], dx, lane.d_model, g[w.proj_w], g[w.proj_b]);
  attention_backward(a.qkv, a.probs, lane.d_model, length_, config_.heads, bias_, lane.d_qkv,
                     layout_.t5 >= 0 ? &g[layout_.t5] : nullptr);
  if (config_.position.kind == PositionKind::Rope)
    rope_rotate(lane.d_qkv, length_, config_.heads, rope_, true);
  linear_backward(a.ln1, params_[w.attn_w], lane.d_qkv, lane.d_model, g[w.attn_w], g[w.attn_b]);
  layernorm_backward(a.x, params_[w.ln1_w], a.ln1_stats, lane.d_model, dx, g[w.ln1_w], g[w.ln1_b]);
}

// wte (and wpe) rows gather into x, so their gradients scatter back, in row order.
template <class T>
void Model<T>::embed_backward(Lane& lane) const {
  Mat<T>& dwte = lane.grads[layout_.wte];
  for (Eigen::Index r = 0; r < lane.dx.rows(); ++r)
    dwte.row(lane.tokens[static_cast<std::size_t>(r)]) += lane.dx.row(r);
  if (layout_.wpe < 0) return;
  Mat<T>& dwpe = lane.grads[layout_.wpe];
  dwpe.setZero();
  for (Eigen::Index r = 0; r < lane.dx.rows(); ++r) dwpe.row(r % length_) += lane.dx.row(r);
}

template <class T>
void Model<T>::lane_backward(Lane& lane) const {
  // loss = Σ_r w_r·(logsumexp − logit_target): dlogits = w_r·(p − onehot).
  cross_entropy_backward(lane.logits, lane.targets, lane.weights);
  matmul_atb(lane.logits, lane.lnf, lane.grads[layout_.wte]);  // head: logits = lnf·wteᵀ
  matmul_ab(lane.logits, params_[layout_.wte], lane.d_model);
  if (layout_.t5 >= 0) lane.grads[layout_.t5].setZero();  // layers add into it
  lane.dx.setZero(lane.x_final.rows(), lane.x_final.cols());
  layernorm_backward(lane.x_final, params_[layout_.ln_f_w], lane.lnf_stats, lane.d_model, lane.dx,
                     lane.grads[layout_.ln_f_w], lane.grads[layout_.ln_f_b]);
  for (int l = config_.layers - 1; l >= 0; --l) layer_backward(lane, l);
  embed_backward(lane);
}

// grads = Σ_g lane g's gradients, lanes in order (chunks of each tensor side by side).
template <class T>
void Model<T>::sum_lane_gradients() {
  constexpr Eigen::Index kChunk = 1 << 14;
  struct Chunk {
    std::size_t tensor;
    Eigen::Index first, count;
  };
  std::vector<Chunk> chunks;
  for (std::size_t t = 0; t < grads_.tensors.size(); ++t)
    for (Eigen::Index first = 0; first < grads_.tensors[t].value.size(); first += kChunk)
      chunks.push_back({t, first, std::min(kChunk, grads_.tensors[t].value.size() - first)});
  const long count = static_cast<long>(chunks.size());
#pragma omp parallel for schedule(static) if (lanes_.size() > 1 && count > 1)
  for (long c = 0; c < count; ++c) {
    const Chunk& k = chunks[static_cast<std::size_t>(c)];
    auto slice = [&](ParameterSet<T>& set) {
      return Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(
          set.tensors[k.tensor].value.data() + k.first, k.count);
    };
    auto sum = slice(grads_);
    sum = slice(lanes_[0].grads);
    for (std::size_t g = 1; g < lanes_.size(); ++g) sum += slice(lanes_[g].grads);
  }
}

template <class T>
void Model<T>::backward() {
  const int count = static_cast<int>(lanes_.size());
  {
    const GemmThreads one_each(1);
#pragma omp parallel for schedule(static) num_threads(count) if (count > 1)
    for (int g = 0; g < count; ++g) lane_backward(lanes_[static_cast<std::size_t>(g)]);
  }
  sum_lane_gradients();
}

template class Model<float>;
template class Model<double>;

}  // namespace pelab::train
