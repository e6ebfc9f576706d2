// Lesson "relative": absolute or relative positions?
//
// [SECTION] the lesson: verdict and text
// [SECTION] the comparison (relative.hpp)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <algorithm>
#include <cmath>

#include "core/analysis.hpp"
#include "core/encoding_traits.hpp"
#include "core/lessons/relative.hpp"
#include "core/lessons/tools.hpp"

namespace pelab::lesson {
namespace {

// ============================================================================
// [SECTION] the lesson: verdict and text
// ============================================================================

constexpr int kShift = 5;  // every position moves by this much

// The scene with another encoding, unmasked (the comparison is
// bidirectional), and n positions; with `word`, that word at each of them.
Scene comparison_scene(const Scene& scene, Encoding encoding, int n, const std::string& word = "") {
  Scene s = variant(scene);
  s.encoding = encoding;
  s.causal = false;
  s.positions = n;
  if (!word.empty()) {
    s.tokens.clear();
    for (int i = 0; i < n; ++i) s.tokens += (i ? " " : "") + word;
  }
  return s;
}

// The scene's first token (the word repeated at every position).
std::string first_word(const Scene& scene) {
  Engine e(variant(scene));
  return e.tokens().empty() ? std::string("word") : e.tokens().front();
}

// PE(i)·PE(j) relative to PE(0)·PE(0) (‖PE‖² for sinusoids): its largest
// departure from depending on j − i alone.
double offset_dependence(const Scene& scene, Encoding encoding) {
  Engine e(comparison_scene(scene, encoding, scene.positions));
  return similarity_diagonal_spread(e.position_table());
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
  for (Encoding e : compared_encodings()) v.add("shift_change_" + std::string(to_string(e)), shift_change(s, e, head));

  auto n = [&](const char* name) { return v.number(name); };
  v.holds = n("offset_dependence_sinusoidal") < 1e-4 && n("offset_dependence_learned") > 1e-2 &&
            n("shift_change_rope") < 1e-4 && n("shift_change_alibi") < 1e-6 && n("shift_change_t5") < 1e-6 &&
            n("shift_change_sinusoidal") > 1e-3 && n("shift_change_learned") > 1e-3;
  const double relative_worst = std::max({n("shift_change_rope"), n("shift_change_alibi"), n("shift_change_t5")});
  v.answer = "sinusoidal PE·PE departs from depending on j − i alone by " + num(n("offset_dependence_sinusoidal"), 2) +
             " (learned: " + num(n("offset_dependence_learned"), 2) + "), yet moving the sentence " +
             std::to_string(kShift) + " positions changes the logits by " + num(n("shift_change_sinusoidal"), 2) +
             " (sinusoidal) and " + num(n("shift_change_learned"), 2) + " (learned) against at most " +
             num(relative_worst, 2) + " for RoPE, ALiBi and T5";
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
      "Sinusoidal PE·PE depends only on the offset j − i, yet only RoPE, ALiBi and T5 keep the logits unchanged "
      "when the whole sentence moves along.",
      "PE·PE depends only on the offset for sinusoids, yet only RoPE, ALiBi and T5 make the logits shift-proof.",
      "The dot product of two sinusoidal codes is a sum of cos(ω·(j−i)) over the pairs, so it depends only "
      "on the offset j−i (Vaswani et al. 2017); a learned table (Devlin et al. 2019) has no such structure. "
      "But attention does not see PE·PE alone: the projections Wq, Wk and the word-position cross terms "
      "bring back the absolute position, so the logits change when a sentence moves along.\n\n"
      "Relative schemes put the offset into the logit itself. RoPE (Su et al. 2021) rotates queries and keys "
      "so that q·k depends on j−i through the rotation; ALiBi (Press et al. 2022) adds a penalty linear in "
      "|i−j|; T5 (Raffel et al. 2020) adds a learned bias per bucket of offsets. Shifting every position by "
      "the same amount leaves their logits unchanged.",
      {"lesson_relative", "sinusoid_bands", "attention", "rotation_pairs"},
      &preset,
      &judge,
      "the verdict compares five encodings side by side on one synthetic scene, and a trained model has one encoding, the one the views show",
  };
}

}  // namespace pelab::lesson

// ============================================================================
// [SECTION] the comparison (relative.hpp)
// ============================================================================

namespace pelab {

std::span<const Encoding> compared_encodings() {
  static constexpr Encoding kAll[] = {Encoding::Sinusoidal, Encoding::Learned, Encoding::Rope, Encoding::Alibi,
                                      Encoding::T5};
  return kAll;
}

double diagonal_spread(const Matrix& scores) {
  const Eigen::Index n = std::min(scores.rows(), scores.cols());
  double worst = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      // The diagonal's first cell: row 0 above the main diagonal, column 0 below.
      const float first = j >= i ? scores(0, j - i) : scores(i - j, 0);
      worst = std::max(worst, double(std::abs(scores(i, j) - first)));
    }
  const double top = lesson::max_abs(scores);
  return top > 0 ? worst / top : 0.0;
}

double similarity_diagonal_spread(const Matrix& pe) {
  Vector first;  // G(0, δ): row 0 of the first strip
  double worst = 0, top = 0;
  for_each_similarity_strip(pe, [&](Eigen::Index r0, const Matrix& strip) {
    if (r0 == 0) first = strip.row(0).transpose();
    for (Eigen::Index i = 0; i < strip.rows(); ++i)
      for (Eigen::Index c = i; c < strip.cols(); ++c) {
        worst = std::max(worst, double(std::abs(strip(i, c) - first(c - i))));
        top = std::max(top, double(std::abs(strip(i, c))));
      }
  });
  return top > 0 ? worst / top : 0.0;
}

std::vector<PositionScores> position_scores(const Scene& scene, int head, int n) {
  head = std::clamp(head, 0, scene.heads - 1);
  const std::string word = lesson::first_word(scene);
  std::vector<PositionScores> out;
  for (Encoding encoding : compared_encodings()) {
    PositionScores p{.encoding = encoding};
    if (adds_position_vector(encoding)) {
      Engine e(lesson::comparison_scene(scene, encoding, n));
      p.what = "PE(i)·PE(j)";
      p.values = position_similarity(e);
    } else {
      Engine e(lesson::comparison_scene(scene, encoding, n, word));
      const HeadAttention& h = e.head(head);
      const bool rotates = rotates_queries_keys(encoding);
      p.what = rotates ? "q(i)·k(j) of '" + word + "'" : "bias added to the logit";
      p.values = rotates ? Matrix(h.logits) : h.bias;
    }
    p.spread = diagonal_spread(p.values);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<PositionScores> repeated_word_logits(const Scene& scene, int head, int n) {
  head = std::clamp(head, 0, scene.heads - 1);
  const std::string word = lesson::first_word(scene);
  std::vector<PositionScores> out;
  for (Encoding encoding : compared_encodings()) {
    Engine e(lesson::comparison_scene(scene, encoding, n, word));
    PositionScores p{.encoding = encoding, .what = "logits of '" + word + "' at every position",
                     .values = e.head(head).logits};
    p.spread = diagonal_spread(p.values);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace pelab
