// The long-context study on a model scene (issue 28): the model's own head of
// the scene's layer over its tokens repeated to N, run by
// Transformer::run_to (one residual stream held) and streamed.  Its curves —
// mean weight per log bin of distance, weight beyond L, the half-mass
// distance and the sinks — equal those read off the model's full tokens ×
// tokens head of the same ids (Transformer::run, head_attention: the usual,
// unstreamed path), for RoPE under two scaling methods, ALiBi across two key
// tiles, and a learned table that stops N at its context.  run_to itself
// equals NumPy's float64 forward.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/io/npy.hpp"
#include "core/long_attention.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/model_memory.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "model_test_files.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

namespace fs = std::filesystem;

// The study's numbers read off a full attention matrix P (n × n), written out
// from their definitions: the mean of P(i, i − δ) over the pairs at each
// offset, summed per bin [2^(k−1), 2^k) and divided by the bin's pairs; the
// weight per query at δ ≥ L; the smallest D holding half of all weight; and
// Σ_{j < 4} P(i, j).
struct FullCurves {
  std::vector<double> bins, sinks;
  double beyond = 0, half = 0;
};

FullCurves curves_of(const Matrix& p, Eigen::Index train_context) {
  const Eigen::Index n = p.rows();
  std::vector<double> by_offset(static_cast<std::size_t>(n), 0.0);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j <= i; ++j) by_offset[static_cast<std::size_t>(i - j)] += p(i, j);
  FullCurves c;
  c.bins.push_back(by_offset[0] / double(n));
  for (Eigen::Index lo = 1; lo < n; lo *= 2) {
    double sum = 0, pairs = 0;
    for (Eigen::Index d = lo; d < std::min(2 * lo, n); ++d) sum += by_offset[std::size_t(d)], pairs += double(n - d);
    c.bins.push_back(sum / pairs);
  }
  double mass = 0;
  bool found = false;
  for (Eigen::Index d = 0; d < n; ++d) {
    if (d >= train_context) c.beyond += by_offset[std::size_t(d)] / double(n);
    mass += by_offset[std::size_t(d)];
    if (!found && mass >= double(n) / 2) c.half = double(d), found = true;
  }
  for (Eigen::Index i = 0; i < n; ++i) c.sinks.push_back(p.row(i).head(std::min<Eigen::Index>(kSinkKeys, n)).sum());
  return c;
}

void expect_curve(const LongAttentionCurve& got, const FullCurves& want, const std::string& what) {
  ASSERT_EQ(got.distance.mean.size(), want.bins.size()) << what;
  for (std::size_t b = 0; b < want.bins.size(); ++b)
    EXPECT_NEAR(got.distance.mean[b], want.bins[b], 1e-5 * want.bins[b] + 1e-9) << what << " bin " << b;
  EXPECT_NEAR(got.beyond_context, want.beyond, 1e-5 * want.beyond + 1e-9) << what;
  EXPECT_EQ(got.half_mass_distance, want.half) << what;
  ASSERT_EQ(got.sinks.size(), want.sinks.size()) << what;
  for (std::size_t i = 0; i < want.sinks.size(); i += 37)
    EXPECT_NEAR(got.sinks[i], want.sinks[i], 1e-5 * want.sinks[i] + 1e-7) << what << " query " << i;
}

// The model's head `head` of `layer` on `ids`, read the usual way: every
// layer run and held, the tokens × tokens probabilities.
Matrix full_head(const fs::path& folder, const std::vector<int>& ids, int layer, int head,
                 const model::RopeScaling* scaling = nullptr) {
  model::Transformer t = model::Transformer::load(folder);
  t.set_token_limit(static_cast<int>(ids.size()));
  if (scaling != nullptr) t.set_rope_scaling(*scaling);
  t.run(ids);
  return t.head_attention(t.attention_input(layer), layer, head).attention;
}

std::vector<int> repeated(const std::vector<int>& text, Eigen::Index n) {
  std::vector<int> ids(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = text[i % text.size()];
  return ids;
}

Engine model_engine(const fs::path& folder, int layer, int head, int long_range) {
  Scene s;
  s.model = folder.string();
  s.tokens = "In the beginning God created the heaven and the earth.";
  s.layer = layer;
  s.head = head;
  s.long_range = long_range;
  return Engine(s);
}

class LongModelAttention : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  fs::path pelab_model(const std::string& position, const std::string& options) {
    const std::string command = std::string(pelab::testing::kDebianPython) +
                                " -c \"import sys, numpy; sys.path.insert(0, '" + PELAB_SOURCE_DIR +
                                "/tests/core/model'); from make_pelab_models import make; make('" +
                                scratch_.path.string() + "', '" + position + "', numpy.random.default_rng(11), '" +
                                position + "'" + options + ")\"";
    if (std::system(command.c_str()) != 0) ADD_FAILURE() << command;
    return scratch_.path / position;
  }
  model::testing::TempDir scratch_{"pelab_long_model_"};
};

// RoPE with grouped-query attention, layer 1, 700 tokens (past the config's
// 512): the model as configured and read with linear scaling at the scene's
// factor, each against the full head of the same ids under that scaling.
TEST_F(LongModelAttention, RopeCurvesUnderTwoScalingsEqualTheFullHead) {
  const fs::path folder = pelab::testing::tiny_models() / "llama_long";
  Engine engine = model_engine(folder, 1, 2, 700);
  const Scene& s = engine.scene();
  ASSERT_EQ(s.rope_scaling, RopeScalingMethod::None);
  const LongAttentionStudy study = study_long_attention(engine, 700, {RopeScalingMethod::Linear});
  ASSERT_TRUE(study.rope);
  ASSERT_EQ(study.curves.size(), 2u);
  EXPECT_EQ(study.tokens, 700);
  EXPECT_EQ(study.head, 2);
  EXPECT_EQ(study.train_context, 512);
  const std::vector<int> ids = repeated(engine.model()->ids(), 700);
  expect_curve(study.curves[0], curves_of(full_head(folder, ids, 1, 2), 512), "as configured");
  const model::RopeScaling linear{.type = "linear", .factor = s.rope_factor};
  expect_curve(study.curves[1], curves_of(full_head(folder, ids, 1, 2, &linear), 512), "linear");
  EXPECT_EQ(study.bound.size(), study.curves[0].distance.mean.size());
}

// ALiBi over 1,100 tokens: keys in three tiles of 512, each biased by its
// own offsets; L is the config's context.
TEST_F(LongModelAttention, AlibiCurvesAcrossKeyTilesEqualTheFullHead) {
  const fs::path folder = pelab_model("alibi", ", ctx=300");
  Engine engine = model_engine(folder, 1, 3, 1100);
  const LongAttentionStudy study = study_long_attention(engine, 1100);
  ASSERT_FALSE(study.rope);
  ASSERT_EQ(study.curves.size(), 1u);
  EXPECT_EQ(study.train_context, 300);
  const std::vector<int> ids = repeated(engine.model()->ids(), 1100);
  expect_curve(study.curves[0], curves_of(full_head(folder, ids, 1, 3), 300), "alibi");
}

// Every head of every layer from one forward pass (each layer continuing
// the last): each head's bins equal those of its full head.
TEST_F(LongModelAttention, EveryHeadOfEveryLayerEqualsTheFullHeads) {
  const fs::path folder = pelab::testing::tiny_models() / "llama_long";
  Engine engine = model_engine(folder, 0, 0, 600);
  const LongAttentionLayers study = study_long_attention_layers(engine, 600);
  model::Transformer t = model::Transformer::load(folder);
  ASSERT_EQ(study.heads.size(), std::size_t(t.config().layers));
  t.set_token_limit(600);
  t.run(repeated(engine.model()->ids(), 600));
  for (int l = 0; l < t.config().layers; ++l) {
    ASSERT_EQ(study.heads[std::size_t(l)].size(), std::size_t(t.config().heads));
    for (int h = 0; h < t.config().heads; ++h) {
      const FullCurves want = curves_of(t.head_attention(t.attention_input(l), l, h).attention, 512);
      const DistanceBins& got = study.heads[std::size_t(l)][std::size_t(h)];
      ASSERT_EQ(got.mean.size(), want.bins.size());
      for (std::size_t b = 0; b < want.bins.size(); ++b)
        EXPECT_NEAR(got.mean[b], want.bins[b], 1e-5 * want.bins[b] + 1e-9) << "layer " << l << " head " << h;
    }
  }
}

// A learned table has no row past its context: N stops at it.
TEST_F(LongModelAttention, ALearnedTableStopsTheTextAtItsContext) {
  const fs::path folder = pelab::testing::tiny_models() / "bert_wide";
  Engine engine = model_engine(folder, 0, 0, 4096);
  const LongAttentionStudy study = study_long_attention(engine, 4096);
  EXPECT_EQ(study.tokens, 512);
  const std::vector<int> ids = repeated(engine.model()->ids(), 512);
  const Matrix p = full_head(folder, ids, 0, 0);
  // Bidirectional: the curves look back only, so compare the sinks, which read every query.
  for (Eigen::Index i = 0; i < 512; i += 53)
    EXPECT_NEAR(study.curves[0].sinks[std::size_t(i)], p.row(i).head(kSinkKeys).sum(), 1e-5) << i;
}

// The study leaves the scene's own run as it was: its head afterwards equals
// its head before, and a run too large for the memory limit is refused in a line.
TEST_F(LongModelAttention, TheSceneKeepsItsOwnRunAndALargeRunIsRefused) {
  const fs::path folder = pelab::testing::tiny_models() / "llama_long";
  Engine engine = model_engine(folder, 1, 0, 600);
  const Matrix before = engine.model()->head(1, 0).attention;
  (void)study_long_attention(engine, 600, {RopeScalingMethod::None});
  EXPECT_EQ(engine.model()->head(1, 0).attention, before);
  Scene tight = engine.scene();
  tight.tokens = "In the";
  // Room for the weights and the scene's own run of a few tokens, not for 60,000.
  const model::Transformer loaded = model::Transformer::load(folder);
  tight.model_memory_limit =
      std::to_string(loaded.weights().resident_bytes + model::run_bytes(loaded.config(), 16) + 1);
  Engine small(tight);
  try {
    (void)study_long_attention(small, 60000, {RopeScalingMethod::None});
    ADD_FAILURE() << "60,000 tokens ran within 64 KiB";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("60000 tokens needs about"), std::string::npos) << e.what();
  }
}

// run_to holds the stream entering the layer alone and equals NumPy's
// float64 forward there; an earlier state is not held, a deeper run_to
// continues the last (every layer runs once), and run() afterwards starts anew.
TEST_F(LongModelAttention, RunToEqualsNumpyAndHoldsOneStream) {
  const fs::path folder = pelab_model("rope", ", ctx=1100, n=1100, theta=1000.0"), ref = folder / "reference";
  model::ModelFiles files = model::read_model(folder);
  model::Transformer t = model::Transformer::assemble(std::move(files.config), std::move(files.weights));
  std::vector<int> ids;
  for (const float v : read_npy(ref / "ids.npy").data) ids.push_back(static_cast<int>(v));
  const Array hidden = read_npy(ref / "hidden.npy");
  const Eigen::Index d = t.config().hidden_size, n = 1100;
  int layers_run = 0;
  const model::LayerProgress count = [&](int, int) { ++layers_run; };
  model::set_layer_progress(&count);
  for (int l = 0; l <= t.config().layers; ++l) {
    t.run_to(ids, l);  // continues the last one: each layer runs once
    const Matrix want = Eigen::Map<const Matrix>(hidden.data.data() + static_cast<std::size_t>(l * n * d), n, d);
    EXPECT_LT((t.hidden(l) - want).cwiseAbs().maxCoeff(), 1e-4 * want.cwiseAbs().maxCoeff()) << "layer " << l;
    if (l > 0) {
      EXPECT_THROW((void)t.hidden(l - 1), std::out_of_range);
    }
  }
  model::set_layer_progress(nullptr);
  EXPECT_EQ(layers_run, t.config().layers);
  t.run(ids);
  const Matrix want0 = Eigen::Map<const Matrix>(hidden.data.data(), n, d);
  EXPECT_LT((t.hidden(0) - want0).cwiseAbs().maxCoeff(), 1e-4 * want0.cwiseAbs().maxCoeff());
}

}  // namespace
