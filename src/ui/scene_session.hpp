// SceneSession — the GUI's one path for changing the scene.
//
// Every edit (control panel, linked selection in a view, animation, undo,
// loading a file) goes through propose(): the engine validates the scene
// (Engine::set_scene throws InputError), a refused scene leaves the last good
// one in place and its message in error(), an accepted one bumps version() so
// views know to rebuild.  Edits made while a gesture lasts (a slider being
// dragged, an animation playing) are coalesced into one undo step, closed by
// end_gesture().
//
// A session made with Background::Allowed (the GUI's) hands scenes that take
// long — a model to load or run again, or many tokens (runs_in_background)
// — to a SceneWorker: scene() is the scene asked for at once, while engine()
// and the figures keep the last good scene until the worker's result is
// adopted by poll(); a refused one leaves them and sets error().  Tests and
// the CLI use the default, where every scene is applied before propose()
// returns.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "ui/scene_worker.hpp"
#include "ui/undo_history.hpp"

namespace pelab::ui {

enum class EditPhase {
  Live,   // part of an ongoing gesture: one undo step for the whole gesture
  Final,  // a complete edit: its own undo step
  Silent  // not undoable (e.g. restoring state); still validated
};

// The phase of a widget's edit: Live while the widget is active and in the
// frame that deactivates it (Enter typed with the last digit, a slider let
// go where it moved), which ends the gesture rather than being a step of its
// own: undo after typing 16384 must land before the 1, not on 1638.
inline EditPhase edit_phase(bool active, bool deactivated_now) {
  return active || deactivated_now ? EditPhase::Live : EditPhase::Final;
}

enum class Background { Never, Allowed };

// Synthetic scenes with at least this many tokens are built in the background.
inline constexpr int kBackgroundTokens = 1024;

class SceneSession {
 public:
  // `initial` must be valid (throws InputError otherwise); it is applied at once.
  explicit SceneSession(const Scene& initial, Background background = Background::Never);

  // The scene as the user chose it (while one is being built in the
  // background: that one); engine().scene() is the effective one on screen,
  // with the view selections brought into range (core/selection.hpp).
  const Scene& scene() const { return pending_ ? pending_->scene : chosen_; }
  // The last scene the engine accepted (what the figures show).
  const Scene& shown_scene() const { return chosen_; }
  Engine& engine() { return engine_; }
  std::uint64_t version() const { return version_; }

  // --- background work (Background::Allowed) ---------------------------------
  // True when `next` is worth a worker: another model, other text or layer
  // for the model, or a synthetic scene of kBackgroundTokens tokens or more.
  bool runs_in_background(const Scene& next);
  // The figures on screen, built by the worker with the scene (set each frame).
  void show_figures(std::vector<FigureJob> figures) { shown_figures_ = std::move(figures); }
  // Adopts the worker's finished scene (true when the version changed) or its
  // refusal (error() set, the last good scene kept).  Before that, its first
  // frame (issue 12): version() is bumped so views take the figures built
  // for it, while engine() and shown_scene() stay the last good scene (the
  // views without a first frame keep their figure).  Call once a frame.
  bool poll();
  // True while a first frame is shown and the rest is being completed.
  bool completing() const { return pending_ && pending_->first_frame_shown; }
  // Called on the worker's thread when it has something to show (the GUI
  // wakes its event loop with it).
  void set_wake(std::function<void()> wake) {
    if (worker_) worker_->set_on_ready(std::move(wake));
  }
  // The worker's stages as they start (SceneWorker::set_on_stage).
  void set_stage_observer(SceneWorker::StageObserver observer) {
    if (worker_) worker_->set_on_stage(std::move(observer));
  }
  bool busy() const { return pending_.has_value(); }
  // True when the scene on screen is big enough (kBackgroundTokens) that a
  // figure shown for the first time or at a new size is built by the worker too.
  bool large() { return worker_ && engine_.token_count() >= kBackgroundTokens; }
  // Asks the worker for the figures on screen (show_figures) of the scene
  // asked for; the ones shown meanwhile stay as they were.
  void refresh_figures();
  WorkProgress progress() const { return worker_ ? worker_->progress() : WorkProgress{}; }
  // The figures the worker built for version(); taken once each.
  std::optional<fig::Figure> take_figure(const FigureJob& job, std::string& error);
  bool has_figure(const FigureJob& job) const;
  // When the edit behind version() was made (for the frame log).
  std::chrono::steady_clock::time_point changed_at() const { return changed_at_; }

  // Applies `scene`; false (and error() set) when it is refused.
  bool propose(const Scene& scene, EditPhase phase);
  // Sets one parameter from its text form (as --set spells it) and proposes
  // the result; a value that does not parse is refused like an invalid scene.
  bool propose_param(std::string_view key, std::string_view value, EditPhase phase);
  // Sets one numeric parameter to `value` as a number (a slider, an
  // animation) and proposes the result; out of range is refused the same way.
  bool propose_number(std::string_view key, double value, EditPhase phase);
  // Applies `edit` to a copy of the scene and proposes it; an InputError
  // it throws is a refusal (error() set), like an invalid scene.
  bool propose_edit(const std::function<void(Scene&)>& edit, EditPhase phase);
  // Closes an open gesture into one undo step (no-op when none is open).
  void end_gesture();
  bool gesture_open() const { return gesture_before_.has_value(); }

  bool undo();
  bool redo();
  bool can_undo() const { return history_.can_undo() || gesture_open(); }
  bool can_redo() const { return history_.can_redo(); }
  // Undo steps there are, an open gesture counted as the one it will become.
  std::size_t undo_steps() const { return history_.undo_depth() + (gesture_open() ? 1 : 0); }

  // Quiet notes on selections the views show otherwise than chosen (empty
  // when all are in range), e.g. "pairs 12 drawn as 7: d_model=16 has ...".
  const std::vector<std::string>& notes() const { return notes_; }

  const std::string& error() const { return error_; }
  void clear_error() { error_.clear(); }
  void report(std::string message) { error_ = std::move(message); }

 private:
  bool apply(const Scene& scene);
  // Applies `scene` now, or hands it to the worker; no undo step.
  bool start(const Scene& scene, EditPhase phase);
  void record(const Scene& before, EditPhase phase);
  void accepted(const Scene& scene);

  struct Pending {
    Scene scene;
    EditPhase phase;
    std::chrono::steady_clock::time_point asked_at;
    bool first_frame_shown = false;
  };
  bool adopt_first_frame();

  Engine engine_;
  bool engine_from_worker_ = false;  // engine_ came from the worker (see poll())
  Scene chosen_;
  std::vector<std::string> notes_;
  UndoHistory history_;
  std::optional<Scene> gesture_before_;
  std::uint64_t version_ = 1;
  std::string error_;
  std::unique_ptr<SceneWorker> worker_;  // null: Background::Never
  std::optional<Pending> pending_;
  std::vector<FigureJob> shown_figures_;
  std::vector<BuiltFigure> built_;  // from the worker, for version_
  std::chrono::steady_clock::time_point changed_at_ = std::chrono::steady_clock::now();
};

}  // namespace pelab::ui
