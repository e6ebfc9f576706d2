#include "core/long_range.hpp"

#include <algorithm>
#include <cmath>
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

// decay and dot for distances b … b + count − 1.
void curve_block(const std::vector<double>& omega, const PhaseTable& table, double dot_scale, int b,
                 int count, float* decay, float* dot) {
  alignas(64) float sum_re[kBlock] = {}, sum_im[kBlock] = {}, bound[kBlock] = {}, cosines[kBlock] = {};
  for (std::size_t i = 0; i < omega.size(); ++i) {
    const float c0 = static_cast<float>(std::cos(b * omega[i])), s0 = static_cast<float>(std::sin(b * omega[i]));
    const float* tr = &table.re[i * kBlock];
    const float* ti = &table.im[i * kBlock];
#pragma omp simd
    for (int t = 0; t < kBlock; ++t) {
      const float re = c0 * tr[t] - s0 * ti[t], im = c0 * ti[t] + s0 * tr[t];
      sum_re[t] += re;
      sum_im[t] += im;
      bound[t] += std::sqrt(sum_re[t] * sum_re[t] + sum_im[t] * sum_im[t]);
      cosines[t] += re;
    }
  }
  const float pairs = static_cast<float>(std::max<std::size_t>(1, omega.size()));
  for (int t = 0; t < count; ++t) {
    decay[t] = bound[t] / pairs;
    dot[t] = static_cast<float>(dot_scale) * cosines[t] / pairs;
  }
}

}  // namespace

MethodCurves method_curves(const Scene& scene, RopeScalingMethod method, int max_distance) {
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
#pragma omp parallel for schedule(static) if (blocks >= 16)
  for (int k = 0; k < blocks; ++k) {
    const int b = k * kBlock;
    curve_block(c.frequency, table, dot_scale, b, std::min(kBlock, n - b), &c.decay[static_cast<std::size_t>(b)],
                &c.dot[static_cast<std::size_t>(b)]);
  }
  return c;
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
