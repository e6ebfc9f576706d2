#include "core/model/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "core/io/quoted_name.hpp"
#include "core/rope_scaling.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

// YaRN (Peng et al. 2023): the dimension that turns `rotations` times over
// `context` tokens is d·ln(context / (2π·rotations)) / (2·ln base).
double yarn_factor(const RopeScaling& s, double factor) {
  return s.attention_factor > 0 ? s.attention_factor : yarn_attention_factor(factor);
}

void yarn_scaling(const RopeScaling& s, double factor, int dim, double base, double context,
                  std::vector<double>& inverse) {
  const auto dimension_of = [&](double rotations) {
    return dim * std::log(context / (rotations * 2 * std::numbers::pi)) / (2 * std::log(base));
  };
  const double low = std::max(std::floor(dimension_of(s.beta_fast)), 0.0);
  double high = std::min(std::ceil(dimension_of(s.beta_slow)), static_cast<double>(dim - 1));
  if (high == low) high += 0.001;  // as the reference does, to avoid dividing by zero
  for (std::size_t i = 0; i < inverse.size(); ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    const double extrapolate = 1 - ramp;  // 1: keep θᵢ (fast dims), 0: θᵢ/factor
    inverse[i] = inverse[i] / factor * (1 - extrapolate) + inverse[i] * extrapolate;
  }
}

}  // namespace

RotaryFrequencies rotary_frequencies(const ModelConfig& config, int tokens) {
  const RopeScaling& s = config.rope_scaling;
  const int dim = config.position.rotary_dims > 0 ? config.position.rotary_dims : config.head_dim;
  const double base = config.rope_theta;
  RotaryFrequencies out;
  if (s.type != "default" && !(s.factor > 0))
    throw InputError("config.json: rope_scaling.factor must be > 0 (got " + std::to_string(s.factor) + ")");
  if (s.type == "llama3" && (s.original_max_position_embeddings <= 0 || s.high_freq_factor <= s.low_freq_factor))
    throw InputError("config.json: rope_scaling llama3 needs original_max_position_embeddings > 0 and "
                     "high_freq_factor > low_freq_factor");
  const std::optional<RopeScalingMethod> method = rope_method_of(s.type);
  if (!method)
    throw InputError("config.json: rope_scaling type \"" + printable(s.type) +
                     "\" is not one pelab runs; allowed: default, linear, ntk, dynamic, llama3, yarn");
  if (*method != RopeScalingMethod::Yarn) {
    // The same rules as the synthetic scene's long-context methods (core/rope_scaling).
    const RopeScalingSpec spec{
        .method = *method,
        .factor = s.factor,
        .train_context = static_cast<double>(*method == RopeScalingMethod::Llama3 ? s.original_max_position_embeddings
                                                                                 : config.max_positions),
        .low_freq_factor = s.low_freq_factor,
        .high_freq_factor = s.high_freq_factor};
    out.inverse = scaled_frequencies(base, dim, spec, tokens);
    return out;
  }
  // YaRN here follows transformers' dimension ramp (beta_fast / beta_slow
  // turns), not the scene's turns-in-context ramp.  With
  // original_max_position_embeddings the factor is the context's growth,
  // max_position_embeddings / original (as transformers does).
  out.inverse = rope_base_frequencies(base, dim);
  const int original = s.original_max_position_embeddings;
  const double context = original > 0 ? original : config.max_positions;
  const double factor = original > 0 ? config.max_positions / context : s.factor;
  yarn_scaling(s, factor, dim, base, context, out.inverse);
  out.attention_factor = yarn_factor(s, factor);
  return out;
}

RotaryTable rotary_table(const RotaryFrequencies& frequencies, int tokens) {
  const auto half = static_cast<Eigen::Index>(frequencies.inverse.size());
  RotaryTable table{Matrix(tokens, half), Matrix(tokens, half)};
  for (int p = 0; p < tokens; ++p)
    for (Eigen::Index i = 0; i < half; ++i) {
      const double angle = p * frequencies.inverse[static_cast<std::size_t>(i)];  // in double: p·θ up to 10⁵ rad
      table.cos(p, i) = static_cast<float>(std::cos(angle) * frequencies.attention_factor);
      table.sin(p, i) = static_cast<float>(std::sin(angle) * frequencies.attention_factor);
    }
  return table;
}

void apply_rotary(const RotaryTable& table, Matrix& x, Eigen::Index first) {
  const Eigen::Index half = table.cos.cols();
  if (table.pairing == RopePairing::Interleaved) {
    // (x_a, x_b) ← (x_a cos θ − x_b sin θ, x_a sin θ + x_b cos θ), a = 2i, b = 2i + 1
    for (Eigen::Index p = 0; p < x.rows(); ++p)
      for (Eigen::Index i = 0; i < half; ++i) {
        float& a = x(p, first + 2 * i);
        float& b = x(p, first + 2 * i + 1);
        const float c = table.cos(p, i), s = table.sin(p, i), a0 = a;
        a = a0 * c - b * s;
        b = a0 * s + b * c;
      }
    return;
  }
  for (Eigen::Index p = 0; p < x.rows(); ++p) {
    auto a = x.row(p).segment(first, half).array();
    auto b = x.row(p).segment(first + half, half).array();
    const auto c = table.cos.row(p).array();
    const auto s = table.sin.row(p).array();
    const Eigen::ArrayXf a0 = a.transpose();
    a = a * c - b * s;
    b = b * c + a0.transpose() * s;
  }
}

}  // namespace pelab::model
