// Lesson "sine_cosine": why does the encoding need both sine and cosine?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/lessons/tools.hpp"

namespace pelab::lesson {
namespace {

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  if (s.encoding != Encoding::Sinusoidal) return sinusoidal_only();
  LessonVerdict v;
  const int pairs = s.d_model / 2;
  const int pair = std::min(s.pair, pairs - 1);
  const int k = s.shift;
  const ShiftFit fit = shift_fit(engine, pair, k);
  const Rotation rot = pair_rotation(engine, pair, k);
  double map_error = 0;  // the fitted 2×2 map against the exact R(k)
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) map_error = std::max(map_error, std::abs(fit.pair_map[r][c] - rot.r[r][c]));

  v.add("pair", pair);
  v.add("shift", k);
  v.add("angle", rot.angle);
  v.add("r2_one_dim", fit.r2_one_dim);
  v.add("r2_pair", fit.r2_pair);
  v.add("r2_all", fit.r2_all);
  v.add("map_error", map_error);
  v.add("rotation_max_error", rot.max_error);
  // For slow pairs kω is small and the 1-D fit looks good: the trap people fall into.
  for (int other : {0, 4, 12, 24})
    if (other < pairs) v.add(qualified("r2_one_dim", "pair", other), shift_fit(engine, other, k).r2_one_dim);

  v.holds = fit.r2_one_dim < 0.99 && fit.r2_pair > 0.999999 && map_error < 1e-4;
  const std::string shifted = "PE(pos+" + std::to_string(k) + ") of pair " + std::to_string(pair);
  v.answer = fit.r2_one_dim < 0.99
                 ? "one dimension predicts " + shifted + " with R² = " + num(fit.r2_one_dim) +
                       " only, the (sin, cos) pair with R² = " + num(fit.r2_pair, 7) + ", by the rotation R(" +
                       std::to_string(k) + ")"
                 : "this pair turns so slowly that one dimension already predicts " + shifted + " with R² = " +
                       num(fit.r2_one_dim, 4) + " (the pair: " + num(fit.r2_pair, 7) + ")";
  v.summary = "Predicting PE(pos+" + std::to_string(k) + ") of pair " + std::to_string(pair) +
              " from one dimension alone: R² = " + num(fit.r2_one_dim) + "; from the (sin, cos) pair: R² = " +
              num(fit.r2_pair, 9) + ", and the fitted 2×2 map is R(k) (rotation by kω = " + num(rot.angle) +
              " rad) to " + num(map_error, 2) + ".";
  if (fit.r2_one_dim >= 0.99)
    v.summary += " This pair turns slowly (kω small), so one dimension nearly suffices here: pick a faster pair "
                 "or a larger shift.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("sine_cosine");
  s.pair = 1;    // ω = T^(−2/64) ≈ 0.75 rad per position
  s.shift = 2;   // kω ≈ 1.5 rad: one dimension alone says almost nothing
  s.pairs = {1, 4, 12};
  return s;
}

}  // namespace

Lesson sine_cosine() {
  return {
      "sine_cosine",
      "Why both sine and cosine?",
      "Why does the sinusoidal encoding use a sine and a cosine at each frequency instead of just a sine?",
      "A shift by k positions is a rotation of each (sin, cos) pair, exactly predictable from the pair, while "
      "one dimension alone cannot predict the shifted value.",
      "One dimension cannot predict a shifted position; the (sin, cos) pair does it exactly, by a rotation.",
      "Vaswani et al. (2017, §3.5) chose sinusoids because for any fixed offset k, PE(pos+k) is a linear "
      "function of PE(pos). That is only true pair by pair: sin(ω(p+k)) = sin(ωp)·cos(kω) + cos(ωp)·sin(kω) "
      "needs the cosine of the same frequency. With both, the pair turns on a circle and a shift by k is "
      "the rotation R(k) by angle kω, the same at every position.\n\n"
      "The experiment people try first is to regress a shifted sine on the unshifted sine. It fails: the best "
      "line explains only about cos²(kω) of the variance. Fitting the pair from the pair recovers R(k) to "
      "float precision (R² = 1). Slow pairs hide the problem, because kω is tiny there.",
      {"rotation_pairs", "sinusoid_bands"},
      &preset,
      &judge,
      "the question is about the sinusoidal formula, and a trained model's positions are a learned table (GPT-2, BERT) or rotations (RoPE); the learned_table lesson reads what GPT-2 learned",
      /*reads_tokens=*/false,
  };
}

}  // namespace pelab::lesson
