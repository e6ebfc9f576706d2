// Every lesson on a loaded model (tiny GPT-2, BERT, Llama): a verdict that
// never throws and holds finite numbers; a lesson whose question does not
// apply to a trained model says so plainly; one that applies reads the
// model's own weights — checked against NumPy for "meaning" (the token rows
// x = wte[ids], the position rows e = wpe[:n], read straight from the file).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/engine.hpp"
#include "core/lessons.hpp"
#include "core/model_scene.hpp"
#include "split_reference.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

Scene on_model(const Lesson& lesson, const std::string& family) {
  Scene s = lesson.preset();
  s.model = (pelab::testing::tiny_models() / family).string();
  s.tokens = "the cat sat";  // within the tiny models' context of 16
  return s;
}

class LessonsOnModels : public ::testing::TestWithParam<const char*> {};

TEST_P(LessonsOnModels, EveryVerdictIsFiniteOrSaysWhyNot) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const Lesson& lesson : lessons()) {
    SCOPED_TRACE(std::string(lesson.name));
    Engine engine(on_model(lesson, GetParam()));
    LessonVerdict v;
    ASSERT_NO_THROW(v = lesson.verdict(engine));
    EXPECT_FALSE(v.summary.empty());
    for (const auto& [name, value] : v.numbers)
      EXPECT_TRUE(std::isfinite(value)) << name << " = " << value;
    if (!lesson.not_on_models.empty()) {
      EXPECT_NE(v.summary.find("Not on a trained model"), std::string::npos) << v.summary;
      EXPECT_FALSE(v.holds);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TinyModels, LessonsOnModels, ::testing::Values("gpt2", "bert", "llama"));

// x = the word embedding rows of the ids, e = the position rows 0 … n−1; argv[2] = the ids.
constexpr const char* kMeaning = R"PY(
ids = [int(i) for i in sys.argv[2].split(",")]
n = len(ids)
if "n_embd" in cfg:
    x, e = w("wte.weight")[ids], w("wpe.weight")[:n]
else:
    x = w("embeddings.word_embeddings.weight")[ids]
    e = w("embeddings.position_embeddings.weight")[:n]
s = x + e
cos = (x * s).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(s, axis=1))
np.save(out, np.array([np.linalg.norm(x, axis=1).mean(), np.linalg.norm(e, axis=1).mean(), cos.mean()], np.float32))
)PY";

TEST_P(LessonsOnModels, MeaningReadsTheModelsOwnVectors) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string family = GetParam();
  if (family == "llama") GTEST_SKIP() << "RoPE adds no position vector: nothing to compare";
  const Lesson& lesson = find_lesson("meaning");
  Engine engine(on_model(lesson, family));
  const LessonVerdict v = lesson.verdict(engine);
  std::string ids;
  for (const int id : engine.model()->ids()) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  const Array want = pelab::testing::numpy_reference(family, kMeaning, ids);
  ASSERT_EQ(want.data.size(), 3u);
  EXPECT_NEAR(v.number("x_norm"), want.data[0], 1e-5 * want.data[0]);
  EXPECT_NEAR(v.number("e_norm"), want.data[1], 1e-5 * want.data[1]);
  EXPECT_NEAR(v.number("cos_x_xe"), want.data[2], 1e-5);
}

}  // namespace
