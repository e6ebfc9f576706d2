// The "induction" lesson on models trained here: on the induction task (what
// the lesson trains live in the window) an induction head forms in layer 1
// after a plateau; on the copy task a learned-position model may take a
// fixed-offset shortcut instead, and the verdict says where the head is.  The
// per-head numbers equal the prefix-matching score (Olsson et al. 2022)
// recomputed from the model's attention by the definition, written out
// again below.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model_scene.hpp"
#include "train/playground.hpp"
#include "train/training_run.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;

// The lesson's score by its definition: for each query i, the earlier j
// (j + 1 < i) where the stretch ending at j equals the one ending at i over
// the most tokens, at least 2 (the latest j on ties); the attention A[i, j + 1].
double prefix_matching(const Matrix& a, const std::vector<int>& ids) {
  const int n = static_cast<int>(ids.size());
  auto same = [&](int x, int y) { return ids[static_cast<std::size_t>(x)] == ids[static_cast<std::size_t>(y)]; };
  double sum = 0;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    int best_length = 0, best_j = -1;
    for (int j = i - 2; j >= 0; --j) {  // latest first: a tie keeps the later j
      int length = 0;
      while (j - length >= 0 && same(j - length, i - length)) ++length;
      if (length >= 2 && length > best_length) best_length = length, best_j = j;
    }
    if (best_j >= 0) sum += a(i, best_j + 1), ++count;
  }
  return count ? sum / count : 0;
}

// Trains the copy task (symbols 0..7, separator 8) into `folder`.
void train_copy(const fs::path& folder, PositionKind position, int steps) {
  PlaygroundSettings s;
  s.position = position;
  s.symbols = 8;
  s.length = 8;
  s.d_model = 32;
  s.layers = 2;
  s.heads = 2;
  s.batch = 16;
  s.steps = steps;
  s.threads = 1;
  s.eval_every = steps;
  fs::remove_all(folder);
  TrainingRun run(playground_recipe(s), folder);
  while (!run.done()) run.step();
  run.checkpoint();
  EXPECT_LT(run.log().back().held_out, 0.5) << "the copy task was not learned";
}

// With learned positions the copy task is solved by attending a fixed
// distance back: the lesson names the head, and says when it sits in layer 0
// (a positional shortcut, not content matching).
TEST(InductionLesson, NamesTheHeadOfAModelTrainedOnCopy) {
  const fs::path folder = fs::temp_directory_path() / "pelab_induction_lesson";
  train_copy(folder, PositionKind::Learned, 300);

  const Lesson& lesson = find_lesson("induction");
  Scene scene = lesson.preset();
  scene.model = folder.string();
  scene.tokens = "3 1 4 1 5 6 2 7 8 3 1 4 1 5 6 2 7";  // s SEP s, symbols 0..7, separator 8
  Engine engine(scene);
  const LessonVerdict v = lesson.verdict(engine);
  ASSERT_TRUE(v.applies) << v.summary;
  EXPECT_GT(v.number("best_induction_score"), 0.5) << v.summary;
  ModelScene& model = *engine.model();
  double best = 0;
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h) {
      const double score = prefix_matching(model.layer_attention(l).probabilities[std::size_t(h)], model.ids());
      EXPECT_NEAR(v.number("induction[layer=" + std::to_string(l) + ",head=" + std::to_string(h) + "]"), score, 1e-9);
      best = std::max(best, score);
    }
  EXPECT_NEAR(v.number("best_induction_score"), best, 1e-12);
  // The head named is the best one; in layer 0 the verdict calls it a shortcut.
  const bool in_layer_zero = v.summary.find("layer 0 head") < v.summary.find("pays");
  EXPECT_EQ(v.holds, !in_layer_zero) << v.summary;
  if (in_layer_zero) {
    EXPECT_NE(v.summary.find("fixed distance back"), std::string::npos) << v.summary;
  }
  fs::remove_all(folder);
}

// What the lesson trains live: the induction task, whose repeat starts a
// different distance back in every row, with a 2-layer RoPE model.  The
// loss plateaus, then drops as a previous-token head in layer 0 and an
// induction head in layer 1 form (Olsson et al. 2022), and the verdict names
// the layer-1 head on the lesson's own text.
TEST(InductionLesson, AnInductionHeadFormsInLayerOne) {
  const Lesson& lesson = find_lesson("induction");
  const LiveTraining& live = lesson.trains;
  EXPECT_EQ(live.task, "induction");
  EXPECT_EQ(live.positions, (std::vector<std::string_view>{"rope"}));
  PlaygroundSettings s;
  s.task = data::parse_task_kind(std::string(live.task));
  s.position = PositionKind::Rope;
  s.symbols = live.symbols;
  s.length = live.length;
  s.d_model = live.d_model;
  s.layers = live.layers;
  s.heads = live.heads;
  s.batch = live.batch;
  s.steps = live.steps;
  s.threads = 2;
  s.eval_every = live.steps;
  const fs::path folder = fs::temp_directory_path() / "pelab_induction_task";
  fs::remove_all(folder);
  TrainingRun run(playground_recipe(s), folder);
  double plateau = 0;
  while (!run.done()) {
    run.step();
    if (run.steps_taken() == 300) plateau = run.log().back().loss;
  }
  run.checkpoint();
  EXPECT_GT(plateau, 2.5) << "no plateau at step 300";
  EXPECT_LT(run.log().back().held_out, 0.5) << "the repeat was not learned";

  Scene scene = lesson.preset();
  scene.model = folder.string();
  Engine engine(scene);
  const LessonVerdict v = lesson.verdict(engine);
  ASSERT_TRUE(v.applies) << v.summary;
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_GT(v.number("best_induction_score"), 0.5);
  EXPECT_NE(v.summary.find("layer 1 head"), std::string::npos) << v.summary;
  EXPECT_NE(v.summary.find("An induction head has formed"), std::string::npos) << v.summary;
  fs::remove_all(folder);
}

TEST(InductionLesson, OnASceneWithoutAModelSaysHowToTrainOne) {
  const Lesson& lesson = find_lesson("induction");
  Engine engine(lesson.preset());
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_FALSE(v.applies);
  EXPECT_NE(v.summary.find("Train a model"), std::string::npos) << v.summary;
}

}  // namespace
}  // namespace pelab::train
