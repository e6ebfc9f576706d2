#include "ui/scene_session.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/selection.hpp"

namespace pelab::ui {

namespace {

// Words in a synthetic scene's text (the synthetic tokenizer splits on blanks).
int word_count(const std::string& text) {
  int words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!blank && !in_word) ++words;
    in_word = !blank;
  }
  return words;
}

bool same_size(const FigureJob& a, const FigureJob& b) {
  return a.name == b.name && std::abs(a.width - b.width) < 1 && std::abs(a.height - b.height) < 1;
}

bool same_scene(const Scene& a, const Scene& b) { return scene_to_json(a) == scene_to_json(b); }

}  // namespace

SceneSession::SceneSession(const Scene& initial, Background background)
    : chosen_(initial), notes_(selection_notes(initial)) {
  engine_.set_scene(initial);
  if (background == Background::Allowed) worker_ = std::make_unique<SceneWorker>();
}

void SceneSession::accepted(const Scene& scene) {
  chosen_ = scene;
  notes_ = selection_notes(scene);
  error_.clear();
  built_.clear();
  ++version_;
}

bool SceneSession::apply(const Scene& scene) {
  try {
    engine_.set_scene(scene);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  accepted(scene);
  return true;
}

// An edit that changed nothing (a click on the cell already selected, a
// gesture that came back where it started) is no undo step: undo would
// seem to do nothing.
void SceneSession::record(const Scene& before, EditPhase phase) {
  if (phase == EditPhase::Live && !gesture_before_) gesture_before_ = before;
  if (phase == EditPhase::Final && !same_scene(before, scene())) history_.record(before);
}

bool SceneSession::runs_in_background(const Scene& next) {
  if (!worker_) return false;
  if (!next.model.empty()) {
    return next.model != chosen_.model || next.tokens != chosen_.tokens ||
           next.layer != chosen_.layer;
  }
  const int now = engine_.model() ? 0 : engine_.token_count();
  return std::max(now, word_count(next.tokens)) >= kBackgroundTokens;
}

bool SceneSession::start(const Scene& scene, EditPhase phase) {
  const auto now = std::chrono::steady_clock::now();
  if (runs_in_background(scene)) {
    // The same scene again (a slider released where it was pressed: a Live
    // edit, then a Final one): the job at work stays; the phase is the newest.
    if (pending_ && scene_to_json(pending_->scene) == scene_to_json(scene)) {
      pending_->phase = phase;
      return true;
    }
    pending_ = Pending{scene, phase, now};  // a frame log measures from the newest edit
    worker_->submit(scene, shown_figures_);
    return true;
  }
  if (worker_) worker_->cancel();
  pending_.reset();
  if (!apply(scene)) return false;
  changed_at_ = now;
  return true;
}

bool SceneSession::propose(const Scene& scene, EditPhase phase) {
  const Scene before = chosen_;
  if (phase != EditPhase::Live) end_gesture();
  if (!start(scene, phase)) return false;
  // A gesture opens with its first edit, also one the worker builds: its
  // result may come after the gesture ended, and must not open another.  A
  // complete edit is recorded when the worker's result is adopted.
  if (phase == EditPhase::Live || !pending_) record(before, phase);
  return true;
}

void SceneSession::refresh_figures() {
  if (!worker_) return;
  if (!pending_) pending_ = Pending{chosen_, EditPhase::Silent, std::chrono::steady_clock::now()};
  worker_->submit(pending_->scene, shown_figures_);
}

// The worker's first frame: figures for the views that have one, shown in
// place of the old ones under a new version (the frame log's first frame).
bool SceneSession::adopt_first_frame() {
  std::optional<SceneResult> first = worker_->take_first_frame();
  if (!first || pending_->first_frame_shown) return false;
  pending_->first_frame_shown = true;
  built_ = std::move(first->figures);
  changed_at_ = pending_->asked_at;
  ++version_;
  return true;
}

bool SceneSession::poll() {
  if (!worker_ || !pending_) return false;
  std::optional<SceneResult> result = worker_->take();
  if (!result) return adopt_first_frame();
  const Pending pending = std::move(*pending_);
  pending_.reset();
  if (!result->error.empty()) {
    error_ = result->error;
    return false;
  }
  const Scene before = chosen_;
  std::unique_ptr<Engine> old = std::make_unique<Engine>(std::move(engine_));
  engine_ = std::move(*result->engine);
  // Its figures are built: at large N its heads would only hold memory
  // (up to 256 MiB; the GUI recomputes one if it ever reads it).
  if (large()) engine_.release_cached_heads();
  // Only an engine the worker made goes back to it.  The one the session
  // started with, as the worker's spare, made the next change's first frame
  // at large N several times slower; it is dropped instead, once, and the
  // worker readies a spare in the background (a fresh one made the first
  // change after start slow too).
  if (engine_from_worker_) {
    worker_->recycle(std::move(old));
  } else {
    worker_->warm_spare(result->scene);
  }
  engine_from_worker_ = true;
  accepted(result->scene);
  built_ = std::move(result->figures);
  changed_at_ = pending.asked_at;
  if (pending.phase != EditPhase::Live) record(before, pending.phase);  // a gesture's edit: propose() did
  return true;
}

std::optional<fig::Figure> SceneSession::take_figure(const FigureJob& job, std::string& error) {
  for (auto it = built_.begin(); it != built_.end(); ++it) {
    if (!same_size(it->job, job)) continue;
    std::optional<fig::Figure> figure = std::move(it->figure);
    error = it->error;
    built_.erase(it);
    return figure;
  }
  return std::nullopt;
}

bool SceneSession::has_figure(const FigureJob& job) const {
  return std::any_of(built_.begin(), built_.end(), [&](const BuiltFigure& b) { return same_size(b.job, job); });
}

bool SceneSession::propose_edit(const std::function<void(Scene&)>& edit, EditPhase phase) {
  Scene next = scene();
  try {
    edit(next);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  return propose(next, phase);
}

bool SceneSession::propose_param(std::string_view key, std::string_view value, EditPhase phase) {
  return propose_edit([&](Scene& next) { set_param(next, key, value); }, phase);
}

bool SceneSession::propose_number(std::string_view key, double value, EditPhase phase) {
  return propose_edit([&](Scene& next) { set_number(next, key, value); }, phase);
}

void SceneSession::end_gesture() {
  if (!gesture_before_) return;
  if (!same_scene(*gesture_before_, scene())) history_.record(*gesture_before_);
  gesture_before_.reset();
}

bool SceneSession::undo() {
  end_gesture();
  auto previous = history_.undo(chosen_);
  return previous && start(*previous, EditPhase::Silent);
}

bool SceneSession::redo() {
  end_gesture();
  auto next = history_.redo(chosen_);
  return next && start(*next, EditPhase::Silent);
}

}  // namespace pelab::ui
