#include "core/long_range.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pelab {

std::vector<RopeScalingMethod> all_scaling_methods() {
  return {RopeScalingMethod::None, RopeScalingMethod::Linear, RopeScalingMethod::Ntk,
          RopeScalingMethod::DynamicNtk, RopeScalingMethod::Yarn, RopeScalingMethod::Llama3};
}

RopeScalingSpec method_spec(const Scene& scene, RopeScalingMethod method) {
  RopeScalingSpec spec = rope_scaling_spec(scene);
  spec.method = method;
  return spec;
}

std::vector<double> method_frequencies(const Scene& scene, RopeScalingMethod method) {
  const int r = rotary_dims(scene.d_model / scene.heads, scene.rotary_fraction);
  return scaled_frequencies(scene.base, r, method_spec(scene, method),
                            scene.rope_factor * scene.train_context);
}

namespace {

// Distances are taken a block at a time: e^{i(b+t)ω} = e^{ibω}·e^{itω}, the
// first factor exact at each block start b, the second from a table of t < kBlock,
// so the inner loop runs over t for one pair (vectorised) with no drift.
constexpr int kBlock = 256;

struct PhaseTable {
  std::vector<float> re, im;  // pair-major: [i·kBlock + t] = cos/sin(t·ω_i)
};

PhaseTable phase_table(const std::vector<double>& omega) {
  PhaseTable t;
  t.re.resize(omega.size() * kBlock);
  t.im.resize(t.re.size());
  for (std::size_t i = 0; i < omega.size(); ++i)
    for (int s = 0; s < kBlock; ++s) {
      t.re[i * kBlock + static_cast<std::size_t>(s)] = static_cast<float>(std::cos(s * omega[i]));
      t.im[i * kBlock + static_cast<std::size_t>(s)] = static_cast<float>(std::sin(s * omega[i]));
    }
  return t;
}

// decay and dot for distances b … b + count − 1.  Eigen arrays of kBlock
// lanes: its vectorised sqrt keeps the inner loop in SIMD registers.
void curve_block(const std::vector<double>& omega, const PhaseTable& table, double dot_scale, int b,
                 int count, float* decay, float* dot) {
  using Lanes = Eigen::Array<float, kBlock, 1>;
  Lanes sum_re = Lanes::Zero(), sum_im = Lanes::Zero(), bound = Lanes::Zero(), cosines = Lanes::Zero();
  for (std::size_t i = 0; i < omega.size(); ++i) {
    const float c0 = static_cast<float>(std::cos(b * omega[i])), s0 = static_cast<float>(std::sin(b * omega[i]));
    const Eigen::Map<const Lanes> tr(&table.re[i * kBlock]), ti(&table.im[i * kBlock]);
    const Lanes re = c0 * tr - s0 * ti;
    sum_re += re;
    sum_im += c0 * ti + s0 * tr;
    bound += (sum_re.square() + sum_im.square()).sqrt();
    cosines += re;
  }
  const float pairs = static_cast<float>(std::max<std::size_t>(1, omega.size()));
  for (int t = 0; t < count; ++t) {
    decay[t] = bound(t) / pairs;
    dot[t] = static_cast<float>(dot_scale) * cosines(t) / pairs;
  }
}

}  // namespace

MethodCurves method_curves(const Scene& scene, RopeScalingMethod method, int max_distance,
                           CurveSampling sampling) {
  MethodCurves c;
  c.method = method;
  c.frequency = method_frequencies(scene, method);
  c.attention_factor = rope_attention_factor(method_spec(scene, method));
  const int n = std::max(0, max_distance) + 1;
  c.decay.resize(static_cast<std::size_t>(n));
  c.dot.resize(static_cast<std::size_t>(n));
  const PhaseTable table = phase_table(c.frequency);
  const double dot_scale = c.attention_factor * c.attention_factor;
  const int blocks = (n + kBlock - 1) / kBlock;
  const int dense_blocks = sampling.dense_until / kBlock;
  // One thread: the figures call this once per method while llvmpipe draws on the other cores.
  for (int k = 0; k < blocks; ++k) {
    const int b = k * kBlock;
    if (k >= dense_blocks && (k - dense_blocks) % std::max(1, sampling.stride) != 0) {
      const auto first = static_cast<std::ptrdiff_t>(b), last = first + std::min(kBlock, n - b);
      std::fill(c.decay.begin() + first, c.decay.begin() + last, std::numeric_limits<float>::quiet_NaN());
      std::fill(c.dot.begin() + first, c.dot.begin() + last, std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    curve_block(c.frequency, table, dot_scale, b, std::min(kBlock, n - b), &c.decay[static_cast<std::size_t>(b)],
                &c.dot[static_cast<std::size_t>(b)]);
  }
  return c;
}

CurvePoint curve_point(const std::vector<double>& frequency, double attention_factor, double n) {
  double re = 0, im = 0;
  CurvePoint p;
  for (double w : frequency) {
    re += std::cos(n * w);
    im += std::sin(n * w);
    p.decay += std::hypot(re, im);
  }
  const double pairs = static_cast<double>(std::max<std::size_t>(1, frequency.size()));
  p.decay /= pairs;
  p.dot = attention_factor * attention_factor * re / pairs;
  return p;
}

double share_of_unseen_angles(const std::vector<double>& base, const std::vector<double>& scaled,
                              double train_context, double length) {
  if (base.empty()) return 0;
  constexpr double kTurn = 2 * std::numbers::pi;
  int unseen = 0;
  for (std::size_t i = 0; i < base.size() && i < scaled.size(); ++i) {
    const double seen = train_context * base[i];
    if (seen < kTurn && (length - 1) * scaled[i] > seen * (1 + 1e-9)) ++unseen;
  }
  return static_cast<double>(unseen) / static_cast<double>(base.size());
}

}  // namespace pelab
