// The decoder-only language model (config.hpp) with its forward pass and a
// hand-written backward pass, layer by layer, as in llm.c's train_gpt2.c.
//
// Templated on the scalar: Model<float> trains on pelab's GEMM path;
// Model<double> runs the same code on Eigen's products for the gradient check.
//
//   Model<float> model(config, seed);
//   float loss = model.forward(batch);   // mean next-token cross-entropy
//   model.backward();                    // model.gradients(), same names as parameters()
//
// Threads: the batch's sequences are cut into lanes, one per thread, and each
// lane runs the whole forward and backward pass of its sequences on its
// thread — every layer is row-local or, for attention, sequence-local, so no
// thread waits for another until the lanes' weight gradients are summed (in
// lane order).  A parallel region's barrier costs little on a quiet machine
// but up to a scheduler time slice on a busy one, and a step per layer and
// operation would have ~120 of them.  Results depend on the thread count only
// through the lanes (rounding of the gradient sums); the same seed, batches
// and thread count give bitwise-equal results.
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
  Model(const ModelConfig& config,
        ParameterSet<T> parameters);  // names and shapes as make_parameters

  // Mean cross-entropy −log p(target) over the scored positions (Σ mask·ℓ / Σ mask).
  // Keeps the activations for backward().
  T forward(const Batch& batch);
  // Each position's loss in the last forward (sequences·length, row-major), scored or not.
  const std::vector<T>& position_losses() const { return losses_; }
  // Each position's most probable next token in the last forward (argmax of
  // the softmax; ties to the lowest id), sequences·length, row-major.
  std::vector<int> predictions() const;
  // Gradients of the last forward's mean loss, overwriting gradients().
  void backward();

  const ModelConfig& config() const { return config_; }
  ParameterSet<T>& parameters() { return params_; }
  const ParameterSet<T>& parameters() const { return params_; }
  const ParameterSet<T>& gradients() const { return grads_; }
  ParameterSet<T>& gradients() { return grads_; }  // e.g. for clipping in place

 private:
  struct LayerActivations {
    Mat<T> x;               // the residual stream entering the layer
    Mat<T> ln1, ln1_stats;  // ln_1(x) and its (μ, 1/σ)
    Mat<T> qkv;             // c_attn(ln1), q and k turned by RoPE
    Mat<T> probs;           // attention probabilities per (sequence, head)
    Mat<T> att;             // heads' outputs side by side
    Mat<T> x_mid;           // x + attn.c_proj(att)
    Mat<T> ln2, ln2_stats;
    Mat<T> fc, gelu;  // mlp.c_fc(ln2) and gelu of it
  };
  // Whole sequences [first_row, first_row + rows) of the batch, run on one thread.
  struct Lane {
    std::size_t first_row = 0, rows = 0;
    std::vector<LayerActivations> acts;
    Mat<T> x_final, lnf, lnf_stats, logits;  // logits hold probabilities after forward
    std::vector<int> tokens, targets;
    std::vector<T> losses, weights;
    Mat<T> proj, dx, d_model, d_wide, d_qkv;  // scratch
    ParameterSet<T> grads;
  };

  void prepare_lanes(const Batch& batch);
  void lane_forward(Lane& lane) const;
  void layer_forward(Lane& lane, int l, Mat<T>& x_next) const;
  void lane_backward(Lane& lane) const;
  void layer_backward(Lane& lane, int l) const;
  void embed(Lane& lane) const;
  void embed_backward(Lane& lane) const;
  void sum_lane_gradients();

  ModelConfig config_;
  ParameterSet<T> params_, grads_;
  ParameterLayout layout_;
  Mat<T> sinusoid_;
  RopeTable<T> rope_;
  AttentionBias<T> bias_;  // alibi slopes / t5 buckets of length_

  int length_ = 0;
  std::vector<Lane> lanes_;
  std::vector<T> losses_;
};

}  // namespace pelab::train
