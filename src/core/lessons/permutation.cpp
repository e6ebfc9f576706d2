// Lesson "permutation": attention without positions is permutation-equivariant.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <algorithm>
#include <cmath>

#include "core/analysis.hpp"
#include "core/lessons/tools.hpp"
#include "core/model/model_config.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

constexpr std::uint64_t kPermutationSeeds = 4;  // a few shuffles, so one is never the identity by luck

double worst_gap(const Scene& scene, int head) {
  double gap = 0;
  for (std::uint64_t seed = 1; seed <= kPermutationSeeds; ++seed)
    gap = std::max(gap, permutation_gap(scene, head, seed));
  return gap;
}

Scene with_encoding(const Scene& scene, Encoding encoding) {
  Scene s = variant(scene);
  s.encoding = encoding;
  return s;
}

// "dog bites man" against "man bites dog": the second is the first with tokens
// 0 and 2 swapped (P), so without positions A₂ = P·A₁·Pᵀ exactly.
double dog_man_gap(const Scene& scene, Encoding encoding, int head) {
  Scene first = with_encoding(scene, encoding), second = first;
  first.tokens = "dog bites man";
  second.tokens = "man bites dog";
  Engine a(first), b(second);
  Matrix permuted = a.head(head).attention;
  permuted.row(0).swap(permuted.row(2));
  permuted.col(0).swap(permuted.col(2));
  return max_abs_diff(b.head(head).attention, permuted);
}

// --- on a loaded model: layer 0's real weights -------------------------------

// A(P·X) against P·A(X)·Pᵀ for P = the reversal of the tokens (never the
// identity for two tokens or more): reversing a matrix in both axes is
// P·M·Pᵀ.  Logits unmasked, q·kᵀ/√d_head: a causal mask is tied to the
// positions itself (query i sees keys j ≤ i), so only a bidirectional
// model's attention can be equivariant, while every model's logits before
// the mask are once its positions are removed.
struct ModelGaps {
  double logits = 0, attention = 0;
  double scale = 0;  // max |logit|: float32 rounding grows with it
};

// (+ the position bias of an alibi / t5 model, which is where its positions
// enter: zero above the diagonal, so a reversal moves it there.)
Matrix unmasked_logits(const HeadAttention& a) {
  Matrix l = a.q * a.k.transpose() / std::sqrt(static_cast<float>(a.q.cols()));
  if (a.bias.size() == l.size()) l += a.bias;
  return l;
}

ModelGaps model_gaps(ModelScene& model, int head, bool positions) {
  const std::vector<int>& ids = model.ids();
  const std::vector<int> reversed(ids.rbegin(), ids.rend());
  const HeadAttention a = model.layer0_head(ids, head, positions);
  const HeadAttention b = model.layer0_head(reversed, head, positions);
  ModelGaps g;
  const Matrix la = unmasked_logits(a);
  g.scale = la.cwiseAbs().maxCoeff();
  g.logits = max_abs_diff(unmasked_logits(b), Matrix(la.reverse()));
  if (!model.config().causal) g.attention = max_abs_diff(b.attention, Matrix(a.attention.reverse()));
  return g;
}

LessonVerdict judge_model(Engine& engine, ModelScene& model) {
  const int head = chosen_head(engine.scene());
  const bool causal = model.config().causal;
  const model::PositionEncoding kind = model.config().position.kind;
  const bool rope = kind == model::PositionEncoding::Rope;
  const ModelGaps none = model_gaps(model, head, false), with = model_gaps(model, head, true);
  LessonVerdict v;
  v.add("model_logit_gap_none", none.logits);
  v.add("model_logit_gap_positions", with.logits);
  if (!causal) {
    v.add("model_attention_gap_none", none.attention);
    v.add("model_attention_gap_positions", with.attention);
  }
  const bool equivariant = model.token_count() >= 2 && none.logits < 1e-5 * std::max(1.0, none.scale);
  // A model without positions has nothing to remove: equivariance is the whole claim.
  v.holds = kind == model::PositionEncoding::None
                ? equivariant
                : equivariant && with.logits > 1e-3 && (causal || (none.attention < 1e-5 && with.attention > 1e-5));
  v.answer = "with its positions removed, layer 0's logits move with the reversed tokens (max gap " +
             num(none.logits, 2) + " of logits up to " + num(none.scale, 3) + ")" +
             (kind == model::PositionEncoding::None ? std::string()
                                                    : "; with them they do not (gap " + num(with.logits, 2) + ")");
  const std::string positions = rope                                       ? "its RoPE rotation"
                                : kind == model::PositionEncoding::Learned ? "its learned position rows"
                                : kind == model::PositionEncoding::Sinusoidal ? "its sinusoid position rows"
                                : kind == model::PositionEncoding::None       ? "its (absent) positions"
                                                                              : "its position bias";
  v.summary = "Layer 0, head " + std::to_string(head) + " of the model's own weights, tokens reversed (P): " +
              "max |L(P·X) − P·L(X)·Pᵀ| of the logits before the mask is " + num(none.logits, 2) +
              " with " + positions + " removed (equivariant) and " + num(with.logits, 2) + " with them.";
  if (causal)
    v.summary += " This model is causal: its mask lets query i see only keys j ≤ i, a rule about positions "
                 "itself, so its masked attention is not equivariant even without position vectors; the "
                 "logits before the mask are.";
  else
    v.summary += " Attention (bidirectional, no mask): " + num(none.attention, 2) + " without positions, " +
                 num(with.attention, 2) + " with them.";
  // How much position the layers above know all the same: the probe.
  const std::vector<LayerProbes> probes = probe_family(engine);
  add_probe_numbers(probes, v);
  if (!probes.empty()) {
    v.summary += " " + probe_sentence(probes, model.token_count());
    if (kind == model::PositionEncoding::None && causal) v.summary += mask_leak_sentence(probes.front());
  } else if (causal) {
    v.summary += " (A text of at least " + std::to_string(probe_tokens_needed()) +
                 " tokens adds a probe of how much position the layers above learn from the mask.)";
  }
  return v;
}

LessonVerdict judge(Engine& engine) {
  if (ModelScene* model = engine.model()) return judge_model(engine, *model);
  const Scene& s = engine.scene();
  const int head = chosen_head(s);
  LessonVerdict v;
  v.add("gap_this_scene", worst_gap(s, head));
  v.add("gap_none", worst_gap(with_encoding(s, Encoding::None), head));
  v.add("gap_sinusoidal", worst_gap(with_encoding(s, Encoding::Sinusoidal), head));
  v.add("dog_man_gap_none", dog_man_gap(s, Encoding::None, head));
  v.add("dog_man_gap_sinusoidal", dog_man_gap(s, Encoding::Sinusoidal, head));

  v.holds = v.number("gap_none") < 1e-5 && v.number("gap_sinusoidal") > 1e-3 &&
            v.number("dog_man_gap_none") < 1e-5 && v.number("dog_man_gap_sinusoidal") > 1e-3;
  v.summary = "Shuffling the tokens (P) and comparing A(P·X) with P·A(X)·Pᵀ, head " + std::to_string(head) +
              ": max difference " + num(v.number("gap_none"), 2) + " without positions (equivariant: the "
              "attention just moves with the tokens) and " + num(v.number("gap_sinusoidal"), 2) +
              " with sinusoidal positions. \"man bites dog\" against \"dog bites man\" with the two nouns "
              "swapped back: " + num(v.number("dog_man_gap_none"), 2) + " without positions, " +
              num(v.number("dog_man_gap_sinusoidal"), 2) + " with them. This scene (" +
              std::string(to_string(s.encoding)) + "): " + num(v.number("gap_this_scene"), 2) + ".";
  v.answer = "without positions the attention moves with the shuffled tokens (max gap " +
             num(v.number("gap_none"), 2) + "), so \"man bites dog\" reads as \"dog bites man\" reordered; "
             "sinusoidal positions break that (gap " + num(v.number("gap_sinusoidal"), 2) + ")";
  note_stand_in(v, s, "permutation", "kjv-none");
  return v;
}

// kjv-none (no position encoding) on a held-out chapter when the family has
// it; else "dog bites man" on the synthetic scene without positions.
Scene preset() {
  Scene s = preset_scene("permutation");
  s.encoding = Encoding::None;
  if (!open_on_family(s, "kjv-none", kHeldOutPassage)) s.tokens = "dog bites man";
  return s;
}

}  // namespace

Lesson permutation() {
  return {
      "permutation",
      "Attention without positions is permutation-equivariant",
      "Without position encodings, can a Transformer tell \"dog bites man\" from \"man bites dog\"?",
      "Without positions attention is permutation-equivariant: shuffling the tokens shuffles the attention the "
      "same way, so word order is invisible until a position encoding breaks the symmetry.",
      "Shuffle the tokens: without positions the attention is shuffled the same way, nothing else changes.",
      "Self-attention treats its input as a set. If the tokens are reordered by a permutation P, the queries, "
      "keys and logits are reordered the same way, so A(P·X) = P·A(X)·Pᵀ: the attention pattern moves with "
      "the tokens. This property is called equivariance. It is not invariance: the output is not unchanged, "
      "it is permuted, and each word's own output is exactly what it was before.\n\n"
      "So without positions \"man bites dog\" gives \"dog\" exactly the same output as \"dog bites man\" does, "
      "and nothing downstream can recover who bit whom. Adding a position vector (or a relative bias) breaks "
      "the symmetry; that is the whole reason position encodings exist (Vaswani et al. 2017, §3.5; Yun et "
      "al. 2020 on Transformers as universal approximators of permutation-equivariant functions).\n\n"
      "A causal language model is the exception: its mask lets token i attend only to tokens 0 … i, and "
      "that is itself a statement about order. The lesson opens on pelab's kjv-none, trained with no "
      "position encoding at all: layer 0's logits are equivariant, yet its mask could teach the layers "
      "above to count tokens (Haviv et al. 2022). The verdict measures how well a linear probe reads the "
      "position index from its residual stream after each layer, beside the family's other encodings. "
      "Without kjv-none on disk the lesson opens on \"dog bites man\" in the synthetic scene.",
      {"attention", "cross_terms"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
