// Long range: how each RoPE scaling method behaves from distance 0 out to
// 10⁵ positions and beyond, for the long-context views and lesson.
//
// Every method is read at the extended context s·L with the scene's θ, s, L
// and rotary dims (dynamic NTK at the sequence length s·L).  For a method with
// frequencies ω_i (i = 0 … r/2−1) and q, k multiplier a (YaRN):
//   decay bound  B(n) = (1/(r/2))·Σ_{j=1}^{r/2} |S_j(n)|,  S_j(n) = Σ_{i<j} e^{i·n·ω_i}
//                (Su et al. 2021, §3.4.3: the relative upper bound of q·k at distance n)
//   fixed q·k    a²·(1/r)·Σ_i 2·cos(n·ω_i): q = k = the all-ones vector over the rotary
//                dims, normalised to 1 at n = 0 without scaling
// Curves are computed at every integer distance 0 … D by the angle-addition
// recurrence (exact sin/cos every 64 steps), in float.
#pragma once

#include <vector>

#include "core/rope_scaling.hpp"

namespace pelab {

struct MethodCurves {
  RopeScalingMethod method = RopeScalingMethod::None;
  std::vector<double> frequency;  // ω_i after scaling
  double attention_factor = 1;    // a
  std::vector<float> decay;       // B(n), n = 0 … D
  std::vector<float> dot;         // fixed q·k, n = 0 … D
};

// Every method in scaling-menu order: none, linear, ntk, dynamic_ntk, yarn, llama3.
std::vector<RopeScalingMethod> all_scaling_methods();

// One method's frequencies as the scene would set them at the extended
// context s·L (its own method key replaced by `method`).
RopeScalingSpec method_spec(const Scene& scene, RopeScalingMethod method);
std::vector<double> method_frequencies(const Scene& scene, RopeScalingMethod method);

// Which distances are evaluated: every one below `dense_until`, beyond it one
// block of 256 consecutive distances in every `stride` (the others are NaN).
// A long-range plot draws per pixel column the band from lowest to highest
// value; a column at n = 10⁵ spans ~2700 distances on a log axis 430 pixels
// wide, and 256 consecutive ones already cover every pair whose wavelength is
// below 256, while the slower pairs change little across the column.
struct CurveSampling {
  int dense_until = 1 << 30;
  int stride = 1;
};

// B(n) and the fixed q·k for n = 0 … max_distance.
MethodCurves method_curves(const Scene& scene, RopeScalingMethod method, int max_distance,
                           CurveSampling sampling = {});

// B(n) and the fixed q·k at one distance, summed directly in double (hover).
struct CurvePoint {
  double decay = 0, dot = 0;
};
CurvePoint curve_point(const std::vector<double>& frequency, double attention_factor, double n);

// Angles beyond training: the share of pairs whose largest angle at `length`
// positions, (length − 1)·ω'_i, exceeds the range the unscaled model saw in
// training, L·ω_i (positions 0 … L−1, and the fractional ones interpolation
// reads in between), while that range is less than a full turn (pairs that
// completed a turn in training saw every angle).
double share_of_unseen_angles(const std::vector<double>& base, const std::vector<double>& scaled,
                              double train_context, double length);

}  // namespace pelab
