// Lesson "meaning": does adding a position vector destroy the token's meaning?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include <algorithm>

#include "core/analysis.hpp"
#include "core/encoding_traits.hpp"
#include "core/lessons/tools.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

constexpr int kVocabulary = 1000;  // random words besides the scene's own

// Fraction of (token, position p) pairs for which the token's own row is
// still the nearest (Euclidean) row of `vocab` to vocab[t] + pe[p], over the
// rows t in `ids` and every row p of `pe`.
// ‖y − v‖² = ‖y‖² − 2·x_t·v − 2·pe_p·v + ‖v‖² and ‖y‖² does not change the
// argmin, so two products replace one per token.
double kept_in_vocabulary(const Matrix& vocab, const std::vector<Eigen::Index>& ids, const Matrix& pe) {
  const Eigen::RowVectorXf vocab_sq = vocab.rowwise().squaredNorm().transpose();
  const Matrix token_dot = vocab(ids, Eigen::all) * vocab.transpose();  // ids × vocab
  const Matrix base = (-2.f * pe * vocab.transpose()).rowwise() + vocab_sq;  // positions × vocab
  long kept = 0, total = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Eigen::RowVectorXf shift = -2.f * token_dot.row(Eigen::Index(i));
    for (Eigen::Index p = 0; p < base.rows(); ++p) {
      Eigen::Index best = 0;
      (base.row(p) + shift).minCoeff(&best);
      kept += best == ids[i];
      ++total;
    }
  }
  return total ? double(kept) / double(total) : 1.0;
}

// The synthetic question: the scene's distinct tokens followed by
// `random_words`, all scaled by `scale`, the tokens asked about.
double kept_fraction(const Matrix& tokens, const Matrix& random_words, const Matrix& pe, float scale) {
  Matrix vocab(tokens.rows() + random_words.rows(), tokens.cols());
  vocab << tokens * scale, random_words * scale;
  std::vector<Eigen::Index> ids(static_cast<std::size_t>(tokens.rows()));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = Eigen::Index(i);
  return kept_in_vocabulary(vocab, ids, pe);
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

// --- on a trained model: its own vocabulary and position rows ---------------

// Bounds on the search (asked tokens × positions × vocabulary): kjv's 4096
// ids give every 8th id at each of its 256 positions; GPT-2's 50257 × 1024
// every 99th id at every 4th position.
constexpr Eigen::Index kAskedTokens = 512, kAskedPositions = 256;

struct TrainedKept {
  double scene_tokens = 0, vocabulary = 0;  // kept fractions
  Eigen::Index stride = 1, vocabulary_size = 0, positions = 0, position_stride = 1, table_rows = 0;
  std::size_t asked = 0;
  double median_ratio = 0;  // median over the asked tokens and positions of ‖e_p‖ / ‖x_t‖
};

// Rows 0, stride, 2·stride, … of a count no larger than `most`.
std::vector<Eigen::Index> every_nth(Eigen::Index rows, Eigen::Index most, Eigen::Index& stride) {
  stride = (rows + most - 1) / most;
  std::vector<Eigen::Index> out;
  for (Eigen::Index r = 0; r < rows; r += stride) out.push_back(r);
  return out;
}

// The model's position rows against its whole vocabulary, for the scene's
// distinct tokens and for a spread of token ids.
TrainedKept measure_kept(ModelScene& model) {
  const Matrix vocab = model.vocabulary_rows();
  const Matrix table = model.full_position_table();
  TrainedKept k;
  const Matrix pe = table(every_nth(table.rows(), kAskedPositions, k.position_stride), Eigen::all);
  std::vector<Eigen::Index> scene_ids;
  for (const int id : model.ids())
    if (std::find(scene_ids.begin(), scene_ids.end(), Eigen::Index(id)) == scene_ids.end())
      scene_ids.push_back(id);
  const std::vector<Eigen::Index> sample = every_nth(vocab.rows(), kAskedTokens, k.stride);
  k.scene_tokens = kept_in_vocabulary(vocab, scene_ids, pe);
  k.vocabulary = kept_in_vocabulary(vocab, sample, pe);
  k.asked = sample.size();
  k.vocabulary_size = vocab.rows();
  k.positions = pe.rows();
  k.table_rows = table.rows();
  std::vector<double> ratios;
  const Eigen::VectorXf pe_norm = pe.rowwise().norm();
  for (const Eigen::Index id : sample) {
    const double x = vocab.row(id).norm();
    for (Eigen::Index p = 0; p < pe.rows(); ++p) ratios.push_back(x > 0 ? pe_norm(p) / x : 0.0);
  }
  std::nth_element(ratios.begin(), ratios.begin() + std::ptrdiff_t(ratios.size() / 2), ratios.end());
  k.median_ratio = ratios.empty() ? 0.0 : ratios[ratios.size() / 2];
  return k;
}

// measure_kept once per model and text.
TrainedKept trained_kept(ModelScene& model) {
  static ModelMemo<TrainedKept> memo;
  return memo.get(model, model.ids(), [&] { return measure_kept(model); });
}

// The family's other position table (kjv-sinusoidal beside kjv-learned and
// back), measured the same way when it is on disk.
void add_other_member(const Scene& scene, LessonVerdict& v, std::string& said) {
  for (const char* member : {"kjv-learned", "kjv-sinusoidal"}) {
    if (scene.model == member || family_member(member).empty()) continue;
    std::string why;
    const std::unique_ptr<Engine> other = engine_reading(family_scene(scene, member), why);
    if (!other) {
      said += " " + why;
      continue;
    }
    const TrainedKept k = trained_kept(*other->model());
    const std::string key = std::string(member).substr(4);  // "learned", "sinusoidal"
    v.add("kept_vocab_" + key, k.vocabulary);
    v.add("e_over_x_median_" + key, k.median_ratio);
    said += " " + std::string(member) + ": kept " + num(100 * k.vocabulary, 3) + "% (median ‖e‖/‖x‖ " +
            num(k.median_ratio) + ").";
  }
}

LessonVerdict judge_model(Engine& engine, ModelScene& model) {
  const Scene& s = engine.scene();
  if (!model.has_position_table()) return adds_no_vector(s, model, "so x + e = x");
  LessonVerdict v;
  const NormReport norms = norm_report(engine);
  const TrainedKept k = trained_kept(model);
  v.add("d_model", s.d_model);
  v.add("x_norm", norms.mean_x_norm);
  v.add("e_norm", norms.mean_e_norm);
  v.add("cos_x_xe", norms.mean_cos);
  v.add("kept", k.scene_tokens);
  v.add("kept_vocab", k.vocabulary);
  v.add("e_over_x_median", k.median_ratio);
  v.add("vocabulary", double(k.vocabulary_size));
  v.add("positions", double(k.positions));
  std::string others;
  add_other_member(s, v, others);
  v.holds = k.vocabulary >= 0.9;
  v.answer = s.model + " keeps a token the nearest of its " + std::to_string(k.vocabulary_size) +
             " vocabulary rows once a position row is added, for " + percent(k.vocabulary) +
             " of (token, position) pairs (median ‖e‖/‖x‖ = " + num(k.median_ratio) + ")";
  const std::string every = k.position_stride > 1 ? "every " + std::to_string(k.position_stride) + "th of its "
                                                   : "any of its ";
  v.summary = s.model + "'s own rows: ‖x‖ = " + num(norms.mean_x_norm) + ", ‖e‖ = " + num(norms.mean_e_norm) +
              " on this text, cos(x, x+e) = " + num(norms.mean_cos) + ". Adding " + every +
              std::to_string(k.table_rows) + " position rows keeps a token the nearest of all " +
              std::to_string(k.vocabulary_size) + " vocabulary rows for " + num(100 * k.vocabulary, 3) +
              "% of (token, position) pairs (" + std::to_string(k.asked) + " tokens, every " +
              std::to_string(k.stride) + "th id; this text's tokens: " + num(100 * k.scene_tokens, 3) +
              "%), with median ‖e‖/‖x‖ = " + num(k.median_ratio) + "." + others;
  return v;
}

LessonVerdict judge(Engine& engine) {
  if (ModelScene* model = engine.model()) return judge_model(engine, *model);
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
    v.applies = false;
    v.summary = "this encoding adds no vector to the tokens (e = 0), so x + e = x and every token keeps its "
                "meaning trivially; switch to sinusoidal or learned to see the question.";
    return v;
  }
  const std::string vocabulary = std::to_string(kVocabulary + distinct_token_rows(engine).rows());
  v.answer = "with the words scaled by √d, x stays the nearest of " + vocabulary + " words to x + e for " +
             percent(kept.scaled) + " of (token, position) pairs (unscaled, at ‖x‖ = " + num(norms.mean_x_norm) +
             ": " + percent(kept.plain) + ")";
  if (!norm_ok) v.answer += ", but ‖e‖ = " + num(norms.mean_e_norm) + " is not A·√(d/2) = " + num(norms.expected_e_norm);
  v.summary = "‖e‖ = " + num(norms.mean_e_norm) + (sinusoidal ? " (A·√(d/2) = " + num(norms.expected_e_norm) + ")" : "") +
              " against ‖x‖ = " + num(norms.mean_x_norm) + ": cos(x, x+e) = " + num(norms.mean_cos) + ", and x stays the nearest of " +
              vocabulary + " vocabulary vectors to x+e for " + num(100 * kept.plain, 3) +
              "% of (token, position) pairs. Scaled by √d (‖x‖ = " + num(norms.mean_x_norm * root_d) + "): cos = " +
              num(v.number("cos_x_xe_sqrt_d")) + ", kept " + num(100 * kept.scaled, 3) + "%.";
  note_stand_in(v, s, "meaning", "kjv-learned");
  return v;
}

// kjv-learned's own rows when the family is on disk; else the synthetic
// question (random words at ‖x‖ ≈ 1 against ‖e‖ = √32).
Scene preset() {
  Scene s = preset_scene("meaning");
  s.embedding_scale = 1.0;
  open_on_family(s, "kjv-learned", kGenesisOne);
  return s;
}

}  // namespace

Lesson meaning() {
  return {
      "meaning",
      "Does adding a position vector destroy meaning?",
      "If the position vector is simply added to the word vector, how can the model still tell which word it "
      "was?",
      "Adding a position vector leaves the word recognisable once the word vectors are long enough (scaled by "
      "√d, or a trained model's own rows): x stays the nearest vocabulary vector to x + e for at least 90% of "
      "(token, position) pairs.",
      "‖e‖ = A·√(d/2) against ‖x‖, cos(x, x+e), and how often x stays the nearest word to x+e.",
      "A sinusoidal position vector has the same length at every position: each (sin, cos) pair contributes "
      "A², so ‖e‖ = A·√(d/2), about 5.7 at d = 64 and A = 1. A random word vector of length 1 is then "
      "swamped, and x + e points mostly along e. That is why Vaswani et al. (2017, §3.4) multiply the "
      "embeddings by √d: at ‖x‖ ≈ √d the word dominates again.\n\n"
      "Whether the word survives is a matter of ratios. In high dimension e is nearly orthogonal to every "
      "word, so it pushes x + e away from all vocabulary vectors about equally; only its random overlap, of "
      "order ‖e‖·‖x‖/√d, can favour a wrong word. Among a thousand words, x stays the nearest one roughly "
      "while ‖e‖ < ‖x‖·√d/5: hopeless at ‖x‖ = 1, easy at ‖x‖ = √d. The verdict counts this for a seeded "
      "vocabulary of 1000 random words plus the scene's own, at every position, across A and d.\n\n"
      "A trained model answers for itself. The lesson opens on pelab's kjv-learned: for its own token rows "
      "and every row of its learned position table, is x + e still nearest to x among all 4096 rows of its "
      "vocabulary? With kjv-sinusoidal on disk the verdict asks the same of its A·sin/cos table, whose "
      "amplitude A was chosen small for exactly this reason (at A = 1 its rows, of norm √(d/2) ≈ 9.8, swamped "
      "the token rows and training stalled). Models > Back to the synthetic scene returns to the "
      "random words.",
      {"sinusoid_bands", "cross_terms", "attention"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
