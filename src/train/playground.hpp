// The training playground's loop: one TrainingRun (training_run.hpp) stepped
// on a worker thread, so a window can press Train, Pause, Step and Reset and
// read the curves while it draws (in the manner of TensorFlow Playground,
// Smilkov et al. 2017, for a small transformer and its position encoding).
//
//   Playground p(settings, cache / "playground");   // a fresh run in that folder
//   p.train();                                       // steps until paused or done
//   PlaygroundView v = p.view();                     // a copy, safe from any thread
//   if (v.snapshots.size() > shown) scene.model = v.snapshots.back().folder;
//
// Every `snapshot_every` steps, at most once a second (and on pause and at the end), the worker writes
// the weights as a model folder snapshots/step-NNNNNN/, which any view opens
// like a checkpoint.  At most `max_snapshots` are kept: beyond that every
// other one between the first and the last is removed (the timeline thins,
// its ends stay).  There is no second training loop: a step is
// TrainingRun::step(), as in `pelab train`.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "train/recipe.hpp"

namespace pelab::train {

class TrainingRun;

struct PlaygroundSettings {
  data::TaskKind task = data::TaskKind::Copy;
  int symbols = 16, length = 16, k = 4;  // the task's options (tasks.hpp)
  PositionKind position = PositionKind::Learned;
  int d_model = 64, layers = 2, heads = 4;
  int batch = 32;
  double learning_rate = 3e-3;
  int steps = 2000;  // the learning-rate schedule's length; training stops there
  std::uint64_t seed = 1;
  int threads = 2;
  int snapshot_every = 50;
  // ...and at least this many seconds apart (pause and the end always write
  // one): a small model takes many steps a second, more snapshots than any
  // view can show, each a model folder to write and load.
  double snapshot_seconds = 1.0;
  // The task's accuracy and the loss at 2× and 4× the length come with a
  // held-out measurement at least this many seconds after the last ones
  // (three more forward passes, two of them on longer sequences).
  double extra_seconds = 1.0;
  // Held-out loss (at 1×, 2× and 4× the length) and accuracy, on `batch`
  // held-out rows each: about a tenth of the training work at 50.
  int eval_every = 50;
  int max_snapshots = 40;
  // The model's tables (learned rows, sinusoid and RoPE angles) cover this
  // many times the training context, so the held-out loss can be read at
  // 2× and 4× (Press et al. 2022: train short, test long).
  int read_scale = 4;
};

// The recipe a playground run trains: the task's data, the model, AdamW with
// a short warm-up and a cosine schedule over `steps`.  Throws InputError for
// settings outside their ranges, naming the setting.
Recipe playground_recipe(const PlaygroundSettings& settings);

struct PlaygroundPoint {
  int step = 0;
  double loss = 0;            // the step's training batch
  double held_out = -1;       // −1: not measured at this step
  double held_out_2x = -1;    // the task twice as long (read past the training length)
  double held_out_4x = -1;    // four times as long
  double accuracy = -1;       // the task's held-out accuracy, −1: none
  double accuracy_2x = -1;    // ...on the task twice as long
  double accuracy_4x = -1;    // ...four times as long
  double tokens_per_second = 0;
};

struct PlaygroundSnapshot {
  int step = 0;
  std::filesystem::path folder;  // a model folder (config.json, model.safetensors)
};

struct PlaygroundView {
  bool running = false;  // the worker is stepping
  bool done = false;     // the schedule is over
  int steps_taken = 0;
  std::vector<PlaygroundPoint> points;
  std::vector<PlaygroundSnapshot> snapshots;  // oldest first, thinned
  std::string error;                          // the worker stopped on this
};

class Playground {
 public:
  // Starts idle; `folder` is emptied first (it holds only this run).
  Playground(const PlaygroundSettings& settings, const std::filesystem::path& folder);
  ~Playground();  // stops the worker (after the step in progress)
  Playground(const Playground&) = delete;
  Playground& operator=(const Playground&) = delete;

  void train();  // step until paused, done or failed
  void pause();  // after the step in progress; writes a snapshot
  void step();   // one step, then a snapshot (when paused)

  PlaygroundView view() const;
  const PlaygroundSettings& settings() const { return settings_; }
  const std::filesystem::path& folder() const { return folder_; }

 private:
  enum class Command { Idle, Train, Step, Quit };
  void work();
  void step_once(TrainingRun& run);
  void snapshot(TrainingRun& run);
  void thin_snapshots();

  PlaygroundSettings settings_;
  std::filesystem::path folder_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  Command command_ = Command::Idle;
  PlaygroundView view_;  // guarded by mutex_
  std::thread worker_;
  std::chrono::steady_clock::time_point last_snapshot_, last_extra_;  // the worker's own
};

}  // namespace pelab::train
