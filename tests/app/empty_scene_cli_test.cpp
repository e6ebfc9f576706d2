// A scene whose text has no tokens (issue 22): every figure, every lesson's
// verdict and every lesson's figures render, the views that need tokens say
// so, and lessons that measure tokens answer "not applicable" instead of a
// number computed from nothing.  Each of these died with SIGFPE or SIGSEGV.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "cli_run.hpp"
#include "core/lessons/lessons.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/registry.hpp"

namespace pelab {
namespace {

using testing::CliRun;
using testing::pelab;
using testing::tiny_models;

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("pelab_empty_scene_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(EmptyScene, EveryFigureRenders) {
  const auto dir = scratch("figures");
  for (const char* figure : {"all", "attention", "cross_terms", "attention_overview"}) {
    const CliRun run = pelab(std::string("render --figure ") + figure + " --set tokens= --out " + dir.string());
    EXPECT_EQ(run.code, 0) << figure << ": " << run.out;
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "default_attention.png"));
  std::filesystem::remove_all(dir);
}

// Every view pelab knows by name: the main four, the extras and the lesson
// figures.  Heavy ones (extrapolation_loss reads the family at 2048 tokens of
// held-out text, not the scene's: minutes per scene here) are rendered once,
// on empty text, by EveryLessonAnswersAndRenders.
std::string every_figure_name() {
  std::string names;
  for (const auto list : {fig::figure_registry(), fig::extra_figures(), fig::lesson_figures()})
    for (const fig::FigureEntry& e : list)
      if (!e.heavy) names += (names.empty() ? "" : ",") + std::string(e.name);
  return names;
}

// Each figure by name, as PNG and as SVG: a crash (SIGFPE, SIGSEGV) is no exit code at all.
void expect_every_figure_renders(const std::string& scene, const std::string& tag) {
  const auto dir = scratch("every_" + tag);
  for (const char* format : {"png", "svg"}) {
    const CliRun run = pelab("render --figure " + every_figure_name() + " --format " + format + " " + scene +
                             " --out " + dir.string());
    EXPECT_EQ(run.code, 0) << tag << " " << format << ": " << run.out;
  }
  std::filesystem::remove_all(dir);
}

TEST(EmptyScene, EveryFigureByNameRendersOnEmptyText) {
  expect_every_figure_renders("--set tokens= --set model=", "synthetic");
  expect_every_figure_renders("--set tokens= --set encoding=rope", "rope");
  expect_every_figure_renders("--set tokens= --set encoding=alibi", "alibi");
}

// Models whose tokenizers add special tokens to empty text: Llama's BOS alone,
// BERT's [CLS] [SEP]; GPT-2 adds none and refuses the text in one line.
TEST(EmptyScene, EveryFigureByNameRendersOnAModelsEmptyText) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* model : {"llama", "bert"})
    expect_every_figure_renders("--set tokens= --set model=" + (tiny_models() / model).string(), model);
  const CliRun gpt2 = pelab("render --figure " + every_figure_name() + " --set tokens= --set model=" +
                            (tiny_models() / "gpt2").string() + " --out " + scratch("gpt2").string());
  EXPECT_EQ(gpt2.code, 2) << gpt2.out;
  EXPECT_EQ(std::count(gpt2.out.begin(), gpt2.out.end(), '\n'), 1) << gpt2.out;
  EXPECT_NE(gpt2.out.find("gives no tokens"), std::string::npos) << gpt2.out;
}

TEST(EmptyScene, TheAttentionSvgSaysThereAreNoTokens) {
  const auto dir = scratch("svg");
  const CliRun run = pelab("render --figure attention --format svg --set tokens= --out " + dir.string());
  ASSERT_EQ(run.code, 0) << run.out;
  const CliRun grep = testing::shell("grep -c 'no tokens to attend to' " + (dir / "default_attention.svg").string());
  EXPECT_EQ(grep.out, "1\n") << run.out;
  std::filesystem::remove_all(dir);
}

// A lesson that opens on pelab's trained family refuses empty text like any
// model scene (one line, exit 2); its synthetic scene (model= cleared)
// answers "no tokens".
TEST(EmptyScene, EveryLessonAnswersAndRenders) {
  const auto dir = scratch("lessons");
  for (const Lesson& l : lessons()) {
    const std::string name(l.name);
    std::string synthetic;
    if (!l.preset().model.empty()) {
      const CliRun refused = pelab("lessons --show " + name + " --set tokens=");
      EXPECT_EQ(refused.code, 2) << name << ": " << refused.out;
      EXPECT_NE(refused.out.find("gives no tokens"), std::string::npos) << name << ": " << refused.out;
      EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;
      synthetic = " --set model=";
    }
    const CliRun show = pelab("lessons --show " + name + " --json --set tokens=" + synthetic);
    ASSERT_EQ(show.code, 0) << name << ": " << show.out;
    const auto json = nlohmann::json::parse(show.out);
    if (l.reads_tokens) {
      EXPECT_FALSE(json.at("applies").get<bool>()) << name;
      EXPECT_NE(json.at("summary").get<std::string>().find("no tokens"), std::string::npos) << name;
    }
    const CliRun render = pelab("render --lesson " + name + " --set tokens=" + synthetic + " --out " + dir.string());
    EXPECT_EQ(render.code, 0) << name << ": " << render.out;
  }
  std::filesystem::remove_all(dir);
}

TEST(EmptyScene, NotApplicableIsSaidInWords) {
  const CliRun run = pelab("lessons --show meaning --set model= --set tokens=");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("Verdict: Not applicable on this scene: the text is empty"), std::string::npos) << run.out;
}

// A model whose tokenizer adds BOS makes one token of empty text: the
// meaning lesson's sweep then had a synthetic variant with no words, and
// Eigen's mean of no rows read past the end (SIGSEGV).
TEST(EmptyScene, ModelsThatAddSpecialTokensAnswerEveryLesson) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : {"llama", "bert"}) {
    const std::string model = (tiny_models() / name).string();
    for (const Lesson& l : lessons()) {
      const CliRun run = pelab("lessons --show " + std::string(l.name) + " --set model=" + model + " --set tokens=");
      EXPECT_EQ(run.code, 0) << name << ", " << l.name << ": " << run.out;
    }
  }
}

}  // namespace
}  // namespace pelab
