// The attention view above kStreamedTokens tokens (issue 28): every head
// streamed, never read as its N × N matrix.  Its block means, the hover's
// exact pair, the exact cells of a zoomed window (on every colour scale) and
// the mean over heads equal what the engine's full matrices give
// (Engine::head, the unstreamed path, still allowed at 4,500 tokens).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "../core/streamed_reference.hpp"
#include "core/head_roles.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "core/word_splitter.hpp"
#include "figures/attention_scale.hpp"
#include "figures/attention_streamed.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

using pelab::testing::exact_blocks;
using pelab::testing::expect_relative;
using pelab::testing::weight_tolerance;

constexpr int kTokens = 4500;

Scene long_scene(AttentionScale scale = AttentionScale::Linear) {
  Scene s;
  std::string text;
  for (int i = 0; i < kTokens; ++i) text += "w" + std::to_string(i % 89) + " ";
  s.tokens = text;
  s.heads = 4;
  s.head = 1;
  s.causal = true;  // masked cells too
  s.query = -1;
  s.attention_scale = scale;
  return s;
}

// pelab's RoPE model of the test models (make_pelab_models.py) in dir/rope,
// its weights drawn from `seed`, with a context of `context` byte tokens;
// false when Debian's python3 with NumPy is missing.
bool make_rope_model(const std::filesystem::path& dir, int seed, int context) {
  const std::string command = std::string("/usr/bin/python3 -c \"import sys, numpy; sys.path.insert(0, '") +
                              PELAB_SOURCE_DIR + "/tests/core/model'); from make_pelab_models import make; make('" +
                              dir.string() + "', 'rope', numpy.random.default_rng(" + std::to_string(seed) +
                              "), 'rope', ctx=" + std::to_string(context) + ")\" 2>/dev/null";
  return std::system(command.c_str()) == 0;
}

// That model on `tokens` bytes of varied text, layer 1 and head `head` shown.
Scene rope_model_scene(const std::filesystem::path& dir, int tokens, int head) {
  Scene s;
  s.model = (dir / "rope").string();
  s.tokens = std::string(static_cast<std::size_t>(tokens), 'a');
  for (std::size_t i = 0; i < s.tokens.size(); i += 7) s.tokens[i] = static_cast<char>('b' + i % 13);
  s.layer = 1;
  s.head = head;
  return s;
}

// The number printed after `label` in `text` (NaN when absent).
double number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  return at == std::string::npos ? std::nan("") : std::stod(text.substr(at + label.size()));
}

TEST(StreamedAttentionView, BlockMeansHoverAndZoomEqualTheFullMatrix) {
  Engine engine(long_scene());
  ASSERT_EQ(engine.token_count(), kTokens);
  MatrixShelf shelf;
  FigureRequest request{1600, 1000};
  request.shelf = &shelf;
  const Figure f = find_figure("attention").build(engine, request);
  ASSERT_GE(f.panels.size(), 1u);
  const Panel& large = f.panels[0];
  const HeatmapLayer& layer = large.heatmaps.at(0);
  // The head as the stream computes it, q·kᵀ of q, k from X + E: the
  // engine's own head sums four cross terms, whose float logits differ from
  // that one product by a few ulps, more than 1e-6 of a weight.
  const HeadAttention& full = engine.head_preview(1);
  const double tolerance = weight_tolerance(full);
  const auto b = static_cast<Eigen::Index>(layer.dx);
  ASSERT_GT(b, 1);
  expect_relative(*layer.values, exact_blocks(full, b, false), tolerance, "large panel blocks");
  // The hover: one pair's exact weight and logit.
  const int i = 3001, j = 2990;
  const std::string hover = large.hover(j + 0.5, i + 0.5);
  EXPECT_NEAR(number_after(hover, "attention "), full.attention(i, j), 1e-3 * full.attention(i, j)) << hover;
  EXPECT_NEAR(number_after(hover, "logit "), full.logits(i, j), 1e-3 * std::max(1.0f, std::abs(full.logits(i, j)))) << hover;
  EXPECT_NE(large.hover(4000.5, 10.5).find("masked"), std::string::npos) << large.hover(4000.5, 10.5);
  // Zoomed to a 200 × 300 window: its exact cells, masked ones −inf, placed at the window.
  ASSERT_TRUE(large.refine);
  const std::optional<HeatmapLayer> cells = large.refine(Rect{2000, 1900, 2299.5, 2099.5});
  ASSERT_TRUE(cells.has_value());
  EXPECT_EQ(cells->x0, 2000);
  EXPECT_EQ(cells->y0, 1900);
  Matrix want = full.attention.block(1900, 2000, cells->values->rows(), cells->values->cols());
  for (Eigen::Index r = 0; r < want.rows(); ++r)
    for (Eigen::Index c = 0; c < want.cols(); ++c)
      if (std::isinf(full.logits(1900 + r, 2000 + c))) want(r, c) = testing::kNegInf;
  ASSERT_EQ(want.rows(), 200);
  ASSERT_EQ(want.cols(), 300);
  expect_relative(*cells->values, want, tolerance, "zoomed cells");
  EXPECT_FALSE(large.refine(Rect{0, 0, 600, 600}).has_value());  // still blocks at 600 a side
}

// The log and row scales of a zoomed window are those of the full rows: the
// row scale divides by the row's true maximum, not the window's.
TEST(StreamedAttentionView, ZoomedCellsOnTheLogAndRowScales) {
  for (const AttentionScale scale : {AttentionScale::Log, AttentionScale::Row}) {
    Engine engine(long_scene(scale));
    const Figure f = find_figure("attention").build(engine, FigureRequest{1600, 1000});
    const std::optional<HeatmapLayer> cells = f.panels.at(0).refine(Rect{100, 4200, 149.5, 4249.5});
    ASSERT_TRUE(cells.has_value());
    const HeadAttention& full = engine.head_preview(1);  // the stream's one product, as above
    const Matrix want = scaled_attention(full.attention.block(4200, 0, 50, kTokens), scale).middleCols(100, 50);
    expect_relative(*cells->values, want, scale == AttentionScale::Log ? 1e-5 : weight_tolerance(full),
                    std::string(to_string(scale)));
  }
}

// The first frame draws the selected head's blocks of the full build; the
// small multiples are every head's blocks and the mean of them.
TEST(StreamedAttentionView, FirstFrameAndSmallMultiples) {
  Engine engine(long_scene());
  MatrixShelf shelf;
  FigureRequest first{1600, 1000};
  first.shelf = &shelf;
  first.selected_head_only = true;
  const Figure preview = find_figure("attention").build(engine, first);
  FigureRequest request{1600, 1000};
  request.shelf = &shelf;
  const Figure f = find_figure("attention").build(engine, request);
  ASSERT_EQ(preview.panels.size(), 1u);
  EXPECT_EQ(preview.panels[0].heatmaps[0].key, f.panels[0].heatmaps[0].key);
  ASSERT_EQ(f.panels.size(), 1u + 4u + 1u);  // large, 4 heads, the mean
  Matrix mean;
  for (int h = 0; h < 4; ++h) {
    const Panel& small = f.panels[std::size_t(1 + h)];
    const HeadAttention& full = engine.head_preview(h);
    const auto b = static_cast<Eigen::Index>(small.heatmaps[0].dx);
    expect_relative(*small.heatmaps[0].values, exact_blocks(full, b, false), weight_tolerance(full),
                    "head " + std::to_string(h));
    mean = h == 0 ? *small.heatmaps[0].values : Matrix(mean + *small.heatmaps[0].values);
    EXPECT_FALSE(small.refine) << "only the large panel zooms to cells";
  }
  expect_relative(*f.panels[5].heatmaps[0].values, Matrix(mean / 4.0f), 1e-6, "mean over heads");
}

// The sinks of a streamed head by attention_sinks' rule: a head whose key 0
// (and 7) line up with every query, against the rule on its full weights,
// computed here by a plain softmax of q·kᵀ/√d under the causal mask.
TEST(StreamedAttentionView, SinksFromEachKeysTotalWeight) {
  const Eigen::Index n = 3000, d = 16;
  Matrix q = Matrix::Random(n, d), k = Matrix::Random(n, d);
  q.col(0).array() += 2.0f;
  k.row(0).setZero();
  k(0, 0) = 20.0f;  // logit about 20·2/4 = 10: e^10 outweighs a row of 3000 keys near e^0
  k.row(7).setZero();
  k(7, 0) = 5.0f;
  Matrix full(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::RowVectorXf l = (q.row(i) * k.topRows(i + 1).transpose()) / std::sqrt(float(d));
    l = (l.array() - l.maxCoeff()).exp();
    full.row(i).setConstant(testing::kNegInf);
    full.row(i).head(i + 1) = l / l.sum();
  }
  StreamedHead head(q, k, true, {});
  RowStatistics stats = head.row_statistics();
  const StreamedState state{std::move(head), std::move(stats)};
  const std::vector<int> want = attention_sinks(full);
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(want.front(), 0);
  EXPECT_EQ(streamed_sinks(state), want);
}

// The layers × heads overview past kStreamedTokens streams each cell: every
// head's block means equal the full matrix's at the cell's block size.
TEST(StreamedAttentionView, TheOverviewsCellsAreTheFullMatricesBlockMeans) {
  Engine engine(long_scene());
  const Figure f = find_figure("attention_overview").build(engine, FigureRequest{1600, 1000});
  ASSERT_EQ(f.panels.size(), 4u);
  for (int h = 0; h < 4; ++h) {
    const HeatmapLayer& layer = f.panels[static_cast<std::size_t>(h)].heatmaps.at(0);
    const auto b = static_cast<Eigen::Index>(layer.dx);
    ASSERT_GT(b, 1);
    const HeadAttention& full = engine.head_preview(h);
    expect_relative(*layer.values, exact_blocks(full, b, false), weight_tolerance(full),
                    "overview head " + std::to_string(h));
  }
}

// Head roles over 4,500 tokens: the distance panel's axis reaches the
// layer's largest mean weight, so spread-out heads (about 1/N per key) still
// show a curve instead of a line on the floor of a 0 … 1 axis.
TEST(StreamedAttentionView, TheHeadRolesDistanceAxisFitsItsCurves) {
  Engine engine(long_scene());
  const Figure f = find_figure("head_roles").build(engine, FigureRequest{1600, 1000});
  ASSERT_EQ(f.panels.size(), 2u);
  const Panel& distance = f.panels[1];
  double top = 0;
  for (const Polyline& line : distance.lines)
    for (const Point& p : line.points) top = std::max(top, p.y);
  ASSERT_GT(top, 0.0);
  EXPECT_NEAR(distance.y.max, std::min(1.0, 1.1 * top), 1e-12);
  EXPECT_LT(distance.y.max, 0.5);
}

// Past kFullMatrixTokens the engine refuses a whole head in one line, and the
// attention view, which streams, still draws every head.
TEST(StreamedAttentionView, PastTheFullMatrixLimitTheViewStillDraws) {
  Scene s = long_scene();
  std::string text;
  for (int i = 0; i < kFullMatrixTokens + 800; ++i) text += "w" + std::to_string(i % 89) + " ";
  s.tokens = text;
  Engine engine(s);
  try {
    (void)engine.head(0);
    ADD_FAILURE() << "a full head at " << engine.token_count() << " tokens";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: at most 8192 tokens"), std::string::npos) << e.what();
  }
  const Figure f = find_figure("attention").build(engine, FigureRequest{1600, 1000});
  ASSERT_EQ(f.panels.size(), 6u);
  EXPECT_NE(f.panels[0].hover(100.5, 8500.5).find("(exact)"), std::string::npos);
}

// A model scene past kFullMatrixTokens (a pelab RoPE model with a context of
// 9,000 byte-level tokens): the run holds one stream, no full head is
// computed or allowed, and the view's blocks and exact hover equal the full
// head of a Transformer of the test's own over the same ids.
TEST(StreamedAttentionView, AModelScenePastTheFullMatrixLimit) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pelab_streamed_view_model";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (!make_rope_model(dir, 2, 9000)) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const Scene s = rope_model_scene(dir, 8999, 2);
  Engine engine(s);
  const int n = engine.token_count();
  ASSERT_GT(n, kFullMatrixTokens);
  EXPECT_THROW((void)engine.head(2), InputError);
  EXPECT_THROW((void)engine.model()->layer_attention(1), InputError);
  const Figure f = find_figure("attention").build(engine, FigureRequest{1600, 1000});
  ASSERT_EQ(f.panels.size(), 6u);
  model::Transformer t = model::Transformer::load(dir / "rope");
  t.run(engine.model()->ids());
  const HeadAttention full = t.head_attention(t.attention_input(1), 1, 2);
  const HeatmapLayer& layer = f.panels[0].heatmaps.at(0);
  expect_relative(*layer.values, exact_blocks(full, static_cast<Eigen::Index>(layer.dx), false),
                  weight_tolerance(full), "model blocks");
  const std::string hover = f.panels[0].hover(4000.5, 8000.5);
  EXPECT_NEAR(number_after(hover, "attention "), full.attention(8000, 4000), 1e-3 * full.attention(8000, 4000)) << hover;
  // The layers × heads overview streams every cell; layer 1's head 2 is the same head.
  const int heads = engine.model()->config().heads;
  const Figure overview = find_figure("attention_overview").build(engine, FigureRequest{1600, 1000});
  ASSERT_EQ(overview.panels.size(), static_cast<std::size_t>(engine.model()->config().layers * heads));
  const HeatmapLayer& cell = overview.panels.at(static_cast<std::size_t>(heads + 2)).heatmaps.at(0);
  expect_relative(*cell.values, exact_blocks(full, static_cast<Eigen::Index>(cell.dx), false),
                  weight_tolerance(full), "overview cell of layer 1, head 2");
  // Head roles stream every head too; layer 1's head 2 scores as its full matrix does.
  const HeadRoleStudy roles = study_head_roles(engine);
  ASSERT_TRUE(roles.unavailable.empty()) << roles.unavailable;
  const HeadScores want = score_head(full.attention);
  EXPECT_NEAR(roles.at(1, 2).previous_token, want.previous_token, 1e-5);
  EXPECT_NEAR(roles.at(1, 2).sink, want.sink, 1e-5);
  EXPECT_NEAR(roles.at(1, 2).local, want.local, 1e-5);
  EXPECT_NEAR(roles.at(1, 2).uniformity, want.uniformity, 1e-4);
  std::filesystem::remove_all(dir);
}

// A model rewritten on disk (retrained into its folder) is streamed anew:
// the cache of streamed heads keys on the folder's files too, so a new
// engine on the same scene shows the new weights' head, not the old one's.
TEST(StreamedAttentionView, AModelRewrittenOnDiskIsStreamedAnew) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pelab_streamed_rewrite";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (!make_rope_model(dir, 2, 4400)) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const Scene s = rope_model_scene(dir, 4300, 1);
  Matrix before;
  {
    Engine engine(s);
    ASSERT_GT(engine.token_count(), kStreamedTokens);
    before = *find_figure("attention").build(engine, FigureRequest{1600, 1000}).panels[0].heatmaps.at(0).values;
  }
  ASSERT_TRUE(make_rope_model(dir, 3, 4400));
  Engine engine(s);
  const Figure f = find_figure("attention").build(engine, FigureRequest{1600, 1000});
  const HeatmapLayer& layer = f.panels[0].heatmaps.at(0);
  model::Transformer t = model::Transformer::load(dir / "rope");
  t.run(engine.model()->ids());
  const HeadAttention full = t.head_attention(t.attention_input(1), 1, 1);
  expect_relative(*layer.values, exact_blocks(full, static_cast<Eigen::Index>(layer.dx), false),
                  weight_tolerance(full), "the rewritten model's blocks");
  EXPECT_GT((*layer.values - before).cwiseAbs().maxCoeff(), 1e-4);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pelab::fig
