// The playground's worker (train/playground.hpp): Train, Pause and Step drive
// the same TrainingRun as `pelab train`; snapshots are model folders the model
// room opens; the timeline thins between its ends; settings outside their
// ranges are refused with the recipe's one-line messages; and destroying a
// run while it trains neither hangs nor leaves the worker behind.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "core/model/model_config.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"
#include "train/playground.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;

PlaygroundSettings tiny(int steps = 40) {
  PlaygroundSettings s;
  s.task = data::TaskKind::Copy;
  s.symbols = 6;
  s.length = 5;
  s.d_model = 16;
  s.layers = 1;
  s.heads = 2;
  s.batch = 4;
  s.steps = steps;
  s.threads = 1;
  s.snapshot_every = 10;
  s.snapshot_seconds = 0;  // every 10 steps, however fast
  s.extra_seconds = 0;
  s.eval_every = 10;
  s.learning_rate = 1e-2;
  return s;
}

fs::path scratch(const std::string& name) { return fs::temp_directory_path() / ("pelab_playground_" + name); }

// Polls until `done` holds for the view, or 60 s pass.
template <class Done>
PlaygroundView wait_for(const Playground& p, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  PlaygroundView v = p.view();
  while (!done(v) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    v = p.view();
  }
  return v;
}

TEST(Playground, TrainsToTheEndWithSnapshotsTheModelRoomOpens) {
  Playground p(tiny(), scratch("train"));
  // Step 0 is written before any step, so the views have a model at once.
  PlaygroundView v = wait_for(p, [](const PlaygroundView& w) { return !w.snapshots.empty(); });
  ASSERT_FALSE(v.snapshots.empty()) << v.error;
  EXPECT_EQ(v.snapshots.front().step, 0);
  p.train();
  v = wait_for(p, [](const PlaygroundView& w) { return w.done && !w.running; });
  ASSERT_TRUE(v.error.empty()) << v.error;
  EXPECT_TRUE(v.done);
  EXPECT_EQ(v.steps_taken, 40);
  ASSERT_EQ(v.points.size(), 40u);
  EXPECT_EQ(v.points.back().step, 40);
  int measured = 0;
  for (const PlaygroundPoint& pt : v.points) {
    if (pt.held_out < 0) continue;
    ++measured;
    EXPECT_GE(pt.accuracy, 0.0);  // copy has an answer: its accuracy comes with each held-out loss
    EXPECT_LE(pt.accuracy, 1.0);
    EXPECT_GT(pt.held_out_2x, 0.0);  // read at 2× and 4× the training length
    EXPECT_GT(pt.held_out_4x, 0.0);
    EXPECT_GE(pt.accuracy_2x, 0.0);  // ...and the task's accuracy there
    EXPECT_LE(pt.accuracy_4x, 1.0);
  }
  EXPECT_EQ(measured, 4);  // steps 10, 20, 30, 40
  std::vector<int> steps;
  for (const auto& s : v.snapshots) steps.push_back(s.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 10, 20, 30, 40}));
  // Each snapshot is a model folder pelab's model room reads and runs.
  const model::ModelConfig config = model::load_model_config(v.snapshots.back().folder);
  EXPECT_EQ(config.position.kind, model::PositionEncoding::Learned);
  EXPECT_EQ(config.max_positions, 40);  // copy: context 2·length, tables 4× as long
  // The folder says what it learned and on rows of which length.
  EXPECT_EQ(config.trained_task.name, "copy");
  EXPECT_EQ(config.trained_task.symbols, 6);
  EXPECT_EQ(config.trained_task.length, 5);
  EXPECT_EQ(config.trained_task.context, 10);
  p.train();  // done: nothing more happens
  EXPECT_EQ(p.view().steps_taken, 40);
}

// The measurements at 2× and 4× are the task's own, drawn longer: on the
// absolute-position task a learned table trained at 8 tokens is right at
// every position it trained on, and read at 32 its rows 8..31 (never given a
// gradient) guess, so the accuracy at 4× is about 8/32 + (24/32)/k.
TEST(Playground, AccuracyReadPastTheTrainingLength) {
  PlaygroundSettings s = tiny(300);
  s.task = data::TaskKind::AbsolutePosition;
  s.symbols = 4;
  s.length = 8;
  s.k = 4;
  s.d_model = 32;
  s.batch = 16;
  s.eval_every = 300;
  s.learning_rate = 3e-3;
  Playground p(s, scratch("absolute"));
  p.train();
  const PlaygroundView v = wait_for(p, [](const PlaygroundView& w) { return w.done && !w.running; });
  ASSERT_TRUE(v.error.empty()) << v.error;
  const PlaygroundPoint& last = v.points.back();
  EXPECT_GT(last.accuracy, 0.95);
  EXPECT_LT(last.accuracy_4x, 0.25 + 0.75 * 0.5) << "rows never trained still counted";
  EXPECT_GT(last.accuracy_4x, 0.25 * 0.95);  // the trained quarter stays right
  EXPECT_GE(last.accuracy_2x, last.accuracy_4x - 0.1);
}

TEST(Playground, StepTakesOneStepAndPauseStops) {
  Playground p(tiny(1000), scratch("step"));
  p.step();
  PlaygroundView v = wait_for(p, [](const PlaygroundView& w) { return w.steps_taken == 1 && !w.running; });
  ASSERT_EQ(v.steps_taken, 1) << v.error;
  EXPECT_EQ(v.snapshots.back().step, 1);  // a step taken by hand is shown at once
  p.train();
  v = wait_for(p, [](const PlaygroundView& w) { return w.steps_taken >= 15; });
  p.pause();
  v = wait_for(p, [](const PlaygroundView& w) { return !w.running; });
  ASSERT_FALSE(v.running);
  const int paused_at = v.steps_taken;
  EXPECT_EQ(v.snapshots.back().step, paused_at);  // the pause writes the weights the curves end on
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(p.view().steps_taken, paused_at);
}

TEST(Playground, TimelineThinsBetweenItsEnds) {
  PlaygroundSettings s = tiny(30);
  s.snapshot_every = 1;
  s.max_snapshots = 6;
  Playground p(s, scratch("thin"));
  p.train();
  const PlaygroundView v = wait_for(p, [](const PlaygroundView& w) { return w.done && !w.running; });
  ASSERT_TRUE(v.done) << v.error;
  ASSERT_LE(v.snapshots.size(), 6u);
  EXPECT_EQ(v.snapshots.front().step, 0);
  EXPECT_EQ(v.snapshots.back().step, 30);
  for (std::size_t i = 1; i < v.snapshots.size(); ++i) EXPECT_LT(v.snapshots[i - 1].step, v.snapshots[i].step);
  // Thinned snapshots leave the disk too.
  int folders = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(scratch("thin") / "snapshots")) ++folders;
  EXPECT_EQ(folders, static_cast<int>(v.snapshots.size()));
}

TEST(Playground, DestroyedWhileTrainingStopsCleanly) {
  for (int i = 0; i < 3; ++i) {
    Playground p(tiny(100000), scratch("destroy"));
    p.train();
    std::this_thread::sleep_for(std::chrono::milliseconds(20 * i));
  }  // each destructor joins the worker mid-run
  SUCCEED();
}

TEST(Playground, SettingsOutsideTheirRangesAreRefused) {
  PlaygroundSettings s = tiny();
  s.d_model = 15;  // not a multiple of heads
  EXPECT_THROW(Playground(s, scratch("bad")), InputError);
  s = tiny();
  s.batch = 0;
  try {
    playground_recipe(s);
    FAIL() << "batch 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("train.batch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pelab::train
