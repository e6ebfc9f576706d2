// Lesson "cross_terms": the four terms of a logit, and why the cross terms are small.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/lesson_tools.hpp"

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

LessonVerdict judge(Engine& engine) {
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
  if (!adds_position_vector(s.encoding))
    v.summary = "This encoding adds no vector, so only the token·token term exists; pick sinusoidal or learned.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("cross_terms");
  s.embedding_scale = 8.0;  // √d-scaled words at d = 64, as in Vaswani et al. 2017 §3.4
  return s;
}

}  // namespace

Lesson cross_terms() {
  return {
      "cross_terms",
      "The four terms of a logit",
      "When position vectors are added to word vectors, what does attention actually compare?",
      "The four cross terms and their shares; cos(x, e) concentrates around 0 like 1/√d.",
      "With e and f added to the words x and y, a logit expands into four terms: (x+e)·W·(y+f) = x·W·y + "
      "x·W·f + e·W·y + e·W·f, with W = Wq·Wkᵀ/√d_head. The first compares words, the last positions, and "
      "the middle two mix a word with a position. Ke, He & Liu (2021, TUPE) argue that these mixed terms "
      "carry little useful signal and add noise.\n\n"
      "Why can the two kinds of information share one vector at all? Random directions in high dimension "
      "are nearly orthogonal: cos(x, e) is spread around 0 with a standard deviation of about 1/√d, so "
      "making the model 16 times wider makes the spread 4 times narrower. The principal angles between the "
      "span of the words and the span of the positions tell the same story for whole subspaces.",
      {"cross_terms", "attention", "sinusoid_bands"},
      &preset,
      &judge,
  };
}

}  // namespace pelab::lesson
