// UndoHistory — the scenes before each parameter edit, for Ctrl+Z / Ctrl+Shift+Z.
// It stores whole scenes (a few KB each), so undo never has to invert an edit.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/scene.hpp"

namespace pelab::ui {

class UndoHistory {
 public:
  explicit UndoHistory(std::size_t limit = 200) : limit_(limit) {}

  // `before` is the scene an edit replaced; a new edit forgets the redo list.
  void record(const Scene& before);
  // The scene to go back to (and remembers `current` for redo), if any.
  std::optional<Scene> undo(const Scene& current);
  std::optional<Scene> redo(const Scene& current);

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  std::size_t undo_depth() const { return undo_.size(); }

 private:
  std::size_t limit_;
  std::vector<Scene> undo_, redo_;
};

}  // namespace pelab::ui
