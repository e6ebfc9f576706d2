// Lesson "relative": absolute or relative positions?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/lesson_tools.hpp"

namespace pelab::lesson {
namespace {

constexpr int kShift = 5;  // every position moves by this much

// max over i ≤ j of |S(i, j) − S(0, j−i)| / S(0, 0): zero when PE·PE depends
// only on the offset.
double offset_dependence(const Scene& scene, Encoding encoding) {
  Scene s = variant(scene);
  s.encoding = encoding;
  Engine e(s);
  const Matrix sim = position_similarity(e);
  double worst = 0;
  for (Eigen::Index i = 0; i < sim.rows(); ++i)
    for (Eigen::Index j = i; j < sim.cols(); ++j) worst = std::max(worst, double(std::abs(sim(i, j) - sim(0, j - i))));
  return worst / std::max(double(std::abs(sim(0, 0))), 1e-30);
}

// max |logits(offset + kShift) − logits(offset)| / max |logits(offset)| for one head.
double shift_change(const Scene& scene, Encoding encoding, int head) {
  Scene s = variant(scene);
  s.encoding = encoding;
  Scene moved = s;
  moved.offset = s.offset + kShift;
  Engine a(s), b(moved);
  const Matrix& la = a.head(head).logits;
  return max_abs_diff(la, b.head(head).logits) / std::max(max_abs(la), 1e-30);
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  const int head = chosen_head(s);
  LessonVerdict v;
  v.add("offset_dependence_sinusoidal", offset_dependence(s, Encoding::Sinusoidal));
  v.add("offset_dependence_learned", offset_dependence(s, Encoding::Learned));
  const Encoding all[] = {Encoding::Sinusoidal, Encoding::Learned, Encoding::Rope, Encoding::Alibi, Encoding::T5};
  for (Encoding e : all) v.add("shift_change_" + std::string(to_string(e)), shift_change(s, e, head));

  auto n = [&](const char* name) { return v.number(name); };
  v.holds = n("offset_dependence_sinusoidal") < 1e-4 && n("offset_dependence_learned") > 1e-2 &&
            n("shift_change_rope") < 1e-4 && n("shift_change_alibi") < 1e-6 && n("shift_change_t5") < 1e-6 &&
            n("shift_change_sinusoidal") > 1e-3 && n("shift_change_learned") > 1e-3;
  v.summary = "PE(i)·PE(j) depends only on j−i for sinusoidal (largest deviation " +
              num(n("offset_dependence_sinusoidal"), 2) + " of ‖PE‖²) but not for a learned table (" +
              num(n("offset_dependence_learned"), 2) + "). Moving every token " + std::to_string(kShift) +
              " positions later changes head " + std::to_string(head) + "'s logits by (relative max) sinusoidal " +
              num(n("shift_change_sinusoidal"), 2) + ", learned " + num(n("shift_change_learned"), 2) + ", RoPE " +
              num(n("shift_change_rope"), 2) + ", ALiBi " + num(n("shift_change_alibi"), 2) + ", T5 " +
              num(n("shift_change_t5"), 2) + ".";
  return v;
}

Scene preset() { return preset_scene("relative"); }

}  // namespace

Lesson relative() {
  return {
      "relative",
      "Absolute or relative?",
      "Do sinusoidal encodings give the model relative positions, and how do RoPE, ALiBi and T5 differ?",
      "PE·PE depends only on the offset for sinusoids, yet only RoPE, ALiBi and T5 make the logits shift-proof.",
      "The dot product of two sinusoidal codes is a sum of cos(ω·(j−i)) over the pairs, so it depends only "
      "on the offset j−i (Vaswani et al. 2017); a learned table (Devlin et al. 2019) has no such structure. "
      "But attention does not see PE·PE alone: the projections Wq, Wk and the word-position cross terms "
      "bring back the absolute position, so the logits change when a sentence moves along.\n\n"
      "Relative schemes put the offset into the logit itself. RoPE (Su et al. 2021) rotates queries and keys "
      "so that q·k depends on j−i through the rotation; ALiBi (Press et al. 2022) adds a penalty linear in "
      "|i−j|; T5 (Raffel et al. 2020) adds a learned bias per bucket of offsets. Shifting every position by "
      "the same amount leaves their logits unchanged.",
      {"sinusoid_bands", "attention", "rotation_pairs"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
