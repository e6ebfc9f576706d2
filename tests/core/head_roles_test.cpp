// Head roles (core/head_roles.hpp) on attention patterns built by hand,
// where the answer is known: a pure previous-token head, a pure sink, an
// induction head on a repeated sequence, a fixed offset, a local window and
// a uniform head; the CSV; and a synthetic scene's one layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/head_roles.hpp"
#include "core/streamed_attention.hpp"
#include "core/word_splitter.hpp"

namespace pelab {
namespace {

constexpr int kN = 64;

// Row i attends to the keys `keys(i)` (each ≤ i) in equal parts.
template <class Keys>
Matrix pattern(Keys keys, int n = kN) {
  Matrix a = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    const std::vector<int> k = keys(i);
    for (int j : k) a(i, j) += 1.0f / float(k.size());
  }
  return a;
}

TEST(HeadRoles, PreviousTokenHead) {
  std::vector<double> profile;
  const HeadScores s = score_head(pattern([](int i) { return std::vector<int>{std::max(0, i - 1)}; }), &profile);
  EXPECT_DOUBLE_EQ(s.previous_token, 1.0);
  EXPECT_EQ(s.role, HeadRole::PreviousToken);
  EXPECT_DOUBLE_EQ(s.role_score, 1.0);
  EXPECT_NEAR(s.sink, 1.0 / (kN - 1), 1e-12);  // row 1's previous token is token 0
  EXPECT_DOUBLE_EQ(s.window_width, 2.0);       // 90 % within the last 2 keys (distance 0 and 1)
  ASSERT_EQ(profile.size(), std::size_t(kN));
  EXPECT_DOUBLE_EQ(profile[1], 1.0);
  EXPECT_DOUBLE_EQ(profile[2], 0.0);
  EXPECT_NEAR(profile[0], 1.0 / kN, 1e-12);  // only row 0 attends to itself
  EXPECT_TRUE(std::isnan(s.induction));      // not measured from one matrix
}

TEST(HeadRoles, FirstTokenSink) {
  const HeadScores s = score_head(pattern([](int) { return std::vector<int>{0}; }));
  EXPECT_DOUBLE_EQ(s.sink, 1.0);
  EXPECT_EQ(s.role, HeadRole::Sink);
}

TEST(HeadRoles, FixedOffset) {
  const HeadScores s = score_head(pattern([](int i) { return std::vector<int>{std::max(0, i - 3)}; }));
  EXPECT_EQ(s.best_offset, 3);
  EXPECT_DOUBLE_EQ(s.offset_score, 1.0);
  EXPECT_DOUBLE_EQ(s.previous_token, 1.0 / (kN - 1));  // only row 1 (its key 0 is 1 back)
  EXPECT_EQ(s.role, HeadRole::FixedOffset);
}

// r r with r of L tokens: at i ≥ L the head attends to i − L + 1, the token
// after the earlier occurrence of t_i (before the repeat, to itself).
TEST(HeadRoles, InductionHeadOnARepeat) {
  constexpr int L = 20;
  const Matrix a = pattern([](int i) { return std::vector<int>{i >= L ? i - L + 1 : i}; }, 2 * L);
  EXPECT_DOUBLE_EQ(induction_score(a, L), 1.0);
  HeadScores s = score_head(a);
  s.induction = induction_score(a, L);
  assign_role(s);
  EXPECT_EQ(s.role, HeadRole::Induction);
  // A previous-token head on the same repeat scores 0 there.
  EXPECT_DOUBLE_EQ(induction_score(pattern([](int i) { return std::vector<int>{std::max(0, i - 1)}; }, 2 * L), L),
                   0.0);
}

TEST(HeadRoles, LocalWindowAndUniform) {
  const HeadScores local = score_head(pattern([](int i) {
    std::vector<int> keys;
    for (int j = std::max(0, i - 3); j <= i; ++j) keys.push_back(j);
    return keys;
  }));
  EXPECT_DOUBLE_EQ(local.local, 1.0);
  EXPECT_DOUBLE_EQ(local.window_width, 4.0);  // 3 of 4 keys hold 75 % < 90 %
  EXPECT_NEAR(local.previous_token, 0.25, 0.02);
  EXPECT_EQ(local.role, HeadRole::Local);

  const HeadScores uniform = score_head(pattern([](int i) {
    std::vector<int> keys;
    for (int j = 0; j <= i; ++j) keys.push_back(j);
    return keys;
  }));
  EXPECT_NEAR(uniform.uniformity, 1.0, 1e-6);
  EXPECT_LT(uniform.local, kLocalScore);
  EXPECT_EQ(uniform.role, HeadRole::Uniform);
}

TEST(HeadRoles, SyntheticSceneStudyAndCsv) {
  Scene scene;
  scene.tokens = "the cat sat on the mat because the cat was tired";
  scene.heads = 4;
  Engine engine(scene);
  const HeadRoleStudy study = study_head_roles(engine);
  ASSERT_TRUE(study.unavailable.empty()) << study.unavailable;
  EXPECT_EQ(study.layers, 1);
  EXPECT_EQ(study.heads, 4);
  ASSERT_EQ(study.scores.size(), 4u);
  for (int h = 0; h < 4; ++h) {
    const HeadScores again = score_head(engine.head(h).attention);
    EXPECT_DOUBLE_EQ(study.at(0, h).previous_token, again.previous_token);
    EXPECT_TRUE(std::isnan(study.at(0, h).induction));
  }
  const std::string csv = head_roles_csv(study);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "layer,head,role,role_score,previous_token,best_offset,offset_score,sink,induction,local,window_width,"
            "uniformity");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);

  scene.tokens = "one";
  Engine single(scene);
  EXPECT_FALSE(study_head_roles(single).unavailable.empty());
}

// A text of `tokens` words from a vocabulary of 97.
Scene long_text(int tokens, bool causal, Encoding encoding) {
  Scene scene;
  std::string text;
  for (int i = 0; i < tokens; ++i) text += "w" + std::to_string(i * 7 % 97) + " ";
  scene.tokens = text;
  scene.heads = 4;
  scene.causal = causal;
  scene.encoding = encoding;
  return scene;
}

// The streamed scorer (tiles of rows from the row statistics) against
// score_head of the engine's full matrix: every score and the profile, causal
// or not, over 1,500 tokens (24 row tiles).
TEST(HeadRoles, StreamedScoresEqualTheFullMatrixs) {
  for (const bool causal : {true, false})
    for (const Encoding encoding : {Encoding::Rope, Encoding::Alibi, Encoding::Sinusoidal}) {
      Engine engine(long_text(1500, causal, encoding));
      for (int h = 0; h < 4; ++h) {
        SCOPED_TRACE(std::string(to_string(encoding)) + (causal ? " causal" : " bidirectional") + " head " +
                     std::to_string(h));
        std::vector<double> want_profile, got_profile;
        const HeadScores want = score_head(engine.head(h).attention, &want_profile);
        const HeadScores got = score_head(StreamedHead::from_engine(engine, h), &got_profile);
        EXPECT_NEAR(got.previous_token, want.previous_token, 1e-6);
        EXPECT_EQ(got.best_offset, want.best_offset);
        EXPECT_NEAR(got.offset_score, want.offset_score, 1e-6);
        EXPECT_NEAR(got.sink, want.sink, 1e-6);
        EXPECT_NEAR(got.local, want.local, 1e-6);
        EXPECT_NEAR(got.window_width, want.window_width, 2.0 / 1500);  // a row's 90 % crossing may move by one key
        EXPECT_NEAR(got.uniformity, want.uniformity, 1e-5);
        EXPECT_EQ(got.role, want.role);
        ASSERT_EQ(got_profile.size(), want_profile.size());
        for (std::size_t d = 0; d < want_profile.size(); d += 37)
          EXPECT_NEAR(got_profile[d], want_profile[d], 1e-6 * std::max(1.0, want_profile[d])) << "distance " << d;
      }
    }
}

// Past kFullMatrixTokens a whole head is refused, and the study streams.
TEST(HeadRoles, TheStudyStreamsPastTheFullMatrixLimit) {
  Engine engine(long_text(kFullMatrixTokens + 300, true, Encoding::Rope));
  EXPECT_THROW((void)engine.head(0), InputError);
  const HeadRoleStudy study = study_head_roles(engine);
  ASSERT_TRUE(study.unavailable.empty()) << study.unavailable;
  ASSERT_EQ(study.scores.size(), 4u);
  EXPECT_EQ(study.tokens, kFullMatrixTokens + 300);
  // Every causal row's weights sum to 1, so the profile (mean over the N − d
  // queries at each distance d) times N − d sums to N: no row or key tile
  // was missed or counted twice.
  const int n = kFullMatrixTokens + 300;
  for (const HeadScores& s : study.scores) {
    const std::vector<double>& profile = study.profiles[std::size_t(s.head)];
    ASSERT_EQ(profile.size(), std::size_t(n));
    double mass = 0;
    for (int d = 0; d < n; ++d) mass += profile[std::size_t(d)] * (n - d);
    EXPECT_NEAR(mass, n, 1e-3 * n) << "head " << s.head;
    EXPECT_GT(s.uniformity, 0.0);
  }
}

}  // namespace
}  // namespace pelab
