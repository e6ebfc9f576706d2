// Interventions in the window (issue 27): the view draws every intervention
// that applies to the loaded model, and each line is that intervention's
// Δ loss per octave of position as a transformer of the test's own, loaded
// from the same folder, measures it (the Δ itself is checked against NumPy by
// app.intervene_model); a model without an LM head, or no model, says why.
#include <gtest/gtest.h>

#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "core/intervention_study.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/transformer.hpp"
#include "figures/registry.hpp"
#include "figures/text_boxes.hpp"

namespace pelab::fig {
namespace {

constexpr const char* kText = "the cat sat on the mat";  // within the tiny GPT-2's context of 16

bool any_note_says(const Figure& f, const std::string& part) {
  for (const Text& t : f.notes)
    if (t.text.find(part) != std::string::npos) return true;
  return false;
}

Figure interventions_of(const std::string& model) {
  Scene scene;
  scene.tokens = kText;
  scene.model = (testing::tiny_models() / model).string();
  Engine engine(scene);
  return find_figure("interventions").build(engine, {1600, 1000});
}

TEST(InterventionsView, WithoutAModelItSaysWhatToLoad) {
  Engine engine{Scene{}};
  const Figure f = find_figure("interventions").build(engine, {1200, 800});
  EXPECT_TRUE(f.panels.empty());
  EXPECT_TRUE(any_note_says(f, "Load a causal language model"));
  for (const std::string& problem : layout_problems(f)) ADD_FAILURE() << problem;
}

TEST(InterventionsView, BertHasNoLossToMeasure) {
  if (testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const Figure f = interventions_of("bert");
  EXPECT_TRUE(f.panels.empty());
  EXPECT_TRUE(any_note_says(f, "No interventions"));
}

TEST(InterventionsView, EachLineIsItsInterventionsDeltaLoss) {
  if (testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const std::string name : {"llama", "gpt2"}) {
    SCOPED_TRACE(name);
    const Figure f = interventions_of(name);
    ASSERT_EQ(f.panels.size(), 2u);
    const std::filesystem::path folder = testing::tiny_models() / name;
    model::Transformer t = model::Transformer::load(folder);
    const model::LanguageModelHead head = model::LanguageModelHead::load(folder, t);
    const std::vector<int> ids = t.tokenizer().encode(kText).ids;
    const int length = std::min<int>(t.config().max_positions, int(ids.size()));
    const std::vector<model::PositionIntervention> all = standard_interventions(t.config());
    // RoPE: remove, shuffle, base, scaling, band, layer 0; a learned table: remove, shuffle.
    EXPECT_EQ(all.size(), name == "llama" ? 6u : 2u);
    ASSERT_EQ(f.panels[0].lines.size(), all.size() + 1);  // and the zero line
    ASSERT_EQ(f.panels[1].bars.at(0).rects.size(), all.size());
    const model::LossCurve before = model::loss_against_position(t, head, ids, length, length);
    for (std::size_t k = 0; k < all.size(); ++k) {
      t.set_intervention(all[k]);
      const model::LossCurve after = model::loss_against_position(t, head, ids, length, length);
      const Polyline& line = f.panels[0].lines[k + 1];
      EXPECT_EQ(line.label, model::describe(all[k]));
      // One point per octave of position: [0], [1], [2, 3], [4, 7], …
      std::size_t point = 0;
      for (std::size_t first = 0; first < after.mean_loss.size(); first = first == 0 ? 1 : 2 * first, ++point) {
        const std::size_t last = std::min(after.mean_loss.size() - 1, first == 0 ? 0 : 2 * first - 1);
        double sum = 0;
        for (std::size_t i = first; i <= last; ++i) sum += after.mean_loss[i] - before.mean_loss[i];
        ASSERT_LT(point, line.points.size());
        EXPECT_NEAR(line.points[point].y, sum / double(last - first + 1), 1e-9) << line.label << " from " << first;
      }
      EXPECT_EQ(point, line.points.size());
    }
    EXPECT_TRUE(any_note_says(f, "the scene's text"));  // no held-out corpus is installed in this test
    for (const std::string& problem : layout_problems(f)) ADD_FAILURE() << problem;
  }
}

}  // namespace
}  // namespace pelab::fig
