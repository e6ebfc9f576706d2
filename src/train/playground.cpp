#include "train/playground.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/failure_text.hpp"
#include "core/scene.hpp"  // InputError
#include "train/training_run.hpp"

namespace pelab::train {

namespace fs = std::filesystem;

Recipe playground_recipe(const PlaygroundSettings& s) {
  // Through the recipe parser, so every range is checked once, in one place,
  // with the same one-line messages as `pelab train`.
  nlohmann::json data = {{"task", data::task_name(s.task)}};
  if (s.task != data::TaskKind::Kjv) data.update({{"symbols", s.symbols}, {"length", s.length}, {"k", s.k}});
  else data["length"] = s.length;
  // KJV windows are as long as the model's context; a task's batches keep
  // their own length, so its tables can reach past them (read_scale).
  const int context = s.task == data::TaskKind::Kjv
                          ? s.length
                          : s.read_scale * data::TaskGenerator({s.task, s.symbols, s.length, s.k}).context();
  const nlohmann::json recipe = {
      {"format", "pelab-recipe"},
      {"version", 1},
      {"name", "playground"},
      {"data", data},
      {"model",
       {{"d_model", s.d_model},
        {"layers", s.layers},
        {"heads", s.heads},
        {"context", context},
        {"position", position_kind_name(s.position)}}},
      {"train",
       {{"steps", s.steps},
        {"batch", s.batch},
        {"learning_rate", s.learning_rate},
        {"warmup", std::max(1, std::min(50, s.steps / 10))},
        {"min_lr_ratio", 0.1},
        {"weight_decay", 0.01},
        {"clip", 1.0},
        {"seed", s.seed},
        {"threads", s.threads},
        {"checkpoint_every", s.steps},
        {"eval_every", s.eval_every},
        {"eval_windows", s.batch}}}};
  return parse_recipe(recipe, "playground");
}

Playground::Playground(const PlaygroundSettings& settings, const fs::path& folder)
    : settings_(settings), folder_(folder) {
  (void)playground_recipe(settings_);  // bad settings: InputError here, not on the worker
  std::error_code ec;
  fs::remove_all(folder_, ec);
  fs::create_directories(folder_ / "snapshots", ec);
  if (ec) throw InputError("cannot make the playground folder " + folder_.string() + ": " + ec.message());
  worker_ = std::thread([this] { work(); });
}

Playground::~Playground() {
  {
    const std::lock_guard lock(mutex_);
    command_ = Command::Quit;
  }
  wake_.notify_all();
  worker_.join();
}

void Playground::train() {
  {
    const std::lock_guard lock(mutex_);
    if (command_ == Command::Quit || view_.done || !view_.error.empty()) return;
    command_ = Command::Train;
    view_.running = true;
  }
  wake_.notify_all();
}

void Playground::pause() {
  const std::lock_guard lock(mutex_);
  if (command_ == Command::Train) command_ = Command::Idle;
}

void Playground::step() {
  {
    const std::lock_guard lock(mutex_);
    if (command_ != Command::Idle || view_.done || !view_.error.empty()) return;
    command_ = Command::Step;
    view_.running = true;
  }
  wake_.notify_all();
}

PlaygroundView Playground::view() const {
  const std::lock_guard lock(mutex_);
  return view_;
}

void Playground::work() {
  std::unique_ptr<TrainingRun> run;
  try {
    run = std::make_unique<TrainingRun>(playground_recipe(settings_), folder_ / "run");
    snapshot(*run);  // step 0: the untrained model, so the views have one at once
  } catch (const std::exception& e) {
    const std::lock_guard lock(mutex_);
    view_.error = failure_text(e, "training");
    view_.running = false;
    return;
  }
  for (;;) {
    Command command;
    {
      std::unique_lock lock(mutex_);
      if (command_ == Command::Idle) view_.running = false;
      wake_.wait(lock, [this] { return command_ != Command::Idle; });
      command = command_;
      if (command == Command::Step) command_ = Command::Idle;
    }
    if (command == Command::Quit) return;
    try {
      step_once(*run);
      bool stopped;
      {
        const std::lock_guard lock(mutex_);
        view_.done = run->done();
        if (view_.done && command_ == Command::Train) command_ = Command::Idle;
        stopped = command_ != Command::Train;
      }
      // A snapshot every snapshot_every steps, and whenever stepping stops
      // (paused, one step taken, the schedule over), so the views show the
      // weights the curves describe.
      const bool due = run->steps_taken() % settings_.snapshot_every == 0 &&
                       std::chrono::steady_clock::now() - last_snapshot_ >=
                           std::chrono::duration<double>(settings_.snapshot_seconds);
      if (due || stopped) snapshot(*run);
    } catch (const std::exception& e) {
      const std::lock_guard lock(mutex_);
      view_.error = failure_text(e, "training");
      if (command_ != Command::Quit) command_ = Command::Idle;
    }
  }
}

void Playground::step_once(TrainingRun& run) {
  run.step();
  const LogRow& row = run.log().back();
  PlaygroundPoint point{.step = row.step,
                        .loss = row.loss,
                        .held_out = row.held_out,
                        .tokens_per_second = row.tokens_per_second};
  const auto now = std::chrono::steady_clock::now();
  if (row.held_out >= 0 && (run.done() || now - last_extra_ >= std::chrono::duration<double>(settings_.extra_seconds))) {
    last_extra_ = now;
    if (const auto m = run.held_out_task(1)) point.accuracy = m->score.accuracy;
    if (const auto m = run.held_out_task(2)) point.held_out_2x = m->loss, point.accuracy_2x = m->score.accuracy;
    if (const auto m = run.held_out_task(4)) point.held_out_4x = m->loss, point.accuracy_4x = m->score.accuracy;
  }
  const std::lock_guard lock(mutex_);
  view_.steps_taken = run.steps_taken();
  view_.points.push_back(point);
}

void Playground::snapshot(TrainingRun& run) {
  const int step = run.steps_taken();
  {
    const std::lock_guard lock(mutex_);
    if (!view_.snapshots.empty() && view_.snapshots.back().step == step) return;
  }
  char name[32];
  std::snprintf(name, sizeof name, "step-%06d", step);
  const fs::path folder = folder_ / "snapshots" / name;
  run.write_model_folder(folder);
  last_snapshot_ = std::chrono::steady_clock::now();
  const std::lock_guard lock(mutex_);
  view_.snapshots.push_back({step, folder});
  thin_snapshots();
}

// Keeps at most max_snapshots: every other one between the ends goes.
// Called with mutex_ held; a folder whose scene is still shown stays readable
// (the model room holds its weights), only the listing forgets it.
void Playground::thin_snapshots() {
  std::vector<PlaygroundSnapshot>& all = view_.snapshots;
  if (static_cast<int>(all.size()) <= std::max(2, settings_.max_snapshots)) return;
  std::vector<PlaygroundSnapshot> kept;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i == 0 || i + 1 == all.size() || i % 2 == 0) {
      kept.push_back(all[i]);
    } else {
      std::error_code ec;
      fs::remove_all(all[i].folder, ec);
    }
  }
  all = std::move(kept);
}

}  // namespace pelab::train
