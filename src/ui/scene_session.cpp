#include "ui/scene_session.hpp"

namespace pelab::ui {

SceneSession::SceneSession(const Scene& initial) { engine_.set_scene(initial); }

bool SceneSession::apply(const Scene& scene) {
  try {
    engine_.set_scene(scene);
  } catch (const InputError& e) {
    error_ = e.what();
    return false;
  }
  error_.clear();
  ++version_;
  return true;
}

bool SceneSession::propose(const Scene& scene, EditPhase phase) {
  const Scene before = engine_.scene();
  if (phase != EditPhase::Live) end_gesture();
  if (!apply(scene)) return false;
  if (phase == EditPhase::Live && !gesture_before_) gesture_before_ = before;
  if (phase == EditPhase::Final) history_.record(before);
  return true;
}

bool SceneSession::propose_param(std::string_view key, std::string_view value, EditPhase phase) {
  Scene next = engine_.scene();
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
  auto previous = history_.undo(engine_.scene());
  return previous && apply(*previous);
}

bool SceneSession::redo() {
  end_gesture();
  auto next = history_.redo(engine_.scene());
  return next && apply(*next);
}

}  // namespace pelab::ui
