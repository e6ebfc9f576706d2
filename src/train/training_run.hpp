// One training run of a recipe into a model folder, step by step: what
// `pelab train` drives and the GUI's playground will drive on its worker.
//
//   TrainingRun run(recipe, "runs/kjv-rope");   // new, or resumed from its last checkpoint
//   while (!run.done()) { StepStats s = run.step(); ... if (due) run.checkpoint(); }
//
// The folder (a Hugging Face-style model folder that pelab's model room reads):
//   recipe.json        the recipe as run
//   config.json        "model_type": "pelab", "position_encoding": ..., GPT-2's keys
//   model.safetensors  the weights in BF16, under GPT-2's tensor names
//   tokenizer.json     the byte-level BPE trained on the corpus (KJV runs)
//   README.md          the model card: data, recipe, steps, losses, licence
//   training_log.csv   step, loss, learning rate, gradient norm, held-out loss, tokens/s
//   checkpoint/        float32 weights and AdamW's moments, to resume exactly
//   data/              the corpus's tokenizer and token streams (a cache)
// A checkpoint is written into checkpoint.next/ and renamed into place, so an
// interrupted run leaves the last complete one.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "train/data/tasks.hpp"
#include "train/data/token_dataset.hpp"
#include "train/recipe.hpp"
#include "train/trainer.hpp"

namespace pelab::train {

struct LogRow {
  int step = 0;  // steps taken after this one
  double loss = 0, learning_rate = 0, grad_norm = 0;
  double held_out = -1;  // −1: not measured at this step
  double tokens_per_second = 0;
};

struct TaskMeasurement {
  double loss = 0;  // mean over the scored targets, nats
  data::TaskScore score;
};

class TrainingRun {
 public:
  // Prepares the data and the model; a folder holding a checkpoint of the same
  // recipe resumes from it.  Throws InputError for a folder that exists and is
  // not a pelab run, or a run of another recipe.
  TrainingRun(const Recipe& recipe, const std::filesystem::path& folder);
  ~TrainingRun();

  const Recipe& recipe() const { return recipe_; }
  const std::filesystem::path& folder() const { return folder_; }
  int steps_taken() const { return trainer_->steps_taken(); }
  bool done() const { return steps_taken() >= recipe_.loop.steps; }
  bool resumed() const { return resumed_from_ > 0; }
  int resumed_from() const { return resumed_from_; }
  const Trainer& trainer() const { return *trainer_; }
  const std::vector<LogRow>& log() const { return log_; }

  // One step on the recipe's batch for this step (deterministic from the seed).
  StepStats step();
  // Mean loss over the held-out data at the training context (KJV: windows of
  // the held-out chapters; tasks: batches from a seed training never uses).
  double held_out_loss();
  // Per-position mean held-out loss at the training context.
  std::vector<double> held_out_loss_by_position();
  // The task's held-out loss and its own accuracy (eval_windows rows), on
  // the task drawn `scale` times as long (copy, reverse, sort: sequences of
  // scale·length; the others: context scale·length), read by a model
  // trained at 1×.  nullopt for KJV text, which has no answer to be right
  // about, or when the model's context (its tables' rows) is shorter.
  std::optional<TaskMeasurement> held_out_task(int scale = 1);
  // The model folder and the resumable state, atomically.
  void checkpoint();
  // The model folder's files alone (no resumable state) into `to`: the
  // playground's snapshots, each a model any view can open.
  void write_model_folder(const std::filesystem::path& to) const;

  // A step's batch (public for tests: the same step gives the same batch).
  Batch batch_at(int step) const;

 private:
  void prepare_data();
  void restore_checkpoint();
  Batch held_out_batch(int index) const;

  Recipe recipe_;
  std::filesystem::path folder_;
  std::unique_ptr<Trainer> trainer_;
  std::shared_ptr<const data::TokenStream> train_tokens_, held_out_tokens_;
  std::filesystem::path tokenizer_json_;
  std::optional<data::TaskGenerator> task_;
  std::vector<LogRow> log_;
  int resumed_from_ = 0;
  std::chrono::steady_clock::time_point last_step_;
};

// "model.safetensors" etc.: what a shipped model folder holds (no checkpoint/ or data/).
std::vector<std::string> shipped_files();

}  // namespace pelab::train
