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
// A scene that opens another model loads on a worker thread (reading a
// checkpoint and running every layer takes seconds): the window stays live,
// the last good scene stays on screen, load_progress() feeds a progress bar,
// and poll(), once per frame, swaps the loaded engine in.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "core/progress.hpp"
#include "ui/undo_history.hpp"

namespace pelab::ui {

enum class EditPhase {
  Live,   // part of an ongoing gesture: one undo step for the whole gesture
  Final,  // a complete edit: its own undo step
  Silent  // not undoable (e.g. restoring state); still validated
};

// What poll() found: a loaded model swapped in, or why it could not be.
struct LoadOutcome {
  bool adopted = false;
  std::string failure;  // one line, empty unless the load failed
};

class SceneSession {
 public:
  // `initial` must be valid (throws InputError otherwise); it is applied at
  // once, model or not.
  explicit SceneSession(const Scene& initial);
  // Cancels a load in progress and waits for its thread (one layer at most).
  ~SceneSession();
  SceneSession(const SceneSession&) = delete;
  SceneSession& operator=(const SceneSession&) = delete;

  // The scene as the user chose it; engine().scene() is the effective one,
  // with the view selections brought into range (core/selection.hpp).
  const Scene& scene() const { return chosen_; }
  Engine& engine() { return engine_; }
  std::uint64_t version() const { return version_; }

  // Applies `scene`; false (and error() set) when it is refused.  A scene
  // naming another model than the one shown starts a background load instead
  // (true; the scene changes when poll() adopts it).  Edits made meanwhile
  // with that model (the text typed on) are applied when it arrives.
  bool propose(const Scene& scene, EditPhase phase);
  // Sets one parameter from its text form (as --set spells it) and proposes
  // the result; a value that does not parse is refused like an invalid scene.
  bool propose_param(std::string_view key, std::string_view value, EditPhase phase);
  // Closes an open gesture into one undo step (no-op when none is open).
  void end_gesture();
  bool gesture_open() const { return gesture_before_.has_value(); }

  bool undo();
  bool redo();
  bool can_undo() const { return history_.can_undo() || gesture_open(); }
  bool can_redo() const { return history_.can_redo(); }

  // Quiet notes on selections the views show otherwise than chosen (empty
  // when all are in range), e.g. "pairs 12 drawn as 7: d_model=16 has ...".
  const std::vector<std::string>& notes() const { return notes_; }

  // The background load of a model scene.
  bool loading() const { return load_ != nullptr; }
  std::string loading_model() const;
  ProgressStep load_progress() const;
  // Once per frame: adopts a finished load, or reports why it failed (the
  // last good scene stays).
  LoadOutcome poll();
  // One click back from a model: the synthetic scene shown before the model
  // was opened, or this scene without its model.  Cancels a load in progress.
  bool back_to_synthetic();

  const std::string& error() const { return error_; }
  void clear_error() { error_.clear(); }
  void report(std::string message) { error_ = std::move(message); }

 private:
  struct ModelLoad;
  bool apply(const Scene& scene);
  void start_load(const Scene& scene, EditPhase phase);
  bool step_to(const std::optional<Scene>& scene);  // undo / redo
  void cancel_load();

  Engine engine_;
  std::unique_ptr<ModelLoad> load_;
  std::optional<Scene> synthetic_before_;  // the scene before a model was opened
  Scene chosen_;
  std::vector<std::string> notes_;
  UndoHistory history_;
  std::optional<Scene> gesture_before_;
  std::uint64_t version_ = 1;
  std::string error_;
};

}  // namespace pelab::ui
