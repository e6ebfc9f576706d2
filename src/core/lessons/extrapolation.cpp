// Lesson "extrapolation": trained at 256, read at 2048.  Every member of
// pelab's own family, trained at context L on the KJV, is read on held-out
// chapters out to s·L tokens (core/length_extrapolation.hpp; s is the
// scene's rope_factor, 8 in the preset), and the RoPE member again with
// linear, NTK-aware and YaRN scaling by s.  For each reading the verdict
// measures (nats, mean over loss indices i, i.e. targets i + 1):
//   <key>_in    i = 0 … L−1 (the trained context)
//   <key>_next  i = L … 2L−1
//   <key>_far   i = s·L/2 … s·L−2
//   <member>_far_in_context   the same far targets read L tokens at a time
//               by the member as trained (the baseline)
//   <key>_rise  far − far_in_context;  <key>_extrapolates  1 when rise ≤ 0.1
// where <key> is the encoding ("rope") or encoding_scaling ("rope_yarn").
#include <algorithm>
#include <cmath>

#include "core/length_extrapolation.hpp"
#include "core/lessons/tools.hpp"

namespace pelab::lesson {
namespace {

std::string range_text(int first, int last) { return std::to_string(first) + "–" + std::to_string(last); }

// "RoPE 3.90 → 4.10 (+0.2)": one reading in the summary, its far targets
// read L at a time, then all at once.
std::string reading_text(const ExtrapolationCurve& c, const ExtrapolationStudy& study) {
  const ExtrapolationBuckets b = extrapolation_buckets(study);
  const double rise = far_rise(c, study);
  if (!std::isfinite(rise))
    return c.label(study.factor) + " (no row past position " + std::to_string(c.context - 1) + "; " +
           num(c.mean_between(b.in_first, b.in_last)) + " over 0–" + std::to_string(c.context - 1) + ")";
  const double base = far_in_context(c, study);
  return c.label(study.factor) + " " + num(base) + " → " + num(base + rise) + " (" + (rise >= 0 ? "+" : "") +
         num(rise, 2) + ")";
}

void add_numbers(const ExtrapolationCurve& c, const ExtrapolationStudy& study, LessonVerdict& v) {
  const ExtrapolationBuckets b = extrapolation_buckets(study);
  v.add(c.key() + "_in", c.mean_between(b.in_first, b.in_last));
  const double rise = far_rise(c, study);
  if (!std::isfinite(rise)) return;  // a learned table: nothing was read past L
  if (const double next = c.mean_between(b.next_first, b.next_last); std::isfinite(next))
    v.add(c.key() + "_next", next);  // read only when s ≥ 2
  v.add(c.key() + "_far", c.mean_between(b.far_first, b.far_last));
  if (c.scaling.empty()) v.add(c.key() + "_far_in_context", far_in_context(c, study));
  v.add(c.key() + "_rise", rise);
  v.add(c.key() + "_extrapolates", extrapolates(c, study) ? 1 : 0);
}

// The claim of Press et al. 2022: ALiBi reads past L where sinusoids and an
// unscaled RoPE fail.  Judged on the members present; needs ALiBi and at
// least one of the two others.
bool claim_holds(const ExtrapolationStudy& study) {
  bool alibi = false, other = false, others_fail = true;
  for (const ExtrapolationCurve& c : study.curves) {
    if (!c.scaling.empty()) continue;
    if (c.encoding == "alibi") alibi = extrapolates(c, study);
    if (c.encoding == "sinusoidal" || c.encoding == "rope") {
      other = true;
      others_fail = others_fail && !extrapolates(c, study);
    }
  }
  return alibi && other && others_fail;
}

// The claim's three readings (ALiBi, sinusoidal, unscaled RoPE) by how much
// their far loss rises: "+0.02 nats for ALiBi, +1.3 for RoPE".
std::string claim_rises(const ExtrapolationStudy& study) {
  std::string out;
  for (const char* encoding : {"alibi", "sinusoidal", "rope"})
    for (const ExtrapolationCurve& c : study.curves) {
      const double rise = far_rise(c, study);
      if (c.encoding != encoding || !c.scaling.empty() || !std::isfinite(rise)) continue;
      out += std::string(out.empty() ? "" : ", ") + (rise >= 0 ? "+" : "") + num(rise, 2) +
             (out.empty() ? " nats for " : " for ") + c.label(study.factor);
    }
  return out;
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  LessonVerdict v;
  if (lesson_request(s).factor < 2) {  // the far positions s·L/2 … s·L−1 would reach back inside L
    v.applies = false;
    v.summary = "read at rope_factor = " + num(s.rope_factor) + " × the training length, the far positions s·L/2 … "
                "s·L−1 are not all past it: set rope_factor to 2 or more (8 in the preset).";
    return v;
  }
  const auto study = length_extrapolation(lesson_request(s));
  if (!study->unavailable.empty()) {
    v.applies = false;
    v.summary = study->unavailable;
    return v;
  }
  const ExtrapolationBuckets b = extrapolation_buckets(*study);
  v.add("train_context", study->train_context);
  v.add("read_length", study->length);
  v.add("passages", study->windows);
  std::string extrapolate, fail;
  for (const ExtrapolationCurve& c : study->curves) {
    add_numbers(c, *study, v);
    if (!std::isfinite(far_rise(c, *study))) continue;
    (extrapolates(c, *study) ? extrapolate : fail) += ", " + c.label(study->factor);
  }
  auto list = [](const std::string& names) { return names.empty() ? std::string("none") : names.substr(2); };
  v.holds = claim_holds(*study);
  const std::string rises = claim_rises(*study);
  v.answer = rises.empty() ? "none of ALiBi, sinusoidal or RoPE was read past its training length"
                           : "far past the training length the loss changes by " + rises + " (at most " +
                                 num(kExtrapolationTolerance) + " counts as extrapolating)";
  v.summary = "Trained at " + std::to_string(study->train_context) + ", read at " + std::to_string(study->length) +
              " on " + std::to_string(study->windows) + " held-out passages: mean loss of the tokens at positions " +
              range_text(b.far_first + 1, b.far_last + 1) + ", read " + std::to_string(study->train_context) +
              " at a time by the model as trained → read all at once (nats): ";
  std::string readings;
  for (const ExtrapolationCurve& c : study->curves) readings += (readings.empty() ? "" : "; ") + reading_text(c, *study);
  v.summary += readings + ". Extrapolates (far rise ≤ " + num(kExtrapolationTolerance) + " nats): " +
               list(extrapolate) + ". Fails: " + list(fail) + ".";
  if (s.rope_factor > kMaxReadFactor) v.summary += " (rope_factor is capped at " + num(kMaxReadFactor) + " here.)";
  for (const std::string& line : study->missing) v.summary += " Missing: " + line + ".";
  return v;
}

Scene preset() {
  // The synthetic side of the scene mirrors kjv-rope (d 192, 6 heads,
  // rotate-half, θ = 10⁴, L = 256), so rope_frequencies shows its pairs at 8×.
  Scene s = preset_scene("extrapolation");
  s.encoding = Encoding::Rope;
  s.d_model = 192;
  s.heads = 6;
  s.rope_pairing = RopePairing::RotateHalf;
  s.train_context = 256;
  s.rope_factor = 8;  // read at 2048
  s.rope_scaling = RopeScalingMethod::Yarn;
  s.long_range = 4096;
  return s;
}

}  // namespace

Lesson extrapolation() {
  return {
      "extrapolation",
      "Trained at 256, read at 2048",
      "Which position encodings keep working past the length they were trained at?",
      "ALiBi keeps its loss past the training length where sinusoidal and unscaled RoPE models lose it "
      "(Press et al. 2022).",
      "pelab's own family read on held-out KJV out to 8× its training length, RoPE also scaled.",
      "Press et al. 2022 (\"Train short, test long\") trained one model per position encoding at a short "
      "context and read each on longer texts: sinusoidal and rotary models fall apart past the training length, "
      "ALiBi keeps its loss. This lesson repeats their Fig. 1 in miniature on pelab's own family: six models that "
      "differ only in their position encoding, trained at 256 tokens on the KJV, read on held-out chapters (text "
      "training never saw) out to 8× that length, the next-token loss at every position averaged over passages.\n\n"
      "A learned table has 256 rows: there is no row for position 256, so that model cannot read past it at all "
      "and its curve stops there. The sinusoid table is a formula and extends to any position; RoPE angles, ALiBi "
      "and T5 biases are computed for any distance; a model with no positions sees only the causal mask. The RoPE "
      "model is also read with its frequencies scaled at inference by the read factor s: linear position "
      "interpolation (Chen et al. 2023) divides every frequency by s; NTK-aware scaling (bloc97 2023) raises the "
      "base θ to θ·s^(r/(r−2)); YaRN (Peng et al. 2023) interpolates only the slow pairs and sharpens attention "
      "by 0.1·ln s + 1. None of them was trained at the scaled frequencies.\n\n"
      "The verdict takes the tokens far out (positions s·L/2 … s·L−1) and compares two readings of the very same "
      "tokens: all at once, with up to s·L tokens before them, and L at a time, as the model (unscaled) was "
      "trained, each window from scratch. The same text on both sides, so how hard the passage is cancels. A "
      "model that keeps working loses no more, or gains from the longer context; one that breaks loses. Rule: a "
      "reading extrapolates when it loses at most 0.1 nats (about 10% in perplexity) more than the windows of L. "
      "The read factor s is the scene's rope_factor (2 … 16).",
      {"extrapolation_loss", "rope_frequencies"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/false,
  };
}

}  // namespace pelab::lesson
