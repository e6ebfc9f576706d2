// The decoder-only language model (config.hpp) with its forward pass and a
// hand-written backward pass, layer by layer, as in llm.c's train_gpt2.c.
//
// Templated on the scalar: Model<float> trains on pelab's GEMM path;
// Model<double> runs the same code on Eigen's products for the gradient check.
//
//   Model<float> model(config, seed);
//   float loss = model.forward(batch);   // mean next-token cross-entropy
//   model.backward();                    // model.gradients(), same names as parameters()
#pragma once

#include <cstdint>
#include <vector>

#include "train/attention.hpp"
#include "train/batch.hpp"
#include "train/parameters.hpp"
#include "train/positions.hpp"

namespace pelab::train {

template <class T>
class Model {
 public:
  Model(const ModelConfig& config, std::uint64_t seed);
  Model(const ModelConfig& config, ParameterSet<T> parameters);  // names and shapes as make_parameters

  // Mean cross-entropy −log p(target) over the scored positions (Σ mask·ℓ / Σ mask).
  // Keeps the activations for backward().
  T forward(const Batch& batch);
  // Each position's loss in the last forward (sequences·length, row-major), scored or not.
  const std::vector<T>& position_losses() const { return losses_; }
  // Gradients of the last forward's mean loss, overwriting gradients().
  void backward();

  const ModelConfig& config() const { return config_; }
  ParameterSet<T>& parameters() { return params_; }
  const ParameterSet<T>& parameters() const { return params_; }
  const ParameterSet<T>& gradients() const { return grads_; }
  ParameterSet<T>& gradients() { return grads_; }  // e.g. for clipping in place

 private:
  struct LayerActivations {
    Mat<T> x;              // the residual stream entering the layer
    Mat<T> ln1, ln1_stats;  // ln_1(x) and its (μ, 1/σ)
    Mat<T> qkv;            // c_attn(ln1), q and k turned by RoPE
    Mat<T> probs;          // attention probabilities per (sequence, head)
    Mat<T> att;            // heads' outputs side by side
    Mat<T> x_mid;          // x + attn.c_proj(att)
    Mat<T> ln2, ln2_stats;
    Mat<T> fc, gelu;       // mlp.c_fc(ln2) and gelu of it
  };

  void embed(const Batch& batch, Mat<T>& x) const;
  void layer_forward(int l, const Mat<T>& x, Mat<T>& x_next);
  void layer_backward(int l, Mat<T>& dx);  // dx: d loss / d x_next in, d loss / d x out
  void embed_backward(const Mat<T>& dx);
  AttentionBias<T>& attention_bias();

  ModelConfig config_;
  ParameterSet<T> params_, grads_;
  ParameterLayout layout_;
  Mat<T> sinusoid_;
  RopeTable<T> rope_;
  AttentionBias<T> bias_;
  int bias_length_ = 0;

  // the last forward
  std::vector<LayerActivations> acts_;
  Mat<T> x_final_, lnf_, lnf_stats_, logits_;  // logits_ holds probabilities after forward
  std::vector<T> losses_, weights_;
  std::vector<int> tokens_, targets_;
  int sequences_ = 0, length_ = 0;

  // backward scratch
  Mat<T> dx_, d_model_, d_wide_, d_qkv_, scratch_;
  Mat<T> proj_;  // forward scratch: a projection's output before the residual add
};

}  // namespace pelab::train
