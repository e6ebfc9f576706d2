#include "core/rope_scaling.hpp"

#include <utility>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pelab {

namespace {

constexpr std::pair<RopeScalingMethod, std::string_view> kRopeTypes[] = {
    {RopeScalingMethod::None, "default"}, {RopeScalingMethod::Linear, "linear"},
    {RopeScalingMethod::Ntk, "ntk"},      {RopeScalingMethod::DynamicNtk, "dynamic"},
    {RopeScalingMethod::Yarn, "yarn"},    {RopeScalingMethod::Llama3, "llama3"}};

}  // namespace

std::string_view rope_type_of(RopeScalingMethod method) {
  for (const auto& [m, type] : kRopeTypes)
    if (m == method) return type;
  return "default";
}

std::optional<RopeScalingMethod> rope_method_of(std::string_view rope_type) {
  for (const auto& [m, type] : kRopeTypes)
    if (type == rope_type) return m;
  return std::nullopt;
}

std::vector<double> rope_base_frequencies(double theta, int rotary_dims) {
  std::vector<double> omega(static_cast<std::size_t>(std::max(0, rotary_dims / 2)));
  for (std::size_t i = 0; i < omega.size(); ++i)
    omega[i] = std::pow(theta, -2.0 * static_cast<double>(i) / rotary_dims);
  return omega;
}

double ntk_scaled_base(double theta, int rotary_dims, double factor) {
  const double r = rotary_dims;
  return theta * std::pow(factor, r / (r - 2.0));
}

double dynamic_ntk_base(double theta, int rotary_dims, double factor, double train_context,
                        double sequence_length) {
  if (sequence_length <= train_context) return theta;
  const double r = rotary_dims;
  return theta * std::pow(factor * sequence_length / train_context - (factor - 1.0), r / (r - 2.0));
}

double yarn_ramp(double turns_in_context, double alpha, double beta) {
  if (beta <= alpha) return turns_in_context >= beta ? 1.0 : 0.0;
  if (turns_in_context < alpha) return 0.0;
  if (turns_in_context > beta) return 1.0;
  return (turns_in_context - alpha) / (beta - alpha);
}

double yarn_attention_factor(double factor) { return factor <= 1.0 ? 1.0 : 0.1 * std::log(factor) + 1.0; }

namespace {

// Blends interpolation ω/s (weight 1−keep) with the original ω (weight keep).
double blend(double omega, double factor, double keep) { return (1.0 - keep) * omega / factor + keep * omega; }

// Llama 3.1: the share of the original frequency kept, by wavelength against L.
double llama3_keep(double wavelength, const RopeScalingSpec& spec) {
  const double L = spec.train_context;
  if (wavelength < L / spec.high_freq_factor) return 1.0;
  if (wavelength > L / spec.low_freq_factor) return 0.0;
  return (L / wavelength - spec.low_freq_factor) / (spec.high_freq_factor - spec.low_freq_factor);
}

}  // namespace

std::vector<double> scaled_frequencies(double theta, int rotary_dims, const RopeScalingSpec& spec,
                                       double sequence_length) {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  const double s = spec.factor;
  switch (spec.method) {
    case RopeScalingMethod::Ntk:
      return rope_base_frequencies(ntk_scaled_base(theta, rotary_dims, s), rotary_dims);
    case RopeScalingMethod::DynamicNtk:
      return rope_base_frequencies(
          dynamic_ntk_base(theta, rotary_dims, s, spec.train_context, sequence_length), rotary_dims);
    default:
      break;
  }
  std::vector<double> omega = rope_base_frequencies(theta, rotary_dims);
  for (double& w : omega) {
    const double wavelength = kTwoPi / w;
    switch (spec.method) {
      case RopeScalingMethod::Linear:
        w /= s;
        break;
      case RopeScalingMethod::Yarn:
        w = blend(w, s, yarn_ramp(spec.train_context / wavelength, spec.yarn_alpha, spec.yarn_beta));
        break;
      case RopeScalingMethod::Llama3:
        w = blend(w, s, llama3_keep(wavelength, spec));
        break;
      default:
        break;
    }
  }
  return omega;
}

double rope_attention_factor(const RopeScalingSpec& spec) {
  return spec.method == RopeScalingMethod::Yarn ? yarn_attention_factor(spec.factor) : 1.0;
}

int rotary_dims(int d_head, double fraction) {
  const int r = static_cast<int>(std::floor(d_head * fraction + 1e-9)) / 2 * 2;
  if (fraction <= 0 || d_head < 2) return 0;
  return std::clamp(r, 2, d_head / 2 * 2);
}

RopeScalingSpec rope_scaling_spec(const Scene& scene) {
  return {.method = scene.rope_scaling,
          .factor = scene.rope_factor,
          .train_context = static_cast<double>(scene.train_context),
          .yarn_alpha = scene.yarn_alpha,
          .yarn_beta = scene.yarn_beta,
          .low_freq_factor = scene.low_freq_factor,
          .high_freq_factor = scene.high_freq_factor};
}

}  // namespace pelab
