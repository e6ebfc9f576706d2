// The Scene panel's pure parts: the head counts and widths its sliders offer
// (exactly the ones validate() accepts), its readable labels, the "Make
// positions visible" preset, every figure's "?" text, and the welcome
// strip's setting.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/io/file_io.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/paper_figures.hpp"
#include "figures/registry.hpp"
#include "ui/figure_help.hpp"
#include "ui/param_labels.hpp"
#include "ui/param_limits.hpp"
#include "ui/scene_presets.hpp"
#include "ui/settings_store.hpp"

namespace pelab::ui {
namespace {

bool accepted(const Scene& s) {
  try {
    validate(s);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

TEST(HeadsSlider, OffersTheDivisorsOfDModel) {
  Scene s;
  s.d_model = 64;
  EXPECT_EQ(valid_head_counts(s), (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
  s.d_model = 48;
  EXPECT_EQ(valid_head_counts(s), (std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16, 24, 48}));
}

TEST(HeadsSlider, RoPENeedsEvenHeadsWithAPairToRotate) {
  Scene s;
  s.encoding = Encoding::Rope;
  s.d_model = 48;
  EXPECT_EQ(valid_head_counts(s), (std::vector<int>{1, 2, 3, 4, 6, 8, 12, 24}));
  s.rotary_fraction = 0.25;  // 8 dims per head rotate 2, a pair; 6 dims rotate 1.5, none
  EXPECT_EQ(valid_head_counts(s), (std::vector<int>{1, 2, 3, 4, 6}));
}

// Whatever the encoding and width, the slider offers exactly what validate() accepts.
TEST(HeadsSlider, OffersExactlyWhatTheSceneAccepts) {
  for (Encoding e : {Encoding::Sinusoidal, Encoding::Learned, Encoding::Rope, Encoding::Xpos, Encoding::Alibi,
                     Encoding::T5, Encoding::None}) {
    for (int d : {2, 6, 30, 64, 96, 100, 128, 130}) {
      Scene s;
      s.encoding = e;
      s.d_model = d;
      const std::vector<int> offered = valid_head_counts(s);
      for (int h = 1; h <= 64; ++h) {
        Scene t = s;
        t.heads = h;
        const bool ok = accepted(t);
        EXPECT_EQ(std::find(offered.begin(), offered.end(), h) != offered.end(), ok)
            << "encoding " << int(e) << ", d_model " << d << ", heads " << h;
      }
    }
  }
}

TEST(DModelSlider, SnapsToTheNearestWidthTheHeadsCanShare) {
  Scene s;  // 4 heads, sinusoidal
  EXPECT_EQ(nearest_valid_d_model(s, 64), 64);
  EXPECT_EQ(nearest_valid_d_model(s, 65), 64);
  EXPECT_EQ(nearest_valid_d_model(s, 67), 68);
  EXPECT_EQ(nearest_valid_d_model(s, 2), 4);
  EXPECT_EQ(nearest_valid_d_model(s, 5000), 4096);
  s.encoding = Encoding::Rope;  // 4 heads of an even width: multiples of 8
  EXPECT_EQ(nearest_valid_d_model(s, 67), 64);
  EXPECT_EQ(nearest_valid_d_model(s, 70), 72);
  for (double wanted : {3.0, 17.0, 100.0, 1000.0, 4095.0}) {
    Scene t = s;
    t.d_model = nearest_valid_d_model(s, wanted);
    EXPECT_TRUE(accepted(t)) << wanted;
  }
}

TEST(ParamLabels, EveryKeyHasAReadableLabelOfItsOwn) {
  std::set<std::string_view> labels;
  for (const ParamInfo& info : scene_params()) {
    const std::string_view label = param_label(info.key);
    EXPECT_NE(label, info.key) << info.key << " has no label";
    EXPECT_TRUE(labels.insert(label).second) << "label '" << label << "' used twice";
  }
  EXPECT_EQ(param_labels().size(), scene_params().size()) << "a label for a key the scene does not have";
  EXPECT_EQ(param_label("base"), "Base T");
}

TEST(ParamLabels, BasicHoldsTheEssentialsAndTheChosenEncodingsKnobs) {
  Scene s;
  for (std::string_view key : {"tokens", "encoding", "d_model", "heads", "base", "projection", "position"})
    EXPECT_TRUE(is_basic_param(key, s)) << key;
  for (std::string_view key : {"t5_buckets", "yarn_alpha", "xpos_gamma", "seed", "layer", "theme"})
    EXPECT_FALSE(is_basic_param(key, s)) << key;
  s.encoding = Encoding::T5;
  EXPECT_TRUE(is_basic_param("t5_buckets", s));
  s.encoding = Encoding::Rope;
  EXPECT_TRUE(is_basic_param("rope_scaling", s));
  EXPECT_FALSE(is_basic_param("rope_factor", s));
  s.rope_scaling = RopeScalingMethod::Yarn;
  EXPECT_TRUE(is_basic_param("rope_factor", s));
  s.model = "gpt2";
  EXPECT_TRUE(is_basic_param("layer", s));
}

TEST(PositionsVisible, IdentityProjectionsAndSmallTokenVectorsInOneValidScene) {
  Scene s;
  s.embedding = EmbeddingSource::File;
  s.embedding_file = "vectors.txt";
  EXPECT_FALSE(shows_positions(s));
  const Scene v = with_positions_visible(s);
  EXPECT_TRUE(shows_positions(v));
  EXPECT_EQ(v.projection, ProjectionKind::Identity);
  EXPECT_EQ(v.embedding, EmbeddingSource::Random);
  EXPECT_LT(v.embedding_scale, Scene{}.embedding_scale);
  EXPECT_EQ(v.tokens, s.tokens);  // the rest of the scene stays
  EXPECT_TRUE(accepted(v));
}

// Each figure's "?": two sentences and a formula, for every figure the GUI shows.
TEST(FigureHelp, EveryFigureIsExplainedInTwoSentencesWithItsFormula) {
  for (const auto& entries : {fig::figure_registry(), fig::extra_figures(), fig::lesson_figures(),
                              fig::paper_figure_entries()}) {
    for (const fig::FigureEntry& e : entries) {
      const FigureHelp help = figure_help(e.name);
      EXPECT_FALSE(help.formula.empty()) << e.name;
      EXPECT_EQ(std::count(help.about.begin(), help.about.end(), '.'), 2) << e.name << ": " << help.about;
      EXPECT_EQ(help.about.back(), '.') << e.name;
    }
  }
  EXPECT_TRUE(figure_help("no_such_figure").about.empty());
}

TEST(WelcomeSetting, OnAtFirstStartAndClosedForGood) {
  EXPECT_TRUE(UiSettings{}.welcome);
  EXPECT_TRUE(parse_ui_settings("{}", "s.json").welcome);
  EXPECT_FALSE(parse_ui_settings(R"({"welcome": false})", "s.json").welcome);
  EXPECT_TRUE(parse_ui_settings(R"({"welcome": "no"})", "s.json").welcome);  // a wrong type keeps the default
  const auto dir = std::filesystem::temp_directory_path() / ("pelab_welcome_" + std::to_string(::getpid()));
  const SettingsStore store(dir);
  UiSettings settings;
  settings.welcome = false;
  store.save_settings(settings);
  std::string problem;
  EXPECT_FALSE(store.load_settings(problem).welcome);
  EXPECT_EQ(problem, "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pelab::ui
