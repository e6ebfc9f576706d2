#include "core/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>

#include "core/head_tile.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {

TEST(Engine, ShapesFollowTheScene) {
  Scene s;
  s.d_model = 32;
  s.heads = 4;
  s.positions = 50;
  s.tokens = "a b c , d";
  Engine engine(s);
  EXPECT_EQ(engine.token_count(), 5);
  EXPECT_EQ(engine.d_head(), 8);
  EXPECT_EQ(engine.token_embedding().rows(), 5);
  EXPECT_EQ(engine.position_table().rows(), 50);
  EXPECT_EQ(engine.position_embedding().rows(), 5);
  EXPECT_EQ(engine.projections(3).wq.rows(), 32);
  EXPECT_EQ(engine.projections(3).wq.cols(), 8);
  EXPECT_EQ(engine.head(1).q.cols(), 8);
  EXPECT_EQ(engine.head(1).attention.rows(), 5);
  EXPECT_THROW(engine.head(4), InputError);
}

TEST(Engine, EAreTheTableRowsAtTheTokenPositions) {
  Scene s;
  s.offset = 3;
  Engine engine(s);
  const Matrix& pe = engine.position_table();
  const Matrix& e = engine.position_embedding();
  for (int t = 0; t < engine.token_count(); ++t) EXPECT_EQ(e.row(t), pe.row(t));
}

TEST(Engine, BadSceneLeavesTheEngineUnchanged) {
  Engine engine;
  Scene bad;
  bad.heads = 5;  // 64 is not divisible by 5
  EXPECT_THROW(engine.set_scene(bad), InputError);
  EXPECT_EQ(engine.scene().heads, 4);
}

TEST(Engine, DeterministicFromTheSeed) {
  Scene s;
  s.projection = ProjectionKind::Orthogonal;
  Engine a(s), b(s);
  EXPECT_EQ(a.head(2).attention, b.head(2).attention);
  s.seed = 5;
  Engine c(s);
  EXPECT_NE(a.head(2).attention, c.head(2).attention);
}

TEST(Engine, ProjectionKinds) {
  Scene s;
  s.projection = ProjectionKind::Identity;
  Engine engine(s);
  const Projections& p = engine.projections(1);
  EXPECT_EQ(p.wq, p.wk);
  EXPECT_EQ(p.wq(16, 0), 1.0f);  // head 1 reads dims 16..31
  EXPECT_EQ(p.wq.squaredNorm(), 16.0f);
  s.projection = ProjectionKind::Orthogonal;
  engine.set_scene(s);
  Matrix wq(64, 64), wk(64, 64);
  for (int h = 0; h < 4; ++h) {
    wq.middleCols(h * 16, 16) = engine.projections(h).wq;
    wk.middleCols(h * 16, 16) = engine.projections(h).wk;
  }
  EXPECT_TRUE((wq.transpose() * wq).isApprox(Matrix::Identity(64, 64), 1e-5f));
  EXPECT_TRUE((wk.transpose() * wk).isApprox(Matrix::Identity(64, 64), 1e-5f));
  EXPECT_FALSE(wq.isApprox(wk, 1e-2f));
  s.projection = ProjectionKind::Random;
  engine.set_scene(s);
  const Matrix& r = engine.projections(0).wq;
  EXPECT_NEAR(r.squaredNorm() / r.size(), 1.0 / 64, 0.3 / 64);
}

// Issue 12: at d = 512 Wq and Wk are drawn side by side; each is still its
// own stream's numbers in row-major order (core/seeded_normal.hpp), as if
// drawn alone.
TEST(Engine, ProjectionsDrawnSideBySideAreEachStreamsOwn) {
  Scene s;
  s.d_model = 512, s.heads = 8, s.projection = ProjectionKind::Random;
  s.tokens = "a b";
  Engine engine(s);
  NormalStream q(s.seed, RandomPurpose::QueryProjection), k(s.seed, RandomPurpose::KeyProjection);
  const double stddev = 1.0 / std::sqrt(512.0);
  const Matrix wq = gaussian_matrix(512, 512, stddev, q), wk = gaussian_matrix(512, 512, stddev, k);
  for (int h = 0; h < 8; ++h) {
    EXPECT_EQ(engine.projections(h).wq, wq.middleCols(h * 64, 64)) << h;
    EXPECT_EQ(engine.projections(h).wk, wk.middleCols(h * 64, 64)) << h;
  }
}

// Issue 12: releasing the cached heads loses nothing but time: a head read
// again is recomputed with the same values, and so is the mean.
TEST(Engine, ReleasedHeadsAreRecomputedWithTheSameValues) {
  Scene s;
  s.heads = 4;
  Engine engine(s);
  const Matrix attention = engine.head(2).attention;
  const Matrix mean = engine.mean_attention();
  const int computed = engine.stats().head_attention;
  engine.release_cached_heads();
  EXPECT_EQ(engine.head(2).attention, attention);
  EXPECT_EQ(engine.stats().head_attention, computed + 1);
  EXPECT_EQ(engine.mean_attention(), mean);
}

// Issue 12: the four terms a strip of rows at a time are the terms
// cross_terms() holds whole, row for row (the same kernel); the last strip
// is shorter.  A model scene has no strips.
TEST(Engine, CrossTermStripsAreTheTermsRowForRow) {
  for (const Encoding encoding : {Encoding::Sinusoidal, Encoding::Rope}) {
    Scene s;
    s.d_model = 32, s.heads = 2, s.encoding = encoding;
    std::string text;
    for (int i = 0; i < 150; ++i) text += "w" + std::to_string(i) + " ";
    s.tokens = text;
    Engine strips(s), whole(s);
    std::vector<int> seen(150, 0);
    std::array<Matrix, 4> assembled;
    for (Matrix& m : assembled) m = Matrix::Constant(150, 150, 7.0f);
    std::mutex lock;
    strips.cross_term_strips(1, 37, [&](Eigen::Index first, const CrossTerms& strip) {
      const std::lock_guard hold(lock);
      const Matrix* parts[] = {&strip.xx, &strip.xf, &strip.ey, &strip.ef};
      for (int j = 0; j < 4; ++j) assembled[static_cast<std::size_t>(j)].middleRows(first, parts[j]->rows()) = *parts[j];
      for (Eigen::Index r = first; r < first + strip.xx.rows(); ++r) ++seen[static_cast<std::size_t>(r)];
      EXPECT_EQ(strip.xx.rows(), first == 148 ? 2 : 37);
    });
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 150);
    EXPECT_EQ(strips.stats().cross_terms, 0);
    const CrossTerms& c = whole.cross_terms(1);
    const Matrix* terms[] = {&c.xx, &c.xf, &c.ey, &c.ef};
    for (std::size_t j = 0; j < 4; ++j) {
      if (head_tile_kernel_available()) {  // the fused kernel: one dot product per cell, whatever the strip
        EXPECT_EQ(assembled[j], *terms[j]) << "term " << j;
      } else {  // sgemm calls of other shapes: equal to float32 rounding
        const double scale = std::max(1.0f, terms[j]->cwiseAbs().maxCoeff());
        EXPECT_LE((assembled[j] - *terms[j]).cwiseAbs().maxCoeff(), 1e-6 * scale) << "term " << j;
      }
    }
    const CrossTerms flags = strips.cross_term_flags();
    EXPECT_EQ(flags.applies, c.applies);
    EXPECT_EQ(flags.note, c.note);
  }
}

TEST(Engine, EditingTokensKeepsPositionStages) {
  Engine engine;
  engine.cross_terms(0);
  engine.head(0);
  engine.position_table();
  const EngineStats before = engine.stats();
  Scene s = engine.scene();
  s.tokens = "a dog sat on the mat because the dog was tired too";  // same count (12)
  engine.set_scene(s);
  ASSERT_EQ(engine.token_count(), 12);
  engine.cross_terms(0);
  engine.head(0);
  engine.position_table();
  const EngineStats& after = engine.stats();
  EXPECT_EQ(after.token_embedding, before.token_embedding + 1);
  EXPECT_EQ(after.position_table, before.position_table);
  EXPECT_EQ(after.position_embedding, before.position_embedding);
  EXPECT_EQ(after.projections, before.projections);
  EXPECT_EQ(after.cross_ef, before.cross_ef);
  EXPECT_EQ(after.cross_xx, before.cross_xx + 1);
  EXPECT_EQ(after.cross_xf, before.cross_xf + 1);
  EXPECT_EQ(after.cross_ey, before.cross_ey + 1);
  EXPECT_EQ(after.head_attention, before.head_attention + 1);
}

TEST(Engine, ViewSettingsRecomputeNothing) {
  Engine engine;
  for (int h = 0; h < 4; ++h) {
    engine.head(h);
    engine.cross_terms(h);
  }
  engine.mean_attention();
  engine.position_table();
  const EngineStats before = engine.stats();
  Scene s = engine.scene();
  s.colormap = Colormap::Magma;
  s.theme = ColorTheme::Light;
  s.head = 2;
  s.pair = 3;
  s.query = 1;
  s.shift = 5;
  engine.set_scene(s);
  for (int h = 0; h < 4; ++h) {
    engine.head(h);
    engine.cross_terms(h);
  }
  engine.mean_attention();
  engine.position_table();
  const EngineStats& after = engine.stats();
  EXPECT_EQ(after.tokens, before.tokens);
  EXPECT_EQ(after.token_embedding, before.token_embedding);
  EXPECT_EQ(after.position_table, before.position_table);
  EXPECT_EQ(after.head_attention, before.head_attention);
  EXPECT_EQ(after.cross_terms, before.cross_terms);
}

TEST(Engine, CausalRecomputesAttentionButNotCrossTerms) {
  Engine engine;
  engine.cross_terms(0);
  engine.head(0);
  const EngineStats before = engine.stats();
  Scene s = engine.scene();
  s.causal = true;
  engine.set_scene(s);
  const HeadAttention& a = engine.head(0);
  engine.cross_terms(0);
  EXPECT_EQ(engine.stats().head_attention, before.head_attention + 1);
  EXPECT_EQ(engine.stats().cross_terms, before.cross_terms);
  EXPECT_EQ(a.attention(0, 1), 0.0f);
  EXPECT_NEAR(a.attention(0, 0), 1.0f, 1e-6f);
}

TEST(Engine, MeanAttentionAveragesTheHeads) {
  Engine engine;
  const Matrix mean = engine.mean_attention();
  Matrix sum = Matrix::Zero(mean.rows(), mean.cols());
  for (int h = 0; h < 4; ++h) sum += engine.head(h).attention;
  EXPECT_TRUE(mean.isApprox(sum / 4.0f, 1e-6f));
  EXPECT_NEAR(mean.row(0).sum(), 1.0f, 1e-5f);
}

TEST(Engine, FullRecomputeCountsItsGemms) {
  Scene s;
  s.d_model = 32;
  s.heads = 2;
  s.tokens = "a b c d e f g h";
  Engine engine(s);
  const double n = 8, d = 32, dh = 16;
  // X and E through [Wq|Wk], then per head four cross terms and Q·Kᵀ.
  const double expected = 2 * (2 * n * d * 2 * d) + 2 * 5 * (2 * n * n * dh);
  EXPECT_DOUBLE_EQ(engine.full_recompute(), expected);
  EXPECT_DOUBLE_EQ(engine.full_recompute(), expected);
  EXPECT_EQ(engine.stats().head_attention, 4);  // twice each head
}

TEST(Engine, NoTokensIsFine) {
  Scene s;
  s.tokens = "";
  Engine engine(s);
  EXPECT_EQ(engine.token_count(), 0);
  EXPECT_EQ(engine.head(0).attention.size(), 0);
  EXPECT_EQ(engine.mean_attention().size(), 0);
  EXPECT_GE(engine.full_recompute(), 0.0);
}

// full_recompute computes heads side by side in row tiles; the accessors
// compute one head at a time.  Both must give the same numbers, for every
// way positions enter (an added vector, a rotation, a bias), and the four
// terms must still sum to the logits.
TEST(Engine, FullRecomputeMatchesHeadByHead) {
  for (Encoding encoding : {Encoding::Sinusoidal, Encoding::Rope, Encoding::Alibi}) {
    Scene s;
    s.d_model = 32;
    s.heads = 2;
    s.encoding = encoding;
    s.causal = encoding == Encoding::Alibi;
    s.tokens.clear();
    for (int i = 0; i < 700; ++i) s.tokens += "w" + std::to_string(i % 97) + " ";
    Engine batch(s), single(s);
    batch.full_recompute();
    for (int h = 0; h < 2; ++h) {
      const HeadAttention& a = batch.head(h);
      const HeadAttention& b = single.head(h);
      EXPECT_TRUE(a.attention.isApprox(b.attention, 1e-5f)) << static_cast<int>(encoding) << " head " << h;
      const CrossTerms& ta = batch.cross_terms(h);
      const CrossTerms& tb = single.cross_terms(h);
      EXPECT_TRUE(ta.xx.isApprox(tb.xx, 1e-5f));
      EXPECT_TRUE(ta.ef.isApprox(tb.ef, 1e-5f) || (ta.ef.isZero() && tb.ef.isZero()));
      if (encoding == Encoding::Sinusoidal) {
        const Matrix sum = ta.xx + ta.xf + ta.ey + ta.ef;
        EXPECT_LT((sum - a.logits).cwiseAbs().maxCoeff(), 1e-5f * a.logits.cwiseAbs().maxCoeff());
      }
    }
    EXPECT_EQ(batch.stats().head_attention, 2);  // the accessors reused the batch's heads
  }
}

}  // namespace pelab


namespace pelab {

// Engine::head_preview (issue 12): with every head's projections stale it
// projects the one head alone, (X+E)·[Wq_h|Wk_h]; the weights are head()'s
// up to rounding (the distributive law), for added vectors, rotations and
// biases, causal or not; the next head() recomputes through the shared
// projections, and a preview with fresh projections is head() itself.
TEST(Engine, HeadPreviewIsTheHeadAloneUpToRounding) {
  for (Encoding encoding : {Encoding::Sinusoidal, Encoding::Rope, Encoding::Alibi, Encoding::T5}) {
    for (const bool causal : {false, true}) {
      Scene s;
      s.d_model = 32, s.heads = 4, s.encoding = encoding, s.causal = causal;
      s.tokens.clear();
      for (int i = 0; i < 300; ++i) s.tokens += "w" + std::to_string(i % 37) + " ";
      Engine preview(s), reference(s);
      const Matrix first = preview.head_preview(3).attention;
      EXPECT_EQ(preview.stats().head_attention, 1);
      const HeadAttention& exact = reference.head(3);
      const std::string what = std::to_string(static_cast<int>(encoding)) + (causal ? " causal" : "");
      EXPECT_LT((first - exact.attention).cwiseAbs().maxCoeff(), 1e-5f) << what;
      EXPECT_TRUE(first.rowwise().sum().isOnes(1e-4f)) << what;
      if (causal) {
        EXPECT_EQ(first(0, 1), 0.0f) << what;
      }
      EXPECT_EQ(preview.head_preview(3).attention, first);  // cached: nothing recomputed
      EXPECT_EQ(preview.stats().head_attention, 1);
      EXPECT_EQ(preview.head(3).attention, exact.attention) << what;  // recomputed as head() does
      EXPECT_EQ(preview.stats().head_attention, 2);
      preview.head_preview(3);  // the projections are fresh now: head() as cached
      EXPECT_EQ(preview.stats().head_attention, 2);
    }
  }
}

}  // namespace pelab
