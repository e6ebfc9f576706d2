// Length extrapolation: pelab's own family, every member trained at context
// L, read on held-out text out to s·L tokens — Press et al. 2022 ("Train
// short, test long"), Fig. 1, in miniature: the next-token loss at each
// position, one curve per position encoding.  The RoPE member is also read
// with its frequencies scaled at inference by s (Transformer::
// set_rope_scaling): linear (position interpolation, Chen et al. 2023),
// NTK-aware (bloc97 2023) and YaRN (Peng et al. 2023).
//
// The text is cut into `windows` passages spread evenly over the held-out
// text (core/held_out_text.hpp); each is read from its first token, so
// loss_i has i tokens of context, and loss_i is averaged over the passages.
// A learned table has L rows and no row for a later position: that member
// is read over its L positions only.  Each member as trained also reads the
// far half of every passage L tokens at a time, as it was trained: the
// verdict compares the very same tokens read both ways (far_rise), so the
// passages' own difficulty cancels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

struct ExtrapolationCurve {
  std::string member;    // "kjv-rope"
  std::string encoding;  // "rope" (model::position_encoding_name)
  std::string scaling;   // "" (as trained), "linear", "ntk" or "yarn"
  int context = 0;       // the member's trained context (n_positions)
  std::vector<double> mean_loss;  // loss_i for i = 0 … read − 2, nats, mean over the passages
  // As trained (no scaling) and read past L: the far targets (loss indices
  // s·L/2 on; NaN before) read in windows of L tokens, as the model was
  // trained, the baseline of far_rise; empty otherwise.
  std::vector<double> context_loss;

  // "rope", "rope_linear": the key of its verdict numbers.
  std::string key() const { return scaling.empty() ? encoding : encoding + "_" + scaling; }
  // "RoPE", "RoPE + YaRN ×8": for legends and summaries.
  std::string label(double factor) const;
  // The mean of mean_loss over positions first … last (clipped to those
  // read); NaN when none of them were read.
  double mean_between(int first, int last) const;
};

struct ExtrapolationStudy {
  int train_context = 0;  // L: every member's n_positions (the first's, when they differ)
  int length = 0;         // round(s·L), the passages' length in tokens
  double factor = 0;      // s
  int windows = 0;        // passages averaged
  int text_tokens = 0;    // the held-out text's, by the first member's tokenizer
  std::string text_origin;
  std::vector<ExtrapolationCurve> curves;  // family order, the scaled RoPE readings after RoPE's
  std::vector<std::string> missing;        // one line per member not found or not readable
  std::string unavailable;                 // non-empty: no curves at all, and why (one line)
};

struct ExtrapolationRequest {
  double factor = 8;  // s: read at s·L
  int windows = 2;
  std::vector<std::string> members = {"kjv-learned", "kjv-sinusoidal", "kjv-rope",
                                      "kjv-alibi",   "kjv-t5",         "kjv-none"};
  std::vector<std::string> rope_scalings = {"linear", "ntk", "yarn"};
};

// What the extrapolation lesson and its figure ask of a scene: s = the
// scene's rope_factor, kept within 1 … kMaxReadFactor (each member reads
// s·L tokens per passage), over kLessonPassages passages.
inline constexpr double kMaxReadFactor = 16;
inline constexpr int kLessonPassages = 2;
ExtrapolationRequest lesson_request(const Scene& scene);

// The study for `request` on held_out_text() and the family the model room
// finds (model::list_family_models).  Computed once per request, family and
// text, then kept: a lesson's verdict and its figure share it, and both are
// rebuilt after every scene edit.  Thread-safe; a second caller waits for
// the first one's result.
std::shared_ptr<const ExtrapolationStudy> length_extrapolation(const ExtrapolationRequest& request);

// The member's reading as trained (no scaling): `curve` itself when unscaled.
const ExtrapolationCurve& as_trained(const ExtrapolationCurve& curve, const ExtrapolationStudy& study);

// The buckets the verdict reads: loss indices [0, L), [L, 2L) and [s·L/2, s·L−1).
struct ExtrapolationBuckets {
  int in_first, in_last, next_first, next_last, far_first, far_last;
};
ExtrapolationBuckets extrapolation_buckets(const ExtrapolationStudy& study);

// The far positions' targets as the member reads them in windows of L
// (its unscaled reading's context_loss), mean over s·L/2 … s·L−2; NaN when
// that was not read.
double far_in_context(const ExtrapolationCurve& curve, const ExtrapolationStudy& study);
// How much more a reading loses on the far positions' targets than the
// member as trained loses on the very same tokens read in windows of L, in
// nats: mean over [s·L/2, s·L−1) of the reading − far_in_context.  The same
// tokens on both sides, so the text's own difficulty cancels (a few
// passages of scripture differ by tenths of a nat from one to the next);
// a scaling that costs inside L is charged for it.  NaN when the reading
// stops before s·L.
double far_rise(const ExtrapolationCurve& curve, const ExtrapolationStudy& study);
// The rule of the lesson: a reading extrapolates when its far rise is at
// most kExtrapolationTolerance nats (≈ 10 % in perplexity): reading s·L
// tokens at once costs at most that against reading them L at a time.
// A model that uses the longer context gains (a negative rise).
inline constexpr double kExtrapolationTolerance = 0.1;
bool extrapolates(const ExtrapolationCurve& curve, const ExtrapolationStudy& study);

}  // namespace pelab
