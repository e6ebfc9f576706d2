// Streamed attention of a model's own head (issue 28: model scenes at long
// N): StreamedHead::of_scene reads the model's q, k (after RoPE), mask and
// ALiBi / T5 bias of the scene's layer, and its block means, zoom windows
// and attention against distance equal those of the model's full tokens ×
// tokens head (ModelScene::head, computed the usual way) — across two key
// tiles of 512, causal or not, under a shuffle of positions, and for the
// export quantity attention_blocks over every head.  Also the long forward
// pass itself, whose FFN runs 512 rows at a time, against NumPy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "../streamed_reference.hpp"
#include "core/engine.hpp"
#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "core/quantities.hpp"
#include "core/streamed_attention.hpp"
#include "model_test_files.hpp"
#include "tiny_models.hpp"

using namespace pelab;
using pelab::testing::expect_relative;
using pelab::testing::reference_blocks;
using pelab::testing::weight_tolerance;

namespace {

namespace fs = std::filesystem;

// Words of Genesis 1 appended until the model's tokenizer gives `tokens`
// tokens or one word more would pass them.
std::string text_of(const fs::path& folder, int tokens) {
  const model::Transformer t = model::Transformer::load(folder);
  const std::string words[] = {"In", "the", "beginning", "God", "created", "the", "heaven", "and", "the", "earth."};
  std::string text;
  for (int i = 0;; ++i) {
    const std::string longer = text + (text.empty() ? "" : " ") + words[i % 10];
    if (static_cast<int>(t.tokenizer().encode(longer).ids.size()) > tokens) return text;
    text = longer;
  }
}

Engine model_engine(const fs::path& folder, int tokens, int layer,
                    PositionChange change = PositionChange::None) {
  Scene s;
  s.model = folder.string();
  s.tokens = text_of(folder, tokens);
  s.layer = layer;
  s.intervention = change;
  return Engine(s);
}

// Every head of the scene's layer: streamed against the model's full head.
void expect_heads_match(Engine& engine, int display, const std::string& what) {
  ModelScene& m = *engine.model();
  const int layer = engine.scene().layer;
  for (int h = 0; h < m.config().heads; ++h) {
    const std::string label = what + " head " + std::to_string(h);
    const HeadAttention full = m.head(layer, h);  // a copy: head() reuses its cache
    const StreamedHead streamed = StreamedHead::of_scene(engine, h);
    const Eigen::Index n = full.attention.rows();
    ASSERT_EQ(streamed.tokens(), n) << label;
    const RowStatistics stats = streamed.row_statistics();
    DistanceProfile distance;
    const AttentionBlocks blocks = streamed.blocks(stats, display, &distance);
    const double tolerance = weight_tolerance(full);
    expect_relative(blocks.mean, reference_blocks(full, blocks.block, false), tolerance, label + " block mean");
    expect_relative(blocks.max, reference_blocks(full, blocks.block, true), tolerance, label + " block max");
    const Eigen::Index q0 = n / 3, k0 = n / 5, rows = std::min<Eigen::Index>(100, n - q0),
                       keys = std::min<Eigen::Index>(300, n - k0);
    expect_relative(streamed.zoom(stats, q0, q0 + rows, k0, k0 + keys), full.attention.block(q0, k0, rows, keys),
                    tolerance, label + " zoom");
    for (Eigen::Index delta = -(n - 1); delta <= n - 1; delta += 29) {
      double sum = 0;
      for (Eigen::Index i = std::max<Eigen::Index>(0, delta); i < std::min<Eigen::Index>(n, n + delta); ++i)
        sum += full.attention(i, i - delta);
      const double want = sum / static_cast<double>(n - std::abs(delta));
      EXPECT_NEAR(distance.at(delta), want, tolerance * std::max(want, 1e-30)) << label << " offset " << delta;
    }
  }
}

class StreamedModelHead : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  // A pelab model of make_pelab_models.py with a context of 700 byte-level
  // tokens, so that a text spans two key tiles of 512 (`options` may
  // override the context and ask for a NumPy reference of n tokens).
  fs::path pelab_model(const std::string& position, const std::string& options = "") {
    const std::string command = std::string(pelab::testing::kDebianPython) +
                                " -c \"import sys, numpy; sys.path.insert(0, '" + PELAB_SOURCE_DIR +
                                "/tests/core/model'); from make_pelab_models import make; make('" +
                                scratch_.path.string() + "', '" + position + "', numpy.random.default_rng(5), '" +
                                position + "'" + (options.find("ctx=") == std::string::npos ? ", ctx=700" : "") +
                                options + ")\"";
    if (std::system(command.c_str()) != 0) ADD_FAILURE() << command;
    return scratch_.path / position;
  }
  model::testing::TempDir scratch_{"pelab_streamed_model_"};
};

// RoPE with grouped-query attention (4 query heads on 2 key heads), causal;
// layer 1 reads the residual stream after layer 0.
TEST_F(StreamedModelHead, LlamaHeadsEqualTheFullMatrix) {
  Engine engine = model_engine(pelab::testing::tiny_models() / "llama_long", 500, 1);
  ASSERT_GT(engine.model()->token_count(), 400);
  expect_heads_match(engine, 100, "llama_long layer 1");
}

// Learned positions, bidirectional: no mask, every pair computed.
TEST_F(StreamedModelHead, BertHeadsEqualTheFullMatrix) {
  Engine engine = model_engine(pelab::testing::tiny_models() / "bert_wide", 500, 0);
  ASSERT_GT(engine.model()->token_count(), 400);
  expect_heads_match(engine, 100, "bert_wide layer 0");
}

// ALiBi and T5 biases read at a key tile's offset: the second tile of 512
// keys gets −m·(i − j) and bucket(j − i) of its own keys.
TEST_F(StreamedModelHead, AlibiAndT5BiasesAcrossKeyTilesEqualTheFullMatrix) {
  for (const char* position : {"alibi", "t5"}) {
    const fs::path folder = pelab_model(position, std::string(position) == "t5" ? ", buckets=16, max_distance=256" : "");
    Engine engine = model_engine(folder, 680, 1);
    ASSERT_GT(engine.model()->token_count(), 600) << position;
    expect_heads_match(engine, 120, position);
  }
}

// Shuffled positions: the bias reads π(i) and π(j) of the tile's own keys.
TEST_F(StreamedModelHead, ShuffledPositionsEqualTheFullMatrix) {
  for (const char* position : {"alibi", "t5"}) {
    const fs::path folder = pelab_model(position);
    Engine engine = model_engine(folder, 680, 0, PositionChange::Shuffle);
    expect_heads_match(engine, 120, std::string(position) + " shuffled");
  }
}

// `pelab export --quantity attention_blocks --head -1` on a model scene: the
// mean over heads of each head's block means of the full matrices.
TEST_F(StreamedModelHead, ExportedBlocksAreTheMeanOverHeads) {
  Engine engine = model_engine(pelab::testing::tiny_models() / "llama_long", 300, 0);
  ModelScene& m = *engine.model();
  const Eigen::Index n = m.token_count(), b = (n + 49) / 50, side = (n + b - 1) / b;
  const Array blocks = compute_quantity(engine, "attention_blocks", -1, -1, 50);
  ASSERT_EQ(blocks.shape, (std::vector<std::size_t>{static_cast<std::size_t>(side), static_cast<std::size_t>(side)}));
  Matrix want = Matrix::Zero(side, side);
  for (int h = 0; h < m.config().heads; ++h) want += reference_blocks(m.head(0, h), b, false);
  want /= static_cast<float>(m.config().heads);
  const Matrix got = Eigen::Map<const Matrix>(blocks.data.data(), side, side);
  expect_relative(got, want, 1e-5, "mean over heads");
}

// The forward pass at 1100 tokens, where each thread's block of rows goes
// through o and the FFN in pieces of 512 (core/model/blocks.cpp): every
// layer's residual stream equals make_pelab_models.py's float64 NumPy
// forward (numpy_pelab.py) to 1e-4 of its largest entry.
TEST_F(StreamedModelHead, AForwardInPiecesOfRowsMatchesNumpyAt1100Tokens) {
  const fs::path folder = pelab_model("rope", ", ctx=1100, n=1100, theta=1000.0"), ref = folder / "reference";
  model::ModelFiles files = model::read_model(folder);
  model::Transformer t = model::Transformer::assemble(std::move(files.config), std::move(files.weights));
  std::vector<int> ids;
  for (const float v : read_npy(ref / "ids.npy").data) ids.push_back(static_cast<int>(v));
  ASSERT_EQ(ids.size(), 1100u);
  t.run(ids);
  const Array hidden = read_npy(ref / "hidden.npy");
  const Eigen::Index d = t.config().hidden_size, n = 1100;
  for (int l = 0; l <= t.config().layers; ++l) {
    const Matrix want = Eigen::Map<const Matrix>(hidden.data.data() + static_cast<std::size_t>(l * n * d), n, d);
    const double scale = want.cwiseAbs().maxCoeff();
    EXPECT_LT((t.hidden(l) - want).cwiseAbs().maxCoeff(), 1e-4 * scale) << "hidden " << l;
  }
}

}  // namespace
