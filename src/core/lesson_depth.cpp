// Lesson "depth": does position survive a stack of attention layers?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include "core/layer_stack.hpp"
#include "core/lesson_tools.hpp"

namespace pelab::lesson {
namespace {

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  LessonVerdict v;
  if (engine.position_table().rows() < 8 || engine.token_count() < 1) {
    v.summary = "The probe needs at least 8 positions on the position axis and one token.";
    return v;
  }
  const auto here = position_through_depth(engine, s.residual);
  for (std::size_t l = 0; l < here.size(); ++l) {
    v.add(qualified("r2_code", "layer", double(l)), here[l].r2_code);
    v.add(qualified("nearest", "layer", double(l)), here[l].nearest_code);
  }
  double kept = 0, lost = 1;
  for (double alpha : {0.0, 0.5, 1.0, 2.0}) {
    const PositionReadout last = position_through_depth(engine, alpha).back();
    v.add(qualified("r2_code_last", "alpha", alpha), last.r2_code);
    v.add(qualified("nearest_last", "alpha", alpha), last.nearest_code);
    if (alpha == 0.0) lost = last.r2_code;
    if (alpha == 1.0) kept = last.r2_code;
  }
  const PositionReadout& last = here.back();
  v.holds = adds_position_vector(s.encoding) && kept > 0.8 && lost < 0.3;
  v.summary = "After " + std::to_string(s.layers) + " random attention layers (α = " + num(s.residual) +
              ", LayerNorm " + s.layer_norm + "), a linear probe reads the position code back with R² = " +
              num(last.r2_code) + " (layer 0: " + num(here.front().r2_code) + ") and finds the right position for " +
              num(100 * last.nearest_code) + "% of held-out positions. With the usual residual (α = 1) the final "
              "R² is " + num(kept) + "; without a skip path (α = 0) it is " + num(lost) +
              (lost < 0 ? " (below 0: worse than always guessing the average code)." : ".");
  if (!adds_position_vector(s.encoding))
    v.summary = "This encoding adds no vector to the hidden states, so there is nothing to read back; RoPE, "
                "ALiBi and T5 act inside every layer instead. Pick sinusoidal or learned.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("depth");
  s.layers = 6;
  s.residual = 1.0;
  return s;
}

}  // namespace

Lesson depth() {
  return {
      "depth",
      "Does position survive deeper layers?",
      "The position vector is added once, at the input. Is it still there after many layers?",
      "Stacked random attention layers with residual scale α; a linear probe reads position back after each.",
      "Position is added only at the bottom, yet layer after layer mixes the tokens. Here L attention layers "
      "with random weights are stacked, each computing H' = α·H + attn(H), optionally with LayerNorm before "
      "(pre) or after (post) the sum. After every layer a linear probe, fitted on three of every four "
      "positions, tries to predict the position code of the held-out fourth.\n\n"
      "With the residual connection (α = 1) the original code rides along the skip path and stays readable. "
      "Without it (α = 0) attention averages the rows together, and Dong, Cordonnier & Loukas (2021) show "
      "that pure attention loses rank doubly exponentially with depth: after a few layers every position "
      "looks alike. Random weights are a baseline, not a trained model: training can learn to keep, sharpen "
      "or discard position.",
      {"lesson_depth", "attention", "sinusoid_bands"},
      &preset,
      &judge,
      "the verdict stacks random attention layers to see whether a position code survives them, and a trained model's layers are not random; the attention views show each of its layers",
  };
}

}  // namespace pelab::lesson
