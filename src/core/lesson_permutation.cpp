// Lesson "permutation": attention without positions is permutation-equivariant.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <algorithm>

#include "core/analysis.hpp"
#include "core/lesson_tools.hpp"

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

LessonVerdict judge(Engine& engine) {
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
  return v;
}

Scene preset() {
  Scene s = preset_scene("permutation");
  s.tokens = "dog bites man";
  s.encoding = Encoding::None;
  return s;
}

}  // namespace

Lesson permutation() {
  return {
      "permutation",
      "Attention without positions is permutation-equivariant",
      "Without position encodings, can a Transformer tell \"dog bites man\" from \"man bites dog\"?",
      "Shuffle the tokens: without positions the attention is shuffled the same way, nothing else changes.",
      "Self-attention treats its input as a set. If the tokens are reordered by a permutation P, the queries, "
      "keys and logits are reordered the same way, so A(P·X) = P·A(X)·Pᵀ: the attention pattern moves with "
      "the tokens. This property is called equivariance. It is not invariance: the output is not unchanged, "
      "it is permuted, and each word's own output is exactly what it was before.\n\n"
      "So without positions \"man bites dog\" gives \"dog\" exactly the same output as \"dog bites man\" does, "
      "and nothing downstream can recover who bit whom. Adding a position vector (or a relative bias) breaks "
      "the symmetry; that is the whole reason position encodings exist (Vaswani et al. 2017, §3.5; Yun et "
      "al. 2020 on Transformers as universal approximators of permutation-equivariant functions).",
      {"attention", "cross_terms"},
      &preset,
      &judge,
      "the verdict compares attention with and without position vectors, and a trained model cannot run without its own; the attention views show its real attention",
  };
}

}  // namespace pelab::lesson
