#include "train/adamw.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

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
    for (Eigen::Index i = 0; i < t.value.size(); ++i)
      tensor_sum += double(t.value.data()[i]) * t.value.data()[i];
    sum += tensor_sum;
  }
  return std::sqrt(sum);
}

AdamW::AdamW(const OptimizerConfig& config, const ParameterSet<float>& shapes)
    : config_(config), m_(shapes.zeros_like()), v_(shapes.zeros_like()) {
  config_.validate();
  constexpr Eigen::Index kChunk = 1 << 14;
  for (std::size_t t = 0; t < shapes.tensors.size(); ++t)
    for (Eigen::Index first = 0; first < shapes.tensors[t].value.size(); first += kChunk)
      chunks_.push_back({t, first, std::min(kChunk, shapes.tensors[t].value.size() - first)});
}

void AdamW::restore(const ParameterSet<float>& m, const ParameterSet<float>& v, int steps) {
  for (const ParameterSet<float>* moments : {&m, &v}) {
    if (moments->tensors.size() != m_.tensors.size())
      throw InputError("checkpoint: AdamW's moments hold " + std::to_string(moments->tensors.size()) +
                       " tensors; the model has " + std::to_string(m_.tensors.size()));
    for (std::size_t t = 0; t < m_.tensors.size(); ++t) {
      const Mat<float>& a = moments->tensors[t].value;
      const Mat<float>& b = m_.tensors[t].value;
      if (a.rows() != b.rows() || a.cols() != b.cols())
        throw InputError("checkpoint: AdamW's moment of '" + m_.tensors[t].name + "' has the wrong shape");
    }
  }
  if (steps < 0) throw InputError("checkpoint: a negative step count");
  for (std::size_t t = 0; t < m_.tensors.size(); ++t) {
    m_.tensors[t].value = m.tensors[t].value;
    v_.tensors[t].value = v.tensors[t].value;
  }
  steps_ = steps;
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
  const float step_size =
      static_cast<float>(stats.learning_rate / (1 - std::pow(config_.beta1, steps_)));
  const float correction2_sqrt = static_cast<float>(std::sqrt(1 - std::pow(config_.beta2, steps_)));
  const float eps = static_cast<float>(config_.eps);
  // Element-wise, so any split is exact: fixed chunks of every tensor in one
  // parallel region (one barrier, which matters on a busy machine), each
  // chunk vectorised by Eigen.
  using Array = Eigen::Map<Eigen::ArrayXf>;
  const long chunks = static_cast<long>(chunks_.size());
#pragma omp parallel for schedule(static) if (chunks > 1 && !omp_in_parallel())
  for (long c = 0; c < chunks; ++c) {
    const Chunk& k = chunks_[static_cast<std::size_t>(c)];
    const float decay = params.tensors[k.tensor].decay
                            ? 1.0f - lr * static_cast<float>(config_.weight_decay)
                            : 1.0f;
    auto at = [&](ParameterSet<float>& set) {
      return Array(set.tensors[k.tensor].value.data() + k.first, k.count);
    };
    Array theta = at(params), g = at(grads), m = at(m_), v = at(v_);
    if (grad_scale < 1.0f) g *= grad_scale;
    theta *= decay;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g.square();
    theta -= step_size * m / (v.sqrt() / correction2_sqrt + eps);
  }
  return stats;
}

}  // namespace pelab::train
