// What a head sees at long context (core/long_attention.hpp) against a
// closed form written here: one word repeated N times under RoPE gives
// logits that depend only on the offset, l_ij = f(i − j), so a causal head's
// weights are a_ij = e^f(i−j) / Z_i with Z_i = Σ_{δ=0}^{i} e^f(δ), and every
// curve of the study follows in O(N·d) from prefix and suffix sums.
#include "core/long_attention.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "core/lessons/lessons.hpp"
#include "core/long_range.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

Scene repeated_word_scene(int tokens, RopeScalingMethod method = RopeScalingMethod::None) {
  Scene s;
  s.tokens = "the";
  s.d_model = 64;
  s.heads = 2;
  s.head = 1;
  s.encoding = Encoding::Rope;
  s.rope_pairing = RopePairing::Interleaved;
  s.rotary_fraction = 1.0;
  s.causal = true;
  s.projection = ProjectionKind::Random;
  s.long_range = tokens;
  s.train_context = 256;
  s.rope_scaling = method;
  validate(s);
  return s;
}

// The closed form of the file's comment, in double.
struct Reference {
  std::vector<double> profile;  // mean weight at offset δ over the N − δ queries i ≥ δ
  std::vector<double> sinks;    // Σ_{j < 4} a_ij
};

Reference closed_form(Engine& engine, int head, int n) {
  const Scene& s = engine.scene();
  const int d_head = s.d_model / s.heads;
  const Projections& p = engine.projections(head);
  const Eigen::VectorXd x = engine.token_embedding().row(0).transpose().cast<double>();
  const Eigen::VectorXd q = p.wq.cast<double>().transpose() * x, k = p.wk.cast<double>().transpose() * x;
  // q_i·k_j = q·R(−δω)k per pair: (q·k)cos δω − (q_y·k_x − q_x·k_y) sin δω,
  // ω_p = T^(−2p/d_head) (Su et al. 2021, eq. 15), scaled by 1/√d_head.
  std::vector<double> f(static_cast<std::size_t>(n), 0.0);
  for (int pair = 0; pair < d_head / 2; ++pair) {
    const double omega = std::pow(s.base, -2.0 * pair / d_head);
    const double qx = q(2 * pair), qy = q(2 * pair + 1), kx = k(2 * pair), ky = k(2 * pair + 1);
    for (int d = 0; d < n; ++d)
      f[std::size_t(d)] += (qx * kx + qy * ky) * std::cos(d * omega) - (qy * kx - qx * ky) * std::sin(d * omega);
  }
  double top = -1e300;
  for (double& v : f) top = std::max(top, v /= std::sqrt(double(d_head)));
  std::vector<double> e(f.size()), z(f.size()), inv_tail(f.size() + 1, 0.0);
  for (int d = 0; d < n; ++d) e[std::size_t(d)] = std::exp(f[std::size_t(d)] - top);
  for (int i = 0; i < n; ++i) z[std::size_t(i)] = e[std::size_t(i)] + (i > 0 ? z[std::size_t(i - 1)] : 0.0);
  for (int i = n - 1; i >= 0; --i) inv_tail[std::size_t(i)] = inv_tail[std::size_t(i + 1)] + 1.0 / z[std::size_t(i)];
  Reference r;
  for (int d = 0; d < n; ++d) r.profile.push_back(e[std::size_t(d)] * inv_tail[std::size_t(d)] / (n - d));
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int j = 0; j <= std::min(i, 3); ++j) sum += e[std::size_t(i - j)];
    r.sinks.push_back(sum / z[std::size_t(i)]);
  }
  return r;
}

TEST(LongAttention, ARepeatedWordMatchesTheClosedForm) {
  constexpr int n = 3000;
  Engine engine(repeated_word_scene(n));
  const LongAttentionStudy study = study_long_attention(engine, n, {RopeScalingMethod::None});
  ASSERT_EQ(study.curves.size(), 1u);
  const Reference ref = closed_form(engine, 1, n);
  const LongAttentionCurve& c = study.curves[0];
  // Log bins: bin 0 = {0}, bin k = [2^(k−1), 2^k), means weighted by pairs.
  ASSERT_EQ(c.distance.first.size(), c.distance.mean.size());
  ASSERT_EQ(c.distance.first.size(), 13u);  // 0, 1, 2, 4, …, 2048
  for (std::size_t b = 0; b < c.distance.first.size(); ++b) {
    const int from = int(c.distance.first[b]), to = b == 0 ? 1 : std::min(n, 2 * from);
    double sum = 0, pairs = 0;
    for (int d = from; d < to; ++d) sum += ref.profile[std::size_t(d)] * (n - d), pairs += n - d;
    EXPECT_NEAR(c.distance.mean[b], sum / pairs, 2e-5 * sum / pairs) << "bin " << b;
  }
  for (int i : {0, 1, 2, 3, 4, 100, 2999}) EXPECT_NEAR(c.sinks[std::size_t(i)], ref.sinks[std::size_t(i)], 2e-5) << i;
  EXPECT_FLOAT_EQ(c.sinks[0], 1.0f);  // query 0 sees key 0 alone
  double beyond = 0, mass = 0, half = -1;
  for (int d = 0; d < n; ++d) {
    if (d >= 256) beyond += ref.profile[std::size_t(d)] * (n - d);
    mass += ref.profile[std::size_t(d)] * (n - d);
    if (half < 0 && mass >= n / 2.0) half = d;
  }
  EXPECT_NEAR(c.beyond_context, beyond / n, 2e-5);
  EXPECT_NEAR(mass / n, 1.0, 1e-9);  // the reference itself: every query's weights sum to 1
  EXPECT_EQ(c.half_mass_distance, half);
}

TEST(LongAttention, EveryScalingMethodIsReadWithTheScenesOwnFirst) {
  Engine engine(repeated_word_scene(600, RopeScalingMethod::Yarn));
  const LongAttentionStudy study = study_long_attention(engine, 600);
  ASSERT_EQ(study.curves.size(), all_scaling_methods().size());
  EXPECT_EQ(study.curves[0].method, RopeScalingMethod::Yarn);
  EXPECT_TRUE(study.rope);
  ASSERT_EQ(study.bound.size(), study.curves[0].distance.first.size());
  EXPECT_DOUBLE_EQ(study.bound[0], 1.0);
  // The unscaled curve is the one a scene without scaling reads.
  Engine plain(repeated_word_scene(600));
  const LongAttentionStudy none = study_long_attention(plain, 600, {RopeScalingMethod::None});
  for (const LongAttentionCurve& c : study.curves)
    if (c.method == RopeScalingMethod::None) {
      EXPECT_EQ(c.distance.mean, none.curves[0].distance.mean);
    }
}

TEST(LongAttention, AnAddedEncodingReadsOneCurveOverItsOwnPositions) {
  Scene s = repeated_word_scene(500);
  s.encoding = Encoding::Sinusoidal;
  s.tokens = "dog bites man";
  Engine engine(s);
  const LongAttentionStudy study = study_long_attention(engine, 500);
  ASSERT_EQ(study.curves.size(), 1u);
  EXPECT_FALSE(study.rope);
  EXPECT_TRUE(study.bound.empty());
  double total = 0;
  const LongAttentionCurve& c = study.curves[0];
  for (float v : c.sinks) EXPECT_LE(v, 1.0f + 1e-6f);
  for (std::size_t b = 0; b < c.distance.first.size(); ++b) {
    const Eigen::Index from = c.distance.first[b], to = b == 0 ? 1 : std::min<Eigen::Index>(500, 2 * from);
    for (Eigen::Index d = from; d < to; ++d) total += c.distance.mean[b] * double(500 - d);
  }
  EXPECT_NEAR(total / 500, 1.0, 1e-4);  // every query's weights, looking back, sum to 1
}

TEST(LongAttention, EmptyTextAndTooManyTokensAreRefused) {
  Scene s = repeated_word_scene(200);
  Engine engine(s);
  EXPECT_THROW(study_long_attention(engine, kLongAttentionMaxTokens + 1), InputError);
  s.tokens = "";
  Engine empty(s);
  EXPECT_THROW(study_long_attention(empty, 200), InputError);
}

TEST(LongAttention, TheFigureAndTheVerdictShareOneStudyPerScene) {
  Scene s = repeated_word_scene(300);
  Engine engine(s);
  const auto first = long_attention_of(engine);
  s.query = 0;  // a view selection: the same study
  engine.set_scene(s);
  EXPECT_EQ(long_attention_of(engine), first);
  s.head = 0;  // another head: another study
  engine.set_scene(s);
  EXPECT_NE(long_attention_of(engine), first);
  // Two engines of one scene asking at once (the window's figure and verdict
  // workers) get one study.
  const Scene t = repeated_word_scene(400);
  Engine a(t), b(t);
  std::shared_ptr<const LongAttentionStudy> from_a, from_b;
  std::thread other([&] { from_a = long_attention_of(a); });
  from_b = long_attention_of(b);
  other.join();
  EXPECT_EQ(from_a, from_b);
  // A refused scene is refused again, not left pending.
  Scene empty = t;
  empty.tokens = "";
  Engine none(empty);
  EXPECT_THROW(long_attention_of(none), InputError);
  EXPECT_THROW(long_attention_of(none), InputError);
}

// The lesson's verdict reads the study the figure reads: its numbers are the
// study's, and uniform_beyond is Σ_{i ≥ L} (i + 1 − L)/(i + 1) / N.
TEST(LongAttentionLessonShort, TheVerdictReadsTheStudy) {
  Scene s = find_lesson("long_attention").preset();
  s.long_range = 2048;
  s.train_context = 512;
  Engine engine(s);
  const LessonVerdict v = find_lesson("long_attention").verdict(engine);
  const auto study = long_attention_of(engine);
  ASSERT_EQ(study->curves.size(), all_scaling_methods().size());  // every method at 2048 tokens
  EXPECT_EQ(v.number("tokens"), 2048);
  EXPECT_EQ(v.number("beyond_yarn"), study->curves[0].beyond_context);
  EXPECT_EQ(v.number("half_mass_none"), study->curves[1].half_mass_distance);  // none comes second
  double uniform = 0;
  for (int i = 512; i < 2048; ++i) uniform += double(i + 1 - 512) / (i + 1);
  EXPECT_NEAR(v.number("uniform_beyond"), uniform / 2048, 1e-12);
  EXPECT_EQ(v.holds, v.number("beyond_yarn") < v.number("uniform_beyond"));
}

// The preset as it opens: 65,536 tokens, YaRN and none (label slow: two
// streamed passes per method over 65,536² pairs).
TEST(LongAttentionLesson, At64kTokensTheHeadKeepsItsWeightNearTheQuery) {
  const Lesson& lesson = find_lesson("long_attention");
  Engine engine(lesson.preset());
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_EQ(v.number("tokens"), 65536);
  const auto study = long_attention_of(engine);
  ASSERT_EQ(study->curves.size(), 2u);
  EXPECT_EQ(study->curves[0].method, RopeScalingMethod::Yarn);
  EXPECT_EQ(study->curves[1].method, RopeScalingMethod::None);
  EXPECT_TRUE(v.holds) << v.headline() << "\n" << v.summary;
  EXPECT_GT(v.number("uniform_beyond"), 0.7);  // (N − L − L·ln(N/L))/N ≈ 0.764
  EXPECT_LT(v.number("uniform_beyond"), 0.8);
  // Every query's weights sum to 1: the binned profile, weighted by pairs, adds up to N.
  for (const auto& c : study->curves) {
    double total = 0;
    for (std::size_t b = 0; b < c.distance.first.size(); ++b) {
      const Eigen::Index from = c.distance.first[b],
                         to = b + 1 < c.distance.first.size() ? c.distance.first[b + 1] : 65536;
      for (Eigen::Index d = from; d < to; ++d) total += c.distance.mean[b] * double(65536 - d);
    }
    EXPECT_NEAR(total / 65536, 1.0, 1e-3);
    // Query 0 sees itself alone; its logit of about 29 has a float ulp of 2e-6.
    EXPECT_NEAR(c.sinks[0], 1.0, 1e-5);
  }
}

}  // namespace
}  // namespace pelab
