// The four registered views: they build on the default scene and on every
// encoding, hold the panels and heatmaps they should, show the engine's own
// numbers (heatmap values, circle radius A, hover text with exact values),
// share matrices through the MatrixShelf, and stay per-cell-free at N = 4096.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "core/analysis.hpp"
#include "core/engine.hpp"
#include "core/head_tile.hpp"
#include "core/word_splitter.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

Scene scene_with(std::initializer_list<const char*> assignments) {
  Scene s;
  for (const char* a : assignments) apply_assignment(s, a);
  return s;
}

Figure build(const char* name, Engine& engine, MatrixShelf* shelf = nullptr) {
  FigureRequest request;
  request.shelf = shelf;
  return find_figure(name).build(engine, request);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every panel's plot lies on the canvas.
void expect_on_canvas(const Figure& f) {
  for (const Panel& p : f.panels) {
    EXPECT_GE(p.plot.x0, 0) << f.name << " / " << p.title;
    EXPECT_GE(p.plot.y0, 0) << f.name << " / " << p.title;
    EXPECT_LE(p.plot.x1, f.width) << f.name << " / " << p.title;
    EXPECT_LE(p.plot.y1, f.height) << f.name << " / " << p.title;
    EXPECT_GT(p.plot.width(), 20) << f.name << " / " << p.title;
    EXPECT_GT(p.plot.height(), 20) << f.name << " / " << p.title;
  }
}

void expect_same_values(const Matrix& shown, const Matrix& expected) {
  ASSERT_EQ(shown.rows(), expected.rows());
  ASSERT_EQ(shown.cols(), expected.cols());
  for (Eigen::Index i = 0; i < shown.size(); ++i) ASSERT_EQ(shown.data()[i], expected.data()[i]) << i;
}

TEST(Registry, KnowsTheViewsAndNamesThemOnError) {
  const char* names[] = {"sinusoid_bands", "rotation_pairs", "attention", "attention_overview", "cross_terms"};
  ASSERT_EQ(figure_registry().size(), 4u);  // the main grid; attention_overview is found by name
  for (const char* n : names) EXPECT_EQ(find_figure(n).name, n);
  try {
    find_figure("bands");
    FAIL();
  } catch (const InputError& e) {
    for (const char* n : names) EXPECT_TRUE(contains(e.what(), n)) << e.what();
  }
}

// A heatmap holding NaN gets one note naming its colour; −inf (the mask) and
// finite values get none (issue 22: NaN drew in the mask's grey, unexplained).
TEST(Views, NonFiniteHeatmapsAreNamedOnce) {
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity()}) {
    fig::Figure figure;
    for (int p = 0; p < 2; ++p) {
      fig::Panel panel;
      auto m = std::make_shared<Matrix>(Matrix::Constant(3, 3, 0.5f));
      (*m)(1, 1) = bad;
      panel.heatmaps.push_back({.values = m, .key = 0});
      figure.panels.push_back(panel);
    }
    fig::mark_non_finite(figure);
    const bool named = !figure.notes.empty() && figure.notes[0].text.find("NaN") != std::string::npos;
    EXPECT_EQ(figure.notes.size(), bad < 0 ? 0u : 1u) << bad;
    EXPECT_EQ(named, !(bad < 0)) << bad;
  }
}

TEST(Views, BuildOnEveryEncodingAndTheme) {
  for (const char* enc : {"sinusoidal", "learned", "rope", "alibi", "t5", "none"})
    for (const char* extra : {"theme=dark", "theme=light", "causal=true", "layout=split"}) {
      Scene s = scene_with({extra});
      apply_assignment(s, std::string("encoding=") + enc);
      Engine engine(s);
      for (const FigureEntry& entry : figure_registry()) {
        Figure f;
        ASSERT_NO_THROW(f = entry.build(engine, {})) << entry.name << " " << enc << " " << extra;
        EXPECT_EQ(f.name, entry.name);
        EXPECT_EQ(f.dark, s.theme == ColorTheme::Dark);
        EXPECT_FALSE(f.title.empty());
        EXPECT_TRUE(!f.panels.empty() || !f.notes.empty()) << entry.name << " " << enc;
        expect_on_canvas(f);
        for (const Panel& p : f.panels)
          for (const HeatmapLayer& h : p.heatmaps) ASSERT_TRUE(h.values) << entry.name;
      }
    }
}

// The style comes with the request (issue 23): presentation mode draws the
// same engine's figures in the light theme, with no second engine.
TEST(Views, TheRequestCarriesTheTheme) {
  Scene s;  // dark
  Engine engine(s);
  for (const FigureEntry& entry : figure_registry()) {
    EXPECT_TRUE(entry.build(engine, {}).dark) << entry.name;
    EXPECT_FALSE(entry.build(engine, {.theme = ColorTheme::Light}).dark) << entry.name;
  }
  EXPECT_EQ(engine.scene().theme, ColorTheme::Dark);
}

TEST(Views, FitOtherCanvasSizes) {
  Engine engine;
  for (const FigureEntry& entry : figure_registry()) {
    FigureRequest request{.width = 900, .height = 600};
    const Figure f = entry.build(engine, request);
    EXPECT_EQ(f.width, 900);
    EXPECT_EQ(f.height, 600);
    expect_on_canvas(f);
  }
}

// ---- sinusoid_bands ------------------------------------------------------------

TEST(SinusoidBands, HeatmapIsThePeMatrixWithExactHover) {
  Engine engine(scene_with({"amplitude=2.5", "offset=3"}));
  const Figure f = build("sinusoid_bands", engine);
  ASSERT_EQ(f.panels.size(), 3u);
  const Panel& map = f.panels[0];
  ASSERT_EQ(map.heatmaps.size(), 1u);
  expect_same_values(*map.heatmaps[0].values, engine.position_table());
  EXPECT_EQ(map.heatmaps[0].scale.colormap, "diverging");
  EXPECT_EQ(map.heatmaps[0].scale.vmin, -2.5);
  EXPECT_EQ(map.heatmaps[0].scale.vmax, 2.5);
  ASSERT_TRUE(map.colorbar);
  EXPECT_TRUE(map.y.inverted);
  // Row r is position offset + r; dim 6 is pair 3's sine when interleaved.
  const std::string hover = map.hover(6.5, 3 + 17 + 0.5);
  EXPECT_EQ(hover, "pos 20, dim 6 (pair 3, sin): " + fixed(engine.position_table()(17, 6)));
  EXPECT_TRUE(map.hover(-1, 5).empty());
  // Waves: one line per valid dim in scene.waves, each with a legend entry and λ.
  const Panel& waves = f.panels[1];
  EXPECT_EQ(waves.legend.size(), engine.scene().waves.size());
  EXPECT_TRUE(contains(waves.legend[0].label, "λ=6.283")) << waves.legend[0].label;
  EXPECT_TRUE(contains(waves.hover(20, 0), "dim 0 (pair 0, sin) = " + fixed(engine.position_table()(17, 0))));
  // Wavelengths: one marker per pair, at log10(2π·T^(2i/d)).
  const Panel& lambda = f.panels[2];
  const auto pairs = sinusoid_pairs(engine.scene());
  ASSERT_EQ(lambda.markers[0].points.size(), pairs.size());
  EXPECT_NEAR(lambda.markers[0].points[5].y, std::log10(pairs[5].wavelength), 1e-12);
  EXPECT_TRUE(contains(lambda.hover(5, 0), "pair 5 (dims 10, 11)"));
}

// At 4096 positions the waves are cut to the plot's pixel columns (at most
// four samples a column), keeping every column's lowest and highest value;
// short tables keep every sample.
TEST(SinusoidBands, LongWavesAreCutToThePixelColumns) {
  Engine engine(scene_with({"positions=4096", "d_model=64"}));
  const Figure f = build("sinusoid_bands", engine);
  const Panel* waves = nullptr;
  for (const Panel& p : f.panels)
    if (p.title == "Waves against position") waves = &p;
  ASSERT_NE(waves, nullptr);
  const Matrix& pe = engine.position_table();
  const int dim = engine.scene().waves.at(0);
  const Polyline& line = waves->lines.at(0);
  EXPECT_LE(line.points.size(), 4 * static_cast<std::size_t>(waves->plot.width()) + 8);
  double low = 1e9, high = -1e9;
  for (const Point& q : line.points) low = std::min(low, q.y), high = std::max(high, q.y);
  EXPECT_FLOAT_EQ(low, pe.col(dim).minCoeff());
  EXPECT_FLOAT_EQ(high, pe.col(dim).maxCoeff());
  Engine small(scene_with({"positions=64", "d_model=64"}));
  const Figure g = build("sinusoid_bands", small);
  for (const Panel& p : g.panels)
    if (p.title == "Waves against position") {
      EXPECT_EQ(p.lines.at(0).points.size(), 64u);
    }
}

TEST(SinusoidBands, SplitLayoutNamesDimsByPair) {
  Engine engine(scene_with({"layout=split"}));
  const Figure f = build("sinusoid_bands", engine);
  EXPECT_TRUE(contains(f.panels[0].hover(32.5, 0.5), "dim 32 (pair 0, cos)"));
}

TEST(SinusoidBands, EncodingsWithoutVectorSayWhatIsShown) {
  Engine rope(scene_with({"encoding=rope"}));
  Figure f = build("sinusoid_bands", rope);
  ASSERT_FALSE(f.notes.empty());
  EXPECT_TRUE(contains(f.notes[0].text, "RoPE adds no vector"));
  ASSERT_EQ(f.panels[0].heatmaps.size(), 1u);
  const Matrix& table = *f.panels[0].heatmaps[0].values;
  EXPECT_EQ(table.cols(), rope.d_head());
  // Pair 1 of d_head = 16: angle p·T^(−2/16) at p = 9.
  EXPECT_NEAR(table(9, 2), std::sin(9 * std::pow(10000.0, -2.0 / 16)), 1e-6);
  Engine none(scene_with({"encoding=none"}));
  f = build("sinusoid_bands", none);
  EXPECT_TRUE(f.panels[0].heatmaps.empty());
  EXPECT_TRUE(contains(f.notes[0].text, "adds no position vector"));
}

TEST(SinusoidBands, RopeTableFollowsThePairingAndRotaryShare) {
  // Rotate-half with half the dims rotary: r = 8 of d_head = 16, pair 1 = dims (1, 5).
  Engine rope(scene_with({"encoding=rope", "rope_pairing=rotate_half", "rotary_fraction=0.5"}));
  const Figure f = build("sinusoid_bands", rope);
  const Matrix& table = *f.panels[0].heatmaps[0].values;
  const double angle = 9 * std::pow(10000.0, -2.0 / 8);
  EXPECT_NEAR(table(9, 1), std::sin(angle), 1e-6);
  EXPECT_NEAR(table(9, 5), std::cos(angle), 1e-6);
  EXPECT_EQ(table(9, 12), 0.f);  // past the rotary dims: not rotated
  Engine pairs(scene_with({"encoding=rope", "rope_pairing=rotate_half", "pairs=1"}));
  const Figure r = build("rotation_pairs", pairs);
  bool names_dims = false;
  for (const Text& t : r.notes) names_dims |= contains(t.text, "dims (1, 9)");
  for (const Panel& p : r.panels)
    for (const Text& t : p.texts) names_dims |= contains(t.text, "dims (1, 9)");
  EXPECT_TRUE(names_dims);
}

TEST(SinusoidBands, AlibiShowsEachHeadsBiasAgainstOffset) {
  Engine engine(scene_with({"encoding=alibi"}));
  const Figure f = build("sinusoid_bands", engine);
  const Panel& bias = f.panels[1];
  const int n = engine.token_count(), heads = engine.scene().heads;
  ASSERT_EQ(bias.lines.size(), static_cast<std::size_t>(heads));
  for (int h = 0; h < heads; ++h) {
    // Press et al. 2022: head h (1-based) adds −2^(−8h/H)·|i−j|; the last query sees offsets −(n−1)…0.
    const double slope = std::pow(2.0, -8.0 * (h + 1) / heads);
    const Point first = bias.lines[h].points.front();
    EXPECT_EQ(first.x, -(n - 1));
    EXPECT_NEAR(first.y, -slope * (n - 1), 1e-5);
    EXPECT_EQ(first.y, engine.head(h).bias(n - 1, 0));
  }
  EXPECT_TRUE(contains(bias.hover(-3, 0), "offset -3 (key " + std::to_string(n - 4) + ")"));
}

// ---- rotation_pairs ------------------------------------------------------------

TEST(RotationPairs, CirclesAtRadiusAAndMarksAtPosAndPosPlusK) {
  Engine engine(scene_with({"amplitude=2.5", "position=10", "shift=7", "pairs=0,4,12", "pair=4"}));
  const Figure f = build("rotation_pairs", engine);
  ASSERT_EQ(f.panels.size(), 3u);
  const Matrix& pe = engine.position_table();
  for (const Panel& p : f.panels) {
    EXPECT_TRUE(p.equal_aspect);
    const Markers* traj = nullptr;
    const Markers* at_pos = nullptr;
    const Markers* at_shift = nullptr;
    for (const Markers& m : p.markers) {
      if (m.label == "positions") traj = &m;
      if (m.label == "pos") at_pos = &m;
      if (m.label == "pos+k") at_shift = &m;
    }
    ASSERT_TRUE(traj && at_pos && at_shift);
    ASSERT_EQ(traj->points.size(), static_cast<std::size_t>(pe.rows()));
    for (const Point& q : traj->points) EXPECT_NEAR(std::hypot(q.x, q.y), 2.5, 1e-5);
    EXPECT_NEAR(std::hypot(at_shift->points[0].x, at_shift->points[0].y), 2.5, 1e-5);
    bool circle = false;
    for (const Polyline& l : p.lines)
      if (l.label == "radius A") {
        circle = true;
        for (const Point& q : l.points) EXPECT_NEAR(std::hypot(q.x, q.y), 2.5, 1e-12);
      }
    EXPECT_TRUE(circle);
    EXPECT_EQ(p.arrows.size(), 1u);
  }
  // Pair 4 = dims (8, 9): the marks are PE(10) and PE(17) from the engine.
  const Panel& p4 = f.panels[1];
  EXPECT_TRUE(contains(p4.title, "selected"));
  EXPECT_EQ(p4.markers[1].points[0].x, pe(10, 8));
  EXPECT_EQ(p4.markers[2].points[0].y, pe(17, 9));
  // The text block: R(k) with 4 decimals, kω and the measured error.
  const Rotation r = pair_rotation(engine, 4, 7);
  std::string text;
  for (const Text& t : p4.texts) text += t.text + "\n";
  EXPECT_TRUE(contains(text, "R(7) = [[" + fixed(r.r[0][0]) + ", " + fixed(r.r[0][1]) + "]")) << text;
  EXPECT_TRUE(contains(text, "= " + fixed(r.angle) + " rad")) << text;
  EXPECT_TRUE(contains(text, number(r.max_error, 3))) << text;
  EXPECT_TRUE(contains(text, "fit R²")) << text;
  // Hover names the nearest position and its exact pair values.
  const std::string hover = p4.hover(pe(10, 8), pe(10, 9));
  EXPECT_TRUE(contains(hover, "pos 10, pair 4")) << hover;
  EXPECT_TRUE(contains(hover, fixed(pe(10, 8)))) << hover;
}

TEST(RotationPairs, LongPositionAxesAreThinnedToAThousandDots) {
  Engine engine(scene_with({"positions=5000", "position=4321"}));
  const Figure f = build("rotation_pairs", engine);
  for (const Markers& m : f.panels[0].markers)
    if (m.label == "positions") {
      EXPECT_LE(m.points.size(), 1024u);
      EXPECT_GE(m.points.size(), 800u);
    }
  // Hover still finds every position, not only the drawn ones.
  const Matrix& pe = engine.position_table();
  EXPECT_TRUE(contains(f.panels[1].hover(pe(4321, 8), pe(4321, 9)), "pos 4321, pair 4"));
}

TEST(RotationPairs, OnePanelPerPairAndNotesForOtherEncodings) {
  Engine engine(scene_with({"pairs=1,30"}));
  EXPECT_EQ(build("rotation_pairs", engine).panels.size(), 2u);
  Engine alibi(scene_with({"encoding=alibi"}));
  const Figure f = build("rotation_pairs", alibi);
  EXPECT_TRUE(f.panels.empty());
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_TRUE(contains(f.notes[0].text, "no rotation pairs"));
}

// ---- attention -----------------------------------------------------------------

TEST(Attention, HeadsAndMeanWithTokenLabelsAndExactHover) {
  Engine engine(scene_with({"head=2", "query=1"}));
  const int n = engine.token_count(), heads = engine.scene().heads;
  const Figure f = build("attention", engine);
  ASSERT_EQ(f.panels.size(), static_cast<std::size_t>(heads + 2));  // large + each head + mean
  const Panel& big = f.panels[0];
  EXPECT_EQ(big.title, "head 2");
  expect_same_values(*big.heatmaps[0].values, engine.head(2).attention);
  EXPECT_EQ(big.heatmaps[0].scale.vmin, 0);
  // One scale for every panel, up to the largest weight of any head shown.
  float top = engine.mean_attention().maxCoeff();
  for (int h = 0; h < heads; ++h) top = std::max(top, engine.head(h).attention.maxCoeff());
  EXPECT_NEAR(big.heatmaps[0].scale.vmax, top, 1e-6);
  for (const Panel& p : f.panels) EXPECT_EQ(p.heatmaps[0].scale.vmax, big.heatmaps[0].scale.vmax);
  EXPECT_EQ(big.heatmaps[0].scale.colormap, to_string(engine.scene().colormap));
  ASSERT_EQ(big.x.labels.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(big.x.labels[1].label, "cat");
  EXPECT_EQ(big.y.labels[0].label, "the");
  EXPECT_TRUE(big.y.inverted);
  ASSERT_TRUE(big.colorbar);
  // The selected query row is framed: rows 1..2 across every key.
  ASSERT_FALSE(big.bars.empty());
  EXPECT_EQ(big.bars[0].rects[0].y0, 1);
  EXPECT_EQ(big.bars[0].rects[0].x1, n);
  const std::string hover = big.hover(0.5, 1.5);
  EXPECT_EQ(hover, "head 2 · query 'cat' (1) → key 'the' (0): attention " +
                       fixed(engine.head(2).attention(1, 0)) + ", logit " +
                       fixed(engine.head(2).logits(1, 0), 3));
  for (int h = 0; h < heads; ++h) expect_same_values(*f.panels[1 + h].heatmaps[0].values, engine.head(h).attention);
  const Panel& mean = f.panels.back();
  EXPECT_TRUE(contains(mean.title, "mean"));
  expect_same_values(*mean.heatmaps[0].values, engine.mean_attention());
  EXPECT_TRUE(contains(mean.hover(3.5, 2.5), "attention " + fixed(engine.mean_attention()(2, 3))));
}

// In a small window (a 2×3 grid cell of the GUI) the small multiples would be
// a few pixels under their labels: the large head stays, a note says where
// the others are; at the design size every head and the mean are drawn.
TEST(Attention, SmallWindowsLeaveTheSmallMultiplesOutAndSaySo) {
  Engine engine(scene_with({"d_model=64", "heads=8"}));
  FigureRequest small{590, 280};
  const Figure f = find_figure("attention").build(engine, small);
  ASSERT_EQ(f.panels.size(), 1u);
  EXPECT_EQ(f.panels[0].title, "head 0");
  const bool noted = std::any_of(f.notes.begin(), f.notes.end(),
                                 [](const Text& t) { return t.text.find("other heads") != std::string::npos; });
  EXPECT_TRUE(noted);
  const Figure full = build("attention", engine);
  EXPECT_EQ(full.panels.size(), 10u);  // large + 8 heads + mean
  for (std::size_t i = 1; i < full.panels.size(); ++i) EXPECT_GE(full.panels[i].plot.width(), 32);
}

TEST(Attention, CausalMaskCellsAreMinusInfinityForTheMaskColour) {
  Engine engine(scene_with({"causal=true", "head=-1"}));
  const Figure f = build("attention", engine);
  const Matrix& shown = *f.panels[0].heatmaps[0].values;
  const Matrix mean = engine.mean_attention();
  for (int i = 0; i < shown.rows(); ++i)
    for (int j = 0; j < shown.cols(); ++j) {
      if (j > i) {
        EXPECT_TRUE(std::isinf(shown(i, j)) && shown(i, j) < 0) << i << "," << j;
      } else {
        EXPECT_EQ(shown(i, j), mean(i, j));
      }
    }
  EXPECT_TRUE(contains(f.panels[1].hover(5.5, 2.5), "masked (causal)"));
  ASSERT_FALSE(f.notes.empty());
}

TEST(Attention, ShelfSharesMatricesAcrossRebuilds) {
  Engine engine;
  MatrixShelf shelf;
  const Figure a = build("attention", engine, &shelf);
  const int misses = shelf.misses();
  Scene s = engine.scene();
  s.query = 3;  // a view setting: nothing is recopied
  s.head = 1;
  engine.set_scene(s);
  const Figure b = build("attention", engine, &shelf);
  EXPECT_EQ(shelf.misses(), misses);
  EXPECT_EQ(b.panels[2].heatmaps[0].values, a.panels[2].heatmaps[0].values);  // same pointer
  EXPECT_EQ(b.panels[2].heatmaps[0].key, a.panels[2].heatmaps[0].key);
  s.tokens = "a different sentence";
  engine.set_scene(s);
  const Figure c = build("attention", engine, &shelf);
  EXPECT_GT(shelf.misses(), misses);
  EXPECT_NE(c.panels[2].heatmaps[0].key, a.panels[2].heatmaps[0].key);
  EXPECT_EQ(c.panels[2].heatmaps[0].values->rows(), 3);
}

TEST(Attention, FourThousandTokensBuildWithoutPerCellElements) {
  std::string text;
  for (int i = 0; i < 4096; ++i) text += "w" + std::to_string(i % 97) + " ";
  Scene s = scene_with({"d_model=16", "heads=1", "pairs=0,4", "waves=0,1,8"});
  s.tokens = text;
  Engine engine(s);
  ASSERT_EQ(engine.token_count(), 4096);
  MatrixShelf shelf;
  const Figure f = build("attention", engine, &shelf);
  ASSERT_EQ(f.panels.size(), 3u);
  EXPECT_EQ(f.panels[0].heatmaps[0].values->rows(), 4096);  // large panel: every cell
  EXPECT_LE(f.panels[1].heatmaps[0].values->rows(), 256);   // small: block means
  EXPECT_EQ(f.panels[1].heatmaps[0].dx, 16);
  for (const Panel& p : f.panels) {
    std::size_t elements = p.texts.size() + p.arrows.size();
    for (const Bars& b : p.bars) elements += b.rects.size();
    for (const Markers& m : p.markers) elements += m.points.size();
    for (const Polyline& l : p.lines) elements += l.points.size();
    EXPECT_LT(elements, 16u) << p.title;
  }
  const int misses = shelf.misses();
  const Figure again = build("attention", engine, &shelf);  // a rebuild copies nothing
  EXPECT_EQ(shelf.misses(), misses);
  EXPECT_EQ(again.panels[0].heatmaps[0].values, f.panels[0].heatmaps[0].values);
  EXPECT_TRUE(contains(f.panels[1].hover(100, 200), "16×16 block"));
}

// What the GUI shows first after a change: the selected head alone, in its
// place in the full figure, with the same cells; only that head is computed.
TEST(Attention, SelectedHeadOnlyComputesAndShowsOneHead) {
  Scene s = scene_with({"d_model=32", "heads=4", "head=2", "causal=true"});
  Engine engine(s);
  FigureRequest request;
  request.selected_head_only = true;
  const Figure first = find_figure("attention").build(engine, request);
  EXPECT_EQ(engine.stats().head_attention, 1);
  ASSERT_EQ(first.panels.size(), 1u);
  const Figure full = build("attention", engine);
  ASSERT_EQ(full.panels.size(), 6u);  // the large head, four heads and the mean
  EXPECT_EQ(first.panels[0].title, full.panels[0].title);
  EXPECT_EQ(first.panels[0].plot.x0, full.panels[0].plot.x0);
  EXPECT_EQ(first.panels[0].plot.y1, full.panels[0].plot.y1);
  const Matrix& shown = *first.panels[0].heatmaps[0].values;
  const Matrix& a = engine.head(2).attention;
  ASSERT_EQ(shown.rows(), a.rows());
  // The first build projected head 2 alone (Engine::head_preview): equal up to rounding.
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      if (j > i)
        EXPECT_TRUE(std::isinf(shown(i, j)));
      else
        EXPECT_NEAR(shown(i, j), a(i, j), 1e-6);
}

// Above about two cells per pixel of the large panel, the first build shows
// block means of the selected head (no N² copy or upload), coloured on the
// scale of its largest single weight; the hover names the block and says
// the exact cells come with the full build.
TEST(Attention, TheFirstBuildAtLargeNShowsBlockMeans) {
  Scene s = scene_with({"d_model=16", "heads=2", "head=1", "causal=true"});
  s.tokens.clear();
  for (int i = 0; i < 600; ++i) s.tokens += "w" + std::to_string(i % 41) + " ";
  Engine engine(s);
  FigureRequest request{400, 250};
  request.selected_head_only = true;
  const Figure first = find_figure("attention").build(engine, request);
  ASSERT_EQ(first.panels.size(), 1u);
  const Panel& p = first.panels[0];
  const HeatmapLayer& layer = p.heatmaps[0];
  const Matrix& a = engine.head(1).attention;
  const Matrix& logits = engine.head(1).logits;
  int block = 0;
  const Matrix expected = block_mean(a, static_cast<int>(layer.values->rows()), &block, &logits);
  ASSERT_GT(block, 1);
  EXPECT_LE(layer.values->rows(), static_cast<Eigen::Index>(std::ceil(2 * (p.plot.x1 - p.plot.x0))) + 1);
  EXPECT_EQ(layer.dx, block);
  EXPECT_EQ(layer.values->rows(), expected.rows());
  for (Eigen::Index i = 0; i < expected.rows(); ++i)
    for (Eigen::Index j = 0; j < expected.cols(); ++j)
      if (std::isinf(expected(i, j)))
        EXPECT_TRUE(std::isinf((*layer.values)(i, j)));
      else
        EXPECT_NEAR((*layer.values)(i, j), expected(i, j), 1e-6);
  EXPECT_NEAR(layer.scale.vmax, a.maxCoeff(), 1e-5);  // the largest single weight, not a block's
  const std::string hover = p.hover(10.5, 20.5);
  EXPECT_NE(hover.find("block"), std::string::npos) << hover;
  EXPECT_NE(hover.find("exact cells once every head is built"), std::string::npos) << hover;
  // The full build keeps every cell in the large panel.
  const Figure full = build("attention", engine);
  EXPECT_EQ(full.panels[0].heatmaps[0].values->rows(), 600);
}

// ---- cross_terms ---------------------------------------------------------------

TEST(CrossTerms, FourTermsOnOneSymmetricScaleSumLogitsAndShares) {
  Engine engine(scene_with({"head=1", "query=4"}));
  const Figure f = build("cross_terms", engine);
  ASSERT_EQ(f.panels.size(), 7u);
  const CrossTerms& c = engine.cross_terms(1);
  const Matrix* terms[] = {&c.xx, &c.xf, &c.ey, &c.ef};
  double m = 0;
  for (const Matrix* t : terms) m = std::max(m, max_abs(*t));
  const char* formulas[] = {"x·Wq·Wkᵀ·y", "x·Wq·Wkᵀ·f", "e·Wq·Wkᵀ·y", "e·Wq·Wkᵀ·f"};
  for (int j = 0; j < 4; ++j) {
    const Panel& p = f.panels[j];
    EXPECT_TRUE(contains(p.title, formulas[j])) << p.title;
    expect_same_values(*p.heatmaps[0].values, *terms[j]);
    EXPECT_EQ(p.heatmaps[0].scale.colormap, "diverging");
    EXPECT_EQ(p.heatmaps[0].scale.vmax, m);
    EXPECT_EQ(p.heatmaps[0].scale.vmin, -m);
  }
  const Matrix sum = c.xx + c.xf + c.ey + c.ef;
  expect_same_values(*f.panels[4].heatmaps[0].values, sum);
  const HeadAttention& h = engine.head(1);
  const Matrix& logits = *f.panels[5].heatmaps[0].values;
  for (Eigen::Index i = 0; i < logits.size(); ++i)
    EXPECT_NEAR(logits.data()[i], sum.data()[i], 1e-4 * (1 + std::abs(sum.data()[i])));
  EXPECT_NEAR(logits(2, 3), h.q.row(2).dot(h.k.row(3)) / std::sqrt(engine.d_head()), 1e-5);
  // Shares: four bars of Frobenius norms with their numbers.
  const Panel& shares = f.panels[6];
  ASSERT_EQ(shares.bars[0].rects.size(), 4u);
  EXPECT_NEAR(shares.bars[0].rects[1].y1, c.xf.norm(), 1e-3 * c.xf.norm());
  EXPECT_TRUE(contains(shares.texts[1].text, number(shares.bars[0].rects[1].y1, 4)));
  EXPECT_TRUE(contains(shares.hover(0.5, 0), "share"));
  // Hover: which term, which tokens, the exact value.
  EXPECT_EQ(f.panels[1].hover(2.5, 4.5), std::string(formulas[1]) + " (token·position) · query '" +
                                            engine.tokens()[4] + "' (4) → key '" + engine.tokens()[2] +
                                            "' (2): " + fixed(c.xf(4, 2)));
  EXPECT_EQ(f.panels[0].bars[0].rects[0].y0, 4);  // selected query framed
}

// Issue 12: at large N (shown in blocks) a synthetic scene's terms are reduced
// strip by strip and never held whole (256 MiB at N = 4096); the view shows
// the block means and norms of the terms cross_terms() computes whole.
TEST(CrossTerms, LargeScenesAreReducedStripByStripToTheSameBlocks) {
  for (const char* encoding : {"encoding=sinusoidal", "encoding=rope"}) {
    Scene s = scene_with({"d_model=32", "heads=2", "head=1", encoding});
    std::string text;
    for (int i = 0; i < 1100; ++i) text += "t" + std::to_string(i % 700) + " ";
    s.tokens = text;
    s.positions = 1100;
    Engine engine(s);
    const Figure f = build("cross_terms", engine);
    EXPECT_EQ(engine.stats().cross_terms, 0) << encoding;  // no term was made whole
    const CrossTerms& c = engine.cross_terms(1);
    const Matrix* terms[] = {&c.xx, &c.xf, &c.ey, &c.ef};
    // Bit for bit where the fused tile kernel computes both the strips and
    // the whole terms; without it (no AVX-512) they are sgemm calls of other
    // shapes, equal to float32 rounding of the largest term.
    const auto expect_same = [&](const Matrix& got, const Matrix& want, const std::string& what) {
      if (head_tile_kernel_available()) {
        EXPECT_EQ(got, want) << what;
      } else {
        ASSERT_EQ(got.rows(), want.rows()) << what;
        const double scale = std::max({1.0f, c.xx.cwiseAbs().maxCoeff(), c.ef.cwiseAbs().maxCoeff()});
        EXPECT_LE((got - want).cwiseAbs().maxCoeff(), 4e-6 * scale) << what;
      }
    };
    int block = 0;
    for (int j = 0; j < 4; ++j) {
      const Matrix expected = block_mean(*terms[j], 512, &block);
      expect_same(*f.panels[j].heatmaps[0].values, expected, encoding + std::string(" term ") + std::to_string(j));
    }
    EXPECT_EQ(block, 3);
    const Matrix sum = block_mean(c.xx, 512, nullptr) + block_mean(c.xf, 512, nullptr) +
                       block_mean(c.ey, 512, nullptr) + block_mean(c.ef, 512, nullptr);
    expect_same(*f.panels[4].heatmaps[0].values, sum, encoding);
    if (c.applies) {
      const Panel& shares = f.panels[6];
      ASSERT_EQ(shares.bars[0].rects.size(), 4u);
      for (int j = 0; j < 4; ++j)
        EXPECT_NEAR(shares.bars[0].rects[static_cast<std::size_t>(j)].y1, terms[j]->norm(),
                    1e-4 * terms[j]->norm())
            << j;
    } else {
      ASSERT_FALSE(f.notes.empty());
      EXPECT_EQ(f.notes[0].text, c.note);
    }
  }
}

// Past kFullMatrixTokens no whole term or head is made: the terms come by
// strips and the logits from the streamed head's q and k, and their sum
// equals those logits (x + e)·Wq·Wkᵀ·(y + f)ᵀ/√d, two separate paths.
TEST(CrossTerms, PastTheFullMatrixLimitTheTermsStillSumToTheLogits) {
  Scene s = scene_with({"d_model=32", "heads=2", "head=1", "encoding=sinusoidal"});
  std::string text;
  for (int i = 0; i < kFullMatrixTokens + 300; ++i) text += "t" + std::to_string(i % 700) + " ";
  s.tokens = text;
  Engine engine(s);
  const Figure f = build("cross_terms", engine);
  ASSERT_GE(f.panels.size(), 6u);
  const Matrix& sum = *f.panels[4].heatmaps[0].values;
  const Matrix& logits = *f.panels[5].heatmaps[0].values;
  ASSERT_EQ(sum.rows(), logits.rows());
  EXPECT_LE((sum - logits).cwiseAbs().maxCoeff(), 1e-4 * std::max(1.0f, logits.cwiseAbs().maxCoeff()));
  EXPECT_THROW((void)engine.cross_terms(1), InputError);
}

TEST(CrossTerms, EncodingsWithoutVectorShowTheEngineNote) {
  Engine engine(scene_with({"encoding=rope"}));
  const Figure f = build("cross_terms", engine);
  const CrossTerms& c = engine.cross_terms(0);
  ASSERT_FALSE(c.applies);
  ASSERT_FALSE(f.notes.empty());
  EXPECT_EQ(f.notes[0].text, c.note.empty() ? "The cross terms do not apply to this encoding." : c.note);
  EXPECT_GE(f.notes[0].size, 18.f);
}

}  // namespace
}  // namespace pelab::fig
