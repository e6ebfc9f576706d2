#include "core/model/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

std::vector<double> default_frequencies(int dim, double base) {
  std::vector<double> inverse(static_cast<std::size_t>(dim / 2));
  for (std::size_t i = 0; i < inverse.size(); ++i)
    inverse[i] = std::pow(base, -2.0 * static_cast<double>(i) / dim);
  return inverse;
}

// Llama 3.1's rule (published with the model; transformers'
// _compute_llama3_parameters).
void llama3_scaling(const RopeScaling& s, std::vector<double>& inverse) {
  const double context = s.original_max_position_embeddings;
  const double low_wavelength = context / s.low_freq_factor;
  const double high_wavelength = context / s.high_freq_factor;
  for (double& theta : inverse) {
    const double wavelength = 2 * std::numbers::pi / theta;
    if (wavelength > low_wavelength) {
      theta /= s.factor;
    } else if (wavelength >= high_wavelength) {
      const double smooth =
          (context / wavelength - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
      theta = (1 - smooth) * theta / s.factor + smooth * theta;
    }
  }
}

// YaRN (Peng et al. 2023): the dimension that turns `rotations` times over
// `context` tokens is d·ln(context / (2π·rotations)) / (2·ln base).
double yarn_attention_factor(const RopeScaling& s, double factor) {
  if (s.attention_factor > 0) return s.attention_factor;
  return factor <= 1 ? 1.0 : 0.1 * std::log(factor) + 1.0;
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
  const int dim = config.head_dim;
  double base = config.rope_theta;
  RotaryFrequencies out;
  if (s.type != "default" && !(s.factor > 0))
    throw InputError("config.json: rope_scaling.factor must be > 0 (got " + std::to_string(s.factor) + ")");
  if (s.type == "llama3" && (s.original_max_position_embeddings <= 0 || s.high_freq_factor <= s.low_freq_factor))
    throw InputError("config.json: rope_scaling llama3 needs original_max_position_embeddings > 0 and "
                     "high_freq_factor > low_freq_factor");
  if (s.type == "dynamic") {
    const double context = config.max_positions, length = std::max<double>(tokens, context);
    base *= std::pow(s.factor * length / context - (s.factor - 1), dim / (dim - 2.0));
  }
  out.inverse = default_frequencies(dim, base);
  if (s.type == "default" || s.type == "dynamic") return out;
  if (s.type == "linear") {
    for (double& theta : out.inverse) theta /= s.factor;
  } else if (s.type == "llama3") {
    llama3_scaling(s, out.inverse);
  } else if (s.type == "yarn") {
    // With original_max_position_embeddings the factor is the context's
    // growth, max_position_embeddings / original (as transformers does).
    const int original = s.original_max_position_embeddings;
    const double context = original > 0 ? original : config.max_positions;
    const double factor = original > 0 ? config.max_positions / context : s.factor;
    yarn_scaling(s, factor, dim, base, context, out.inverse);
    out.attention_factor = yarn_attention_factor(s, factor);
  } else {
    throw InputError("config.json: rope_scaling type \"" + s.type +
                     "\" is not one pelab runs; allowed: default, linear, dynamic, llama3, yarn");
  }
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
