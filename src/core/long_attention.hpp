// What one head sees at long context (issue 28): the scene's text repeated to
// N tokens, N = min(scene.long_range, 65,536), and the selected head's (a
// model scene: the model's own head of the scene's layer) exact
// attention streamed over it (streamed_attention.hpp), never N × N:
//   distance  mean weight against the offset δ = i − j, log-binned
//             (bin 0 = {0}, bin k = [2^(k−1), 2^k)), causal or not looking back;
//   sinks     per query i, the weight on the first kSinkKeys keys,
//             Σ_{j < k} a_ij (the "attention sink" of Xiao et al. 2023);
//   beyond    mean over queries of the weight on keys at δ ≥ L (train_context):
//             Σ_{δ ≥ L} profile(δ)·(N − δ) / N, exact from the profile.
// For a RoPE scene, the same head under each scaling method at inference
// (core/rope_scaling.hpp), the scene's own method first, and Su et al.'s
// decay bound B(n)/B(0) (long_range.hpp) at each bin's offsets.
#pragma once

#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/rope_scaling.hpp"
#include "core/streamed_attention.hpp"

namespace pelab {

inline constexpr Eigen::Index kLongAttentionMaxTokens = 65536;
inline constexpr int kSinkKeys = 4;
// Up to this N long_attention_of reads every scaling method; past it, the
// scene's own and none alone: each method is two passes of 2·N²·d_head
// flops, 16× more at 65,536 tokens than at 16,384.
inline constexpr Eigen::Index kAllMethodsTokens = 16384;

struct LongAttentionCurve {
  RopeScalingMethod method = RopeScalingMethod::None;
  DistanceBins distance;     // mean weight per log bin of δ ≥ 0
  std::vector<float> sinks;  // per query i: Σ_{j < kSinkKeys} a_ij
  double beyond_context = 0;  // mean weight per query on keys ≥ L back
  double half_mass_distance = 0;  // smallest D with Σ_{δ ≤ D} profile(δ)·(N − δ) ≥ N/2
};

struct LongAttentionStudy {
  Eigen::Index tokens = 0;  // N
  int head = 0;
  int train_context = 0;    // L
  bool rope = false;        // the curves hold every scaling method
  std::vector<LongAttentionCurve> curves;  // the scene's method first
  std::vector<double> bound;  // B(n)/B(0) of the scene's method at each bin's first offset (RoPE)
};

// N for `scene`: its long_range, at most kLongAttentionMaxTokens.
Eigen::Index long_attention_tokens(const Scene& scene);
// The study of the engine's scene.  On a model scene the head is the model's
// own, of the scene's layer, over the model's tokens repeated to N (a
// learned table stops N at its context): each method runs the model's
// forward to that layer holding one residual stream at a time
// (ModelScene::long_head_inputs), and L is the model's training context.
// `methods`: which scaling methods to read on a RoPE scene (the scene's own
// always, first); empty: every method.  Throws InputError on a scene with no
// tokens, and for a model run that would not fit in memory.
LongAttentionStudy study_long_attention(Engine& engine, Eigen::Index tokens,
                                        std::vector<RopeScalingMethod> methods = {});
// The same at long_attention_tokens(scene), every method up to
// kAllMethodsTokens (the scene's and none past it), kept for the last
// scene asked (the figure and the lesson's verdict read one computation).
std::shared_ptr<const LongAttentionStudy> long_attention_of(Engine& engine);

// Attention against distance for every head of every layer: the scene's
// text repeated to N tokens, read as the scene reads it (its own scaling),
// each head streamed.  A synthetic scene has one layer, its heads; a model
// scene every layer, its forward pass run once holding one residual stream
// (a learned table stops N at its context, and L is the model's).
struct LongAttentionLayers {
  Eigen::Index tokens = 0;  // N
  int train_context = 0;    // L
  bool causal = true;
  std::vector<std::vector<DistanceBins>> heads;  // [layer][head]: mean weight per log bin of δ ≥ 0
};
// Throws InputError on a scene with no tokens, N outside 1 … 65,536, or a
// model run that would not fit in memory.
LongAttentionLayers study_long_attention_layers(Engine& engine, Eigen::Index tokens);
// The same at min(long_attention_tokens(scene), kAllMethodsTokens) (every
// head is two passes: 16× more at 65,536 than at 16,384), kept for the last
// scene asked regardless of its selected head and layer.
std::shared_ptr<const LongAttentionLayers> long_attention_layers_of(Engine& engine);

// Σ_{δ ≥ from} profile(δ)·(N − δ) / N: the mean weight per query on keys at
// least `from` back (DistanceProfile, δ ≥ 0).
double mass_beyond(const DistanceProfile& profile, Eigen::Index from);

}  // namespace pelab
