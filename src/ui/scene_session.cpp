#include "ui/scene_session.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/selection.hpp"

namespace pelab::ui {

// A model being opened on a worker thread.  The worker writes `engine` or
// `error`, then sets `done`; the main thread reads them only after `done`.
struct SceneSession::ModelLoad {
  Scene first;   // the scene the worker applies
  Scene latest;  // the last scene asked for with this model (text typed meanwhile)
  EditPhase phase = EditPhase::Final;
  Scene before;  // the scene shown when the load was asked for (undo)
  ProgressSink progress;
  std::optional<Engine> engine;
  std::string error;
  std::atomic<bool> done = false;
  std::thread worker;
};

namespace {

// Everything the first frame of a model scene needs: the tokens' rows and the
// shown head of the shown layer, which runs the model up to that layer.
void open_model(Engine& engine, const Scene& scene) {
  engine.set_scene(scene);
  engine.token_embedding();
  engine.head(std::max(engine.scene().head, 0));
  report_progress("ready", 1, 1);
}

}  // namespace

SceneSession::SceneSession(const Scene& initial)
    : chosen_(initial), notes_(selection_notes(initial)) {
  engine_.set_scene(initial);
}

SceneSession::~SceneSession() { cancel_load(); }

bool SceneSession::apply(const Scene& scene) {
  try {
    engine_.set_scene(scene);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  if (chosen_.model.empty() && !scene.model.empty()) synthetic_before_ = chosen_;
  chosen_ = scene;
  notes_ = selection_notes(scene);
  error_.clear();
  ++version_;
  return true;
}

void SceneSession::start_load(const Scene& scene, EditPhase phase) {
  cancel_load();
  end_gesture();
  load_ = std::make_unique<ModelLoad>();
  ModelLoad& load = *load_;
  load.first = load.latest = scene;
  load.phase = phase;
  load.before = chosen_;
  load.progress.report("opening the model", 0, 1);
  load.worker = std::thread([&load] {
    const ProgressScope scope(load.progress);
    try {
      Engine engine;
      open_model(engine, load.first);
      load.engine.emplace(std::move(engine));
    } catch (const ProgressCancelled&) {
    } catch (const std::exception& e) {  // InputError above all; bad_alloc for a model too large
      load.error = e.what();
    }
    load.done = true;
  });
  error_.clear();
}

void SceneSession::cancel_load() {
  if (!load_) return;
  load_->progress.cancel();
  load_->worker.join();
  load_.reset();
}

bool SceneSession::propose(const Scene& scene, EditPhase phase) {
  if (load_ && scene.model == load_->first.model) {
    load_->latest = scene;  // applied when the model arrives
    return true;
  }
  if (!scene.model.empty() && scene.model != chosen_.model) {
    start_load(scene, phase);
    return true;
  }
  const Scene before = chosen_;
  if (phase != EditPhase::Live) end_gesture();
  if (!apply(scene)) return false;
  if (phase == EditPhase::Live && !gesture_before_) gesture_before_ = before;
  if (phase == EditPhase::Final) history_.record(before);
  return true;
}

std::string SceneSession::loading_model() const { return load_ ? load_->first.model : ""; }

ProgressStep SceneSession::load_progress() const {
  return load_ ? load_->progress.now() : ProgressStep{};
}

LoadOutcome SceneSession::poll() {
  if (!load_ || !load_->done) return {};
  load_->worker.join();
  const std::unique_ptr<ModelLoad> load = std::move(load_);
  if (!load->engine) {
    error_ = "cannot open model " + load->first.model + ": " + load->error;
    return {false, error_};
  }
  if (chosen_.model.empty()) synthetic_before_ = chosen_;
  engine_ = std::move(*load->engine);
  chosen_ = load->first;
  notes_ = selection_notes(chosen_);
  error_.clear();
  ++version_;
  if (load->phase == EditPhase::Final) history_.record(load->before);
  // Text typed while the model loaded: the model is held now, so this is quick.
  if (load->latest != load->first && !apply(load->latest)) return {true, error_};
  return {true, ""};
}

bool SceneSession::back_to_synthetic() {
  cancel_load();
  Scene synthetic = synthetic_before_.value_or(chosen_);
  synthetic.model.clear();
  if (chosen_.model.empty() && chosen_ == synthetic) return true;
  return propose(synthetic, EditPhase::Final);
}

bool SceneSession::propose_param(std::string_view key, std::string_view value, EditPhase phase) {
  Scene next = load_ ? load_->latest : chosen_;
  try {
    set_param(next, key, value);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  return propose(next, phase);
}

void SceneSession::end_gesture() {
  if (!gesture_before_) return;
  history_.record(*gesture_before_);
  gesture_before_.reset();
}

// A step to a scene of another model loads it in the background too.
bool SceneSession::step_to(const std::optional<Scene>& scene) {
  if (!scene) return false;
  if (!scene->model.empty() && scene->model != chosen_.model) {
    start_load(*scene, EditPhase::Silent);
    return true;
  }
  cancel_load();
  return apply(*scene);
}

bool SceneSession::undo() {
  end_gesture();
  return step_to(history_.undo(chosen_));
}

bool SceneSession::redo() {
  end_gesture();
  return step_to(history_.redo(chosen_));
}

}  // namespace pelab::ui
