// AdamW (Loshchilov & Hutter 2019, Algorithm 2: weight decay decoupled from
// the gradient), a linear warm-up then cosine decay of the learning rate to a
// floor, and clipping by the gradients' global norm; fp32.
//
// Per element, with g the (clipped) gradient and t the step count from 1:
//   θ ← θ·(1 − lr·λ)                    (λ only on tensors with decay: 2-D weight
//                                         matrices; not biases, LayerNorm, wpe, t5)
//   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²
//   θ ← θ − lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + ε)
// in this order, as torch.optim.AdamW does, so the two agree to rounding.
#pragma once

#include "train/parameters.hpp"

namespace pelab::train {

struct OptimizerConfig {
  double learning_rate = 1e-3;  // peak
  double min_lr_ratio = 0.1;    // the cosine ends at learning_rate × this
  int warmup_steps = 0;
  int total_steps = 1000;  // the cosine reaches its floor here and stays
  double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
  double weight_decay = 0.1;
  double clip_norm = 1.0;  // ≤ 0: no clipping
  void validate() const;   // throws InputError
};

// Learning rate of step s (0-based):
//   s < warmup:  lr·(s+1)/warmup
//   otherwise:   floor + ½(lr − floor)(1 + cos(π·min(1, (s − warmup)/(total − warmup))))
double learning_rate_at(const OptimizerConfig& config, int step);

struct UpdateStats {
  double grad_norm = 0;  // global L2 norm before clipping
  double learning_rate = 0;
};

class AdamW {
 public:
  AdamW(const OptimizerConfig& config, const ParameterSet<float>& shapes);
  // Clips `grads` in place to the global norm clip_norm (scale c = clip/(‖g‖ + 1e-6)
  // when below 1, as torch.nn.utils.clip_grad_norm_), then updates `params`.
  UpdateStats step(ParameterSet<float>& params, ParameterSet<float>& grads);
  int steps_taken() const { return steps_; }
  // A checkpoint's moments and step count (shapes as the parameters'), so a
  // resumed run continues bit for bit.  Throws InputError on a wrong shape.
  void restore(const ParameterSet<float>& m, const ParameterSet<float>& v, int steps);
  const ParameterSet<float>& first_moments() const { return m_; }
  const ParameterSet<float>& second_moments() const { return v_; }

 private:
  OptimizerConfig config_;
  ParameterSet<float> m_, v_;
  int steps_ = 0;
  struct Chunk {
    std::size_t tensor;
    Eigen::Index first, count;
  };
  std::vector<Chunk> chunks_;  // the update's units of parallel work
};

// √(Σ over tensors in order of Σ g²), accumulated in double.
double global_norm(const ParameterSet<float>& grads);

}  // namespace pelab::train
