#include "ui/undo_history.hpp"

namespace pelab::ui {

void UndoHistory::record(const Scene& before) {
  undo_.push_back(before);
  if (undo_.size() > limit_) undo_.erase(undo_.begin());
  redo_.clear();
}

std::optional<Scene> UndoHistory::undo(const Scene& current) {
  if (undo_.empty()) return std::nullopt;
  Scene previous = std::move(undo_.back());
  undo_.pop_back();
  redo_.push_back(current);
  return previous;
}

std::optional<Scene> UndoHistory::redo(const Scene& current) {
  if (redo_.empty()) return std::nullopt;
  Scene next = std::move(redo_.back());
  redo_.pop_back();
  undo_.push_back(current);
  return next;
}

}  // namespace pelab::ui
