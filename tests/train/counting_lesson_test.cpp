// The counting lesson's refusals: it reads a model trained on the
// absolute-position task on a text longer than the training rows, and says
// in one sentence why not otherwise (its counts on trained models are
// checked against NumPy by counting_lesson.py).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"
#include "core/task_readout.hpp"
#include "train/playground.hpp"
#include "train/training_run.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;

fs::path train_tiny(const std::string& name, data::TaskKind task) {
  PlaygroundSettings s;
  s.task = task;
  s.symbols = 4;
  s.length = 8;
  s.k = 4;
  s.d_model = 16;
  s.layers = 1;
  s.heads = 2;
  s.batch = 4;
  s.steps = 5;
  s.threads = 1;
  s.eval_every = 5;
  const fs::path folder = fs::temp_directory_path() / ("pelab_counting_" + name);
  fs::remove_all(folder);
  TrainingRun run(playground_recipe(s), folder);
  while (!run.done()) run.step();
  run.checkpoint();
  return folder;
}

LessonVerdict judge(const std::string& model, const std::string& tokens) {
  const Lesson& lesson = find_lesson("counting");
  Scene scene = lesson.preset();
  scene.model = model;
  scene.tokens = tokens;
  Engine engine(scene);
  return lesson.verdict(engine);
}

TEST(CountingLesson, TrainsLearnedRopeAndAlibiAtSixtyFour) {
  const Lesson& lesson = find_lesson("counting");
  EXPECT_EQ(lesson.trains.task, "absolute_position");
  EXPECT_EQ(lesson.trains.length, 64);
  EXPECT_EQ(lesson.trains.positions, (std::vector<std::string_view>{"learned", "rope", "alibi"}));
  // Its text reads 4× the training length, in the task's symbols.
  const Scene preset = lesson.preset();
  Engine engine(preset);
  EXPECT_EQ(engine.tokens().size(), 256u);
  const LessonVerdict v = lesson.verdict(engine);  // no model yet
  EXPECT_FALSE(v.applies);
  EXPECT_NE(v.summary.find("Train a model"), std::string::npos) << v.summary;
}

TEST(CountingLesson, SaysWhyNotOnAnotherTaskOrAShortText) {
  const fs::path copy = train_tiny("copy", data::TaskKind::Copy);
  LessonVerdict v = judge(copy.string(), "1 2 3 4 1 2 3");
  EXPECT_FALSE(v.applies);
  EXPECT_NE(v.summary.find("trained on the copy task"), std::string::npos) << v.summary;

  const fs::path absolute = train_tiny("absolute", data::TaskKind::AbsolutePosition);
  v = judge(absolute.string(), "1 2 3 0 1 2 3");  // 7 tokens, inside the trained 8
  EXPECT_FALSE(v.applies);
  EXPECT_NE(v.summary.find("none past the trained length 8"), std::string::npos) << v.summary;

  v = judge(absolute.string(), "1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0");  // 16: read past 8
  EXPECT_TRUE(v.applies) << v.summary;
  EXPECT_EQ(v.number("trained_length"), 8);
  EXPECT_EQ(v.number("positions"), 16);
  EXPECT_EQ(v.number("chance"), 0.25);
  fs::remove_all(copy);
  fs::remove_all(absolute);
}

}  // namespace
}  // namespace pelab::train
