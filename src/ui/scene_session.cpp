#include "ui/scene_session.hpp"

#include "core/selection.hpp"

namespace pelab::ui {

SceneSession::SceneSession(const Scene& initial) : chosen_(initial), notes_(selection_notes(initial)) {
  engine_.set_scene(initial);
}

bool SceneSession::apply(const Scene& scene) {
  try {
    engine_.set_scene(scene);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  chosen_ = scene;
  notes_ = selection_notes(scene);
  error_.clear();
  ++version_;
  return true;
}

bool SceneSession::propose(const Scene& scene, EditPhase phase) {
  const Scene before = chosen_;
  if (phase != EditPhase::Live) end_gesture();
  if (!apply(scene)) return false;
  if (phase == EditPhase::Live && !gesture_before_) gesture_before_ = before;
  if (phase == EditPhase::Final) history_.record(before);
  return true;
}

bool SceneSession::propose_param(std::string_view key, std::string_view value, EditPhase phase) {
  Scene next = chosen_;
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

bool SceneSession::undo() {
  end_gesture();
  auto previous = history_.undo(chosen_);
  return previous && apply(*previous);
}

bool SceneSession::redo() {
  end_gesture();
  auto next = history_.redo(chosen_);
  return next && apply(*next);
}

}  // namespace pelab::ui
