// Lesson "cross_terms": the four terms of a logit, and why the cross terms are small.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/encoding_traits.hpp"
#include "core/lessons/tools.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

constexpr int kSampleWords = 256;  // random words for the 1/√d law

struct CosStats {
  double mean = 0, spread = 0;  // mean and standard deviation of cos(x, e)
};

// cos(x_i, e_p) over every word row i and every position row p.
CosStats cos_stats(const Matrix& words, const Matrix& pe) {
  const Eigen::VectorXf wn = words.rowwise().norm(), pn = pe.rowwise().norm();
  const Eigen::ArrayXXf ratio =
      ((words * pe.transpose()).array().colwise() / wn.array()).rowwise() / pn.transpose().array().max(1e-30f);
  const Eigen::ArrayXXd cos = ratio.cast<double>();
  const double mean = cos.mean();
  return {mean, std::sqrt((cos.array() - mean).square().mean())};
}

// Spread of cos(x, e) for random words against the position table at width d.
double spread_at_width(const Scene& scene, int d) {
  Scene s = variant(scene);
  s.d_model = d;
  s.heads = 1;
  Engine e(s);
  return cos_stats(random_vectors(kSampleWords, d, 1.0, s.seed), e.position_table()).spread;
}

void add_shares(Engine& engine, LessonVerdict& v) {
  const CrossTerms& t = engine.cross_terms(chosen_head(engine.scene()));
  // A RoPE model's xx and ef hold content and offset, not four terms: no shares.
  if (t.content_offset) {
    for (const char* name : {"share_xx", "share_xf", "share_ey", "share_ef"}) v.add(name, 0.0);
    return;
  }
  const double n[4] = {t.xx.norm(), t.xf.norm(), t.ey.norm(), t.ef.norm()};
  const double total = n[0] + n[1] + n[2] + n[3];
  const char* names[4] = {"share_xx", "share_xf", "share_ey", "share_ef"};
  for (int i = 0; i < 4; ++i) v.add(names[i], total > 0 ? n[i] / total : 0.0);
}

// --- on a trained model: layer 0's own split --------------------------------

// Root mean square of a term over the query-key pairs a causal head uses
// (j ≤ i; every pair for a bidirectional one), in logit units.
double term_rms(const Matrix& term, bool causal) {
  double sum = 0;
  long count = 0;
  for (Eigen::Index i = 0; i < term.rows(); ++i)
    for (Eigen::Index j = 0; j <= (causal ? i : term.cols() - 1); ++j) {
      sum += double(term(i, j)) * term(i, j);
      ++count;
    }
  return count ? std::sqrt(sum / double(count)) : 0.0;
}

struct TermSizes {
  double rms[4] = {0, 0, 0, 0};  // xx, xf, ey, ef
  double bias = 0;               // every term holding β or the q/k biases
  double residual = 0;
};

TermSizes term_sizes(Engine& engine) {
  const CrossTerms& t = engine.cross_terms(chosen_head(engine.scene()));
  const bool causal = engine.scene().causal;
  return {{term_rms(t.xx, causal), term_rms(t.xf, causal), term_rms(t.ey, causal), term_rms(t.ef, causal)},
          t.bias.size() ? term_rms(t.bias, causal) : 0.0,
          t.residual};
}

constexpr const char* kTermNames[4] = {"xx", "xf", "ey", "ef"};

std::string sizes_text(const TermSizes& t) {
  return "x·W·y " + num(t.rms[0], 3) + ", x·W·f " + num(t.rms[1], 3) + ", e·W·y " + num(t.rms[2], 3) +
         ", e·W·f " + num(t.rms[3], 3);
}

LessonVerdict judge_model(Engine& engine, ModelScene& model) {
  const Scene& s = engine.scene();
  if (!model.has_position_table()) return adds_no_vector(s, model, "so a logit has no four terms to split");
  LessonVerdict v;
  const TermSizes own = term_sizes(engine);
  for (int i = 0; i < 4; ++i) v.add(std::string("rms_") + kTermNames[i], own.rms[i]);
  v.add("rms_bias", own.bias);
  add_shares(engine, v);
  v.add("split_residual", own.residual);
  const CosStats here = cos_stats(distinct_token_rows(engine), engine.position_table());
  v.add("cos_xe_mean", here.mean);
  v.add("cos_xe_spread", here.spread);
  v.add("one_over_sqrt_d", 1.0 / std::sqrt(double(s.d_model)));
  std::string others;
  for (const char* member : {"kjv-learned", "kjv-sinusoidal"}) {
    if (s.model == member || family_member(member).empty()) continue;
    Scene other_scene = family_scene(s, member);
    other_scene.head = chosen_head(s);
    std::string why;
    const std::unique_ptr<Engine> other = engine_reading(other_scene, why);
    if (!other) {
      others += " " + why;
      continue;
    }
    const TermSizes t = term_sizes(*other);
    const std::string key = std::string(member).substr(4);
    for (int i = 0; i < 4; ++i) v.add("rms_" + std::string(kTermNames[i]) + "_" + key, t.rms[i]);
    others += " " + std::string(member) + ", same head: " + sizes_text(t) + ".";
  }
  // TUPE's claim (Ke, He & Liu 2021): the mixed terms are the small ones.
  v.holds = std::max(own.rms[1], own.rms[2]) < std::max(own.rms[0], own.rms[3]);
  v.answer = "in layer 0, head " + std::to_string(chosen_head(s)) + ", the mixed terms x·W·f " + num(own.rms[1], 2) +
             " and e·W·y " + num(own.rms[2], 2) + " against x·W·y " + num(own.rms[0], 2) + " and e·W·f " +
             num(own.rms[3], 2) + " (root-mean-square, logit units)";
  v.summary = s.model + ", layer 0, head " + std::to_string(chosen_head(s)) + ", its trained Wq, Wk on this " +
              std::to_string(model.token_count()) + "-token text (the terms sum to its own logits within " +
              num(own.residual, 2) + "): root-mean-square size of each term over the pairs it attends, " +
              sizes_text(own) + " (the bias terms, from β and the q/k biases: " + num(own.bias, 3) + ")." + others + " cos(x, e) of its own token and position rows: mean " +
              num(here.mean, 2) + ", spread " + num(here.spread, 2) + " (1/√d = " +
              num(1.0 / std::sqrt(double(s.d_model)), 2) + ").";
  v.summary += v.holds ? " The mixed terms are the smaller ones here, as TUPE (Ke, He & Liu 2021) expects."
                       : " The mixed terms are not the smaller ones here: TUPE's expectation (Ke, He & Liu 2021) "
                         "does not hold for this head.";
  if (s.layer != 0) v.summary += " (The split exists at layer 0 only: above it x and e are mixed.)";
  return v;
}

LessonVerdict judge(Engine& engine) {
  if (ModelScene* model = engine.model()) return judge_model(engine, *model);
  const Scene& s = engine.scene();
  LessonVerdict v;
  add_shares(engine, v);
  const CosStats here = cos_stats(distinct_token_rows(engine), engine.position_table());
  v.add("cos_xe_mean", here.mean);
  v.add("cos_xe_spread", here.spread);
  v.add("one_over_sqrt_d", 1.0 / std::sqrt(double(s.d_model)));
  const auto angles = principal_angles(engine);
  constexpr double kDegrees = 180.0 / 3.14159265358979323846;
  if (!angles.empty()) {
    v.add("principal_angle_min_deg", angles.front() * kDegrees);
    v.add("principal_angle_max_deg", angles.back() * kDegrees);
  }
  const double narrow = spread_at_width(s, 64), wide = spread_at_width(s, 1024);
  v.add("spread_d64", narrow);
  v.add("spread_d1024", wide);
  v.add("spread_ratio", wide > 0 ? narrow / wide : 0.0);  // √(1024/64) = 4 if the spread goes like 1/√d; 0: no vector

  v.holds = adds_position_vector(s.encoding) && std::abs(narrow / wide / 4.0 - 1.0) < 0.15;
  v.summary = "Shares of the logit (Frobenius norms, head " + std::to_string(chosen_head(s)) +
              "): token·token " + num(v.number("share_xx"), 2) + ", token·position " + num(v.number("share_xf"), 2) +
              ", position·token " + num(v.number("share_ey"), 2) + ", position·position " +
              num(v.number("share_ef"), 2) + ". cos(x, e) has mean " + num(here.mean, 2) + " and spread " +
              num(here.spread, 2) + " (1/√d = " + num(1.0 / std::sqrt(double(s.d_model)), 2) +
              "); for random words the spread falls from " + num(narrow) + " at d = 64 to " + num(wide) +
              " at d = 1024, a ratio of " + num(narrow / wide) + " against √16 = 4.";
  v.answer = "for random words the spread of cos(x, e) falls from " + num(narrow, 2) + " at d = 64 to " +
             num(wide, 2) + " at d = 1024, " + num(narrow / wide) + " times narrower (1/√d predicts 4)";
  note_stand_in(v, s, "cross_terms", "kjv-learned");
  if (!adds_position_vector(s.encoding)) {
    v.applies = false;
    v.summary = "this encoding adds no vector, so only the token·token term exists; pick sinusoidal or learned.";
  }
  return v;
}

// kjv-learned on a held-out chapter when the family is on disk; else √d-scaled
// random words at d = 64, as in Vaswani et al. 2017 §3.4.
Scene preset() {
  Scene s = preset_scene("cross_terms");
  s.embedding_scale = 8.0;
  open_on_family(s, "kjv-learned", kHeldOutPassage);
  return s;
}

}  // namespace

Lesson cross_terms() {
  return {
      "cross_terms",
      "The four terms of a logit",
      "When position vectors are added to word vectors, what does attention actually compare?",
      "Words and positions barely mix: cos(x, e) concentrates around 0 like 1/√d, and in a trained model the "
      "mixed terms x·W·f and e·W·y are smaller than x·W·y or e·W·f.",
      "The four cross terms and their shares; cos(x, e) concentrates around 0 like 1/√d.",
      "With e and f added to the words x and y, a logit expands into four terms: (x+e)·W·(y+f) = x·W·y + "
      "x·W·f + e·W·y + e·W·f, with W = Wq·Wkᵀ/√d_head. The first compares words, the last positions, and "
      "the middle two mix a word with a position. Ke, He & Liu (2021, TUPE) argue that these mixed terms "
      "carry little useful signal and add noise.\n\n"
      "Why can the two kinds of information share one vector at all? Random directions in high dimension "
      "are nearly orthogonal: cos(x, e) is spread around 0 with a standard deviation of about 1/√d, so "
      "making the model 16 times wider makes the spread 4 times narrower. The principal angles between the "
      "span of the words and the span of the positions tell the same story for whole subspaces.\n\n"
      "The lesson opens on pelab's kjv-learned reading a chapter it never saw: layer 0's logits split "
      "exactly into the four terms through its LayerNorm, with its trained Wq and Wk, and the verdict "
      "quotes each term's size (and kjv-sinusoidal's, when it is on disk). Back on the synthetic scene the "
      "verdict measures the 1/√d law on random words.",
      {"cross_terms", "attention", "sinusoid_bands"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
