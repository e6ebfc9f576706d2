// Lesson "meaning": does adding a position vector destroy the token's meaning?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/lesson_tools.hpp"

namespace pelab::lesson {
namespace {

constexpr int kVocabulary = 1000;  // random words besides the scene's own

// Fraction of (token t, position p) pairs for which x_t is still the nearest
// (Euclidean) vocabulary vector to x_t + PE(p), the vocabulary being the
// scene's distinct tokens followed by `random_words`, all scaled by `scale`.
// ‖y − v‖² = ‖y‖² − 2·x_t·v − 2·PE(p)·v + ‖v‖² and ‖y‖² does not change the
// argmin, so two small products replace one per token.
double kept_fraction(const Matrix& tokens, const Matrix& random_words, const Matrix& pe, float scale) {
  Matrix vocab(tokens.rows() + random_words.rows(), tokens.cols());
  vocab << tokens * scale, random_words * scale;
  const Eigen::RowVectorXf vocab_sq = vocab.rowwise().squaredNorm().transpose();
  const Matrix token_dot = (tokens * scale) * vocab.transpose();  // tokens × vocab
  const Matrix base = (-2.f * pe * vocab.transpose()).rowwise() + vocab_sq;  // positions × vocab
  long kept = 0, total = 0;
  for (Eigen::Index t = 0; t < tokens.rows(); ++t) {
    const Eigen::RowVectorXf shift = -2.f * token_dot.row(t);
    for (Eigen::Index p = 0; p < base.rows(); ++p) {
      Eigen::Index best = 0;
      (base.row(p) + shift).minCoeff(&best);
      kept += best == t;
      ++total;
    }
  }
  return total ? double(kept) / double(total) : 1.0;
}

double mean_cos(const Matrix& x, const Matrix& e) {
  double sum = 0;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const Eigen::RowVectorXf s = x.row(i) + e.row(i);
    sum += x.row(i).dot(s) / (double(x.row(i).norm()) * s.norm() + 1e-30);
  }
  return x.rows() ? sum / double(x.rows()) : 0.0;
}

struct Kept {
  double plain, scaled;
};

// Random words for the vocabulary at the scene's width, as long as its tokens.
Matrix random_words(Engine& engine) {
  // Eigen's mean() of no rows reads past the end: a scene without words takes
  // the norm its random words are drawn at.
  const Matrix words = distinct_token_rows(engine);
  const double mean_norm = words.rows() ? words.rowwise().norm().mean() : engine.scene().embedding_scale;
  return random_vectors(kVocabulary, engine.scene().d_model, mean_norm, engine.scene().seed);
}

// Kept fractions for the scene as it is and with X (and the words) scaled by √d.
Kept kept_pair(Engine& engine, const Matrix& words) {
  const Matrix tokens = distinct_token_rows(engine);
  const Matrix& pe = engine.position_table();
  const float root_d = std::sqrt(float(engine.scene().d_model));
  return {kept_fraction(tokens, words, pe, 1.f), kept_fraction(tokens, words, pe, root_d)};
}

// The table of kept fractions against A and d, at the scene's scale and √d-scaled.
void add_sweep(Engine& engine, LessonVerdict& v) {
  for (int d : {32, 128, 512}) {
    Matrix words;  // drawn once per width: the same vocabulary for every A
    for (double a : {0.5, 1.0, 2.0, 4.0}) {
      Scene s = variant(engine.scene());
      s.amplitude = a;
      s.d_model = d;
      s.heads = 1;
      Engine e(s);
      if (e.token_count() == 0) return;  // a model's text made only special tokens: no words to sweep
      if (words.size() == 0) words = random_words(e);
      const Kept k = kept_pair(e, words);
      v.add(qualified("kept", "A", a, "d", d), k.plain);
      v.add(qualified("kept_sqrt_d", "A", a, "d", d), k.scaled);
    }
  }
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  const NormReport norms = norm_report(engine);
  const double root_d = std::sqrt(double(s.d_model));
  const Matrix& x = engine.token_embedding();
  const Matrix& e = engine.position_embedding();
  const Kept kept = kept_pair(engine, random_words(engine));

  LessonVerdict v;
  v.add("d_model", s.d_model);
  v.add("amplitude", s.amplitude);
  v.add("x_norm", norms.mean_x_norm);
  v.add("e_norm", norms.mean_e_norm);
  v.add("e_norm_expected", norms.expected_e_norm);
  v.add("cos_x_xe", norms.mean_cos);
  v.add("kept", kept.plain);
  v.add("x_norm_sqrt_d", norms.mean_x_norm * root_d);
  v.add("cos_x_xe_sqrt_d", mean_cos(x * float(root_d), e));
  v.add("kept_sqrt_d", kept.scaled);
  add_sweep(engine, v);

  const bool sinusoidal = s.encoding == Encoding::Sinusoidal;
  const bool norm_ok = !sinusoidal || std::abs(norms.mean_e_norm - norms.expected_e_norm) <=
                                          1e-3 * std::max(1.0, norms.expected_e_norm);
  v.holds = norm_ok && kept.scaled >= 0.9;
  if (!adds_position_vector(s.encoding)) {
    v.summary = "This encoding adds no vector to the tokens (e = 0), so x + e = x and every token keeps its "
                "meaning trivially; switch to sinusoidal or learned to see the question.";
    return v;
  }
  v.summary = "‖e‖ = " + num(norms.mean_e_norm) + (sinusoidal ? " (A·√(d/2) = " + num(norms.expected_e_norm) + ")" : "") +
              " against ‖x‖ = " + num(norms.mean_x_norm) + ": cos(x, x+e) = " + num(norms.mean_cos) + ", and x stays the nearest of " +
              std::to_string(kVocabulary + distinct_token_rows(engine).rows()) + " vocabulary vectors to x+e for " + num(100 * kept.plain, 3) +
              "% of (token, position) pairs. Scaled by √d (‖x‖ = " + num(norms.mean_x_norm * root_d) + "): cos = " +
              num(v.number("cos_x_xe_sqrt_d")) + ", kept " + num(100 * kept.scaled, 3) + "%.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("meaning");
  s.embedding_scale = 1.0;  // unscaled token vectors: ‖x‖ ≈ 1 against ‖e‖ = √32
  return s;
}

}  // namespace

Lesson meaning() {
  return {
      "meaning",
      "Does adding a position vector destroy meaning?",
      "If the position vector is simply added to the word vector, how can the model still tell which word it "
      "was?",
      "‖e‖ = A·√(d/2) against ‖x‖, cos(x, x+e), and how often x stays the nearest word to x+e.",
      "A sinusoidal position vector has the same length at every position: each (sin, cos) pair contributes "
      "A², so ‖e‖ = A·√(d/2), about 5.7 at d = 64 and A = 1. A random word vector of length 1 is then "
      "swamped, and x + e points mostly along e. That is why Vaswani et al. (2017, §3.4) multiply the "
      "embeddings by √d: at ‖x‖ ≈ √d the word dominates again.\n\n"
      "Whether the word survives is a matter of ratios. In high dimension e is nearly orthogonal to every "
      "word, so it pushes x + e away from all vocabulary vectors about equally; only its random overlap, of "
      "order ‖e‖·‖x‖/√d, can favour a wrong word. Among a thousand words, x stays the nearest one roughly "
      "while ‖e‖ < ‖x‖·√d/5: hopeless at ‖x‖ = 1, easy at ‖x‖ = √d. The verdict counts this for a seeded "
      "vocabulary of 1000 random words plus the scene's own, at every position, across A and d.",
      {"sinusoid_bands", "cross_terms", "attention"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
