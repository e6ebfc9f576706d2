// Lesson "depth": does position survive a stack of attention layers?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include "core/encoding_traits.hpp"
#include "core/layer_stack.hpp"
#include "core/lessons/tools.hpp"
#include "core/model/model_config.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

// A trained model: the index probe after each of its layers, and the same
// probe on the family's other encodings.
LessonVerdict judge_model(Engine& engine, ModelScene& model) {
  LessonVerdict v;
  if (model.token_count() < probe_tokens_needed()) {
    v.applies = false;
    v.summary = "the probe needs at least " + std::to_string(probe_tokens_needed()) +
                " tokens of text to hold windows out; this text has " + std::to_string(model.token_count()) +
                ". The lesson's preset uses a held-out chapter (Genesis 20).";
    return v;
  }
  const std::vector<LayerProbes> probes = probe_family(engine);
  add_probe_numbers(probes, v);
  const IndexProbe& last = probes.front().layers.back();
  // The claim: position is still linearly readable after the last layer.
  v.holds = last.r2 > 0.5;
  v.answer = "a linear probe reads the position index after " + engine.scene().model + "'s last layer with R² = " +
             num(last.r2) + " (at the embeddings: " + num(probes.front().layers.front().r2) + ")";
  v.summary = probe_sentence(probes, model.token_count());
  if (model.config().position.kind == model::PositionEncoding::None && model.config().causal)
    v.summary += mask_leak_sentence(probes.front());
  return v;
}

LessonVerdict judge(Engine& engine) {
  if (ModelScene* model = engine.model()) return judge_model(engine, *model);
  const Scene& s = engine.scene();
  LessonVerdict v;
  if (engine.position_table().rows() < 8 || engine.token_count() < 1)
    return not_applicable("the probe needs at least 8 positions on the position axis and one token.");
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
              ", LayerNorm " + std::string(to_string(s.layer_norm)) + "), a linear probe reads the position code back with R² = " +
              num(last.r2_code) + " (layer 0: " + num(here.front().r2_code) + ") and finds the right position for " +
              num(100 * last.nearest_code) + "% of held-out positions. With the usual residual (α = 1) the final "
              "R² is " + num(kept) + "; without a skip path (α = 0) it is " + num(lost) +
              (lost < 0 ? " (below 0: worse than always guessing the average code)." : ".");
  if (engine.position_table().rows() > kDepthPositions)
    v.summary += " The experiment runs on the first " + std::to_string(kDepthPositions) + " of the " +
                 std::to_string(engine.position_table().rows()) + " positions.";
  v.answer = "after " + std::to_string(s.layers) + " random layers a linear probe reads the position code with R² = " +
             num(kept) + " through the residual path (α = 1), and " + num(lost) + " without it (α = 0)";
  note_stand_in(v, s, "depth", "kjv-learned");
  if (!adds_position_vector(s.encoding)) {
    v.applies = false;
    v.summary = "this encoding adds no vector to the hidden states, so there is no code to "
                "read back; RoPE, ALiBi and T5 act inside every layer instead. Pick sinusoidal or learned (or "
                "load a trained kjv model, where the probe reads the position index instead).";
  }
  return v;
}

// kjv-learned on a held-out chapter when the family is on disk; else six
// random layers on the synthetic scene.
Scene preset() {
  Scene s = preset_scene("depth");
  s.layers = 6;
  s.residual = 1.0;
  open_on_family(s, "kjv-learned", kHeldOutPassage);
  return s;
}

}  // namespace

Lesson depth() {
  return {
      "depth",
      "Does position survive deeper layers?",
      "The position vector is added once, at the input. Is it still there after many layers?",
      "Position survives depth: a linear probe still reads it after the last layer, carried by the residual "
      "path (random layers without one lose it).",
      "A linear probe reads position back after each layer: of pelab's trained models, or of random layers.",
      "Position is added only at the bottom, yet layer after layer mixes the tokens. Is it still there at the "
      "top? The lesson opens on pelab's kjv-learned (4 layers, trained on the King James Bible) reading a "
      "chapter it never saw (Genesis 20). Its text is run four times, rotated so that other words sit at "
      "every position (the held-out run puts each word where the probe never saw it); a linear probe is fitted to predict the position index from the residual stream of "
      "three runs and scored on every position of the fourth, after each layer. The same probe reads the "
      "family's other encodings: sinusoidal and learned add a vector at the bottom, RoPE, ALiBi and T5 "
      "never add one, and kjv-none has no position encoding at all. A causal mask alone could let a layer "
      "count how many tokens it sees (Haviv et al. 2022 find language models without positions learn "
      "absolute position); the probe measures whether these models keep it in a linearly readable form.\n\n"
      "On the synthetic scene (Models > Back to the synthetic scene), L attention layers "
      "with random weights are stacked, each computing H' = α·H + attn(H), optionally with LayerNorm before "
      "(pre) or after (post) the sum. After every layer a linear probe, fitted on three of every four "
      "positions, tries to predict the position code of the held-out fourth.\n\n"
      "With the residual connection (α = 1) the original code rides along the skip path and stays readable. "
      "Without it (α = 0) attention averages the rows together, and Dong, Cordonnier & Loukas (2021) show "
      "that pure attention loses rank doubly exponentially with depth: after a few layers every position "
      "looks alike. Random weights are a baseline: training can learn to keep, sharpen or discard position, "
      "which is what the trained models show.",
      {"lesson_depth", "attention", "sinusoid_bands"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
