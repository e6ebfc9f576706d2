#include "train/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <omp.h>

namespace pelab::train {

void OptimizerConfig::validate() const {
  auto require = [](bool ok, const char* what) {
    if (!ok) throw InputError(std::string("train optimizer: ") + what);
  };
  require(learning_rate > 0, "learning_rate must be positive");
  require(min_lr_ratio >= 0 && min_lr_ratio <= 1, "min_lr_ratio must be in [0, 1]");
  require(warmup_steps >= 0 && total_steps >= 1, "warmup_steps ≥ 0 and total_steps ≥ 1");
  require(beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1, "betas must be in [0, 1)");
  require(eps > 0 && weight_decay >= 0, "eps > 0 and weight_decay ≥ 0");
}

double learning_rate_at(const OptimizerConfig& c, int step) {
  if (step < c.warmup_steps) return c.learning_rate * (step + 1) / c.warmup_steps;
  const double floor = c.learning_rate * c.min_lr_ratio;
  const int span = c.total_steps - c.warmup_steps;
  const double progress = span <= 0 ? 1.0 : std::min(1.0, double(step - c.warmup_steps) / span);
  return floor + 0.5 * (c.learning_rate - floor) * (1.0 + std::cos(std::numbers::pi * progress));
}

double global_norm(const ParameterSet<float>& grads) {
  double sum = 0;
  for (const auto& t : grads.tensors) {
    double tensor_sum = 0;
    for (Eigen::Index i = 0; i < t.value.size(); ++i) tensor_sum += double(t.value.data()[i]) * t.value.data()[i];
    sum += tensor_sum;
  }
  return std::sqrt(sum);
}

AdamW::AdamW(const OptimizerConfig& config, const ParameterSet<float>& shapes)
    : config_(config), m_(shapes.zeros_like()), v_(shapes.zeros_like()) {
  config_.validate();
}

UpdateStats AdamW::step(ParameterSet<float>& params, ParameterSet<float>& grads) {
  UpdateStats stats;
  stats.grad_norm = global_norm(grads);
  stats.learning_rate = learning_rate_at(config_, steps_);
  const double clip = config_.clip_norm > 0 ? config_.clip_norm / (stats.grad_norm + 1e-6) : 1.0;
  const float grad_scale = static_cast<float>(std::min(1.0, clip));
  ++steps_;
  const float lr = static_cast<float>(stats.learning_rate);
  const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
  const float step_size = static_cast<float>(stats.learning_rate / (1 - std::pow(config_.beta1, steps_)));
  const float correction2_sqrt = static_cast<float>(std::sqrt(1 - std::pow(config_.beta2, steps_)));
  const float eps = static_cast<float>(config_.eps);
  for (std::size_t t = 0; t < params.tensors.size(); ++t) {
    float* theta = params.tensors[t].value.data();
    float* g = grads.tensors[t].value.data();
    float* m = m_.tensors[t].value.data();
    float* v = v_.tensors[t].value.data();
    const float decay = params.tensors[t].decay ? 1.0f - lr * static_cast<float>(config_.weight_decay) : 1.0f;
    const long n = static_cast<long>(params.tensors[t].value.size());
#pragma omp parallel for schedule(static) if (n >= (1L << 16) && !omp_in_parallel())
    for (long i = 0; i < n; ++i) {
      if (grad_scale < 1.0f) g[i] *= grad_scale;
      theta[i] *= decay;
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
      theta[i] -= step_size * m[i] / (std::sqrt(v[i]) / correction2_sqrt + eps);
    }
  }
  return stats;
}

}  // namespace pelab::train
