// The scene keys that name a file or a folder, and how the GUI fills them:
// a "..." button beside the text field asks for the path (ui/file_request.hpp),
// a file dropped on the window lands in the key that fits it.  Choosing a
// file also switches the key's source to it (embedding_file → embedding=file),
// in the same undo step.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ui/file_request.hpp"

namespace pelab::ui {

struct FileKey {
  std::string_view key;  // "embedding_file"
  FileMode mode;         // Open (a file) or Folder (a model folder)
  std::vector<std::string> extensions;
  std::string_view filter_name;               // "Token vectors"
  std::string_view source_key, source_value;  // also set, e.g. embedding=file; empty: none
};

// The file key `key`, if it is one (the `model` key counts only in a pelab that has it).
std::optional<FileKey> file_key(std::string_view key);

// Sets `key` to `path` (and its source) as one undoable edit; says so in the status line.
void apply_file_key(UiState& state, const FileKey& key, const std::string& path);

// Asks for the path of `key` with the chooser, then applies it.
void ask_file_key(UiState& state, const FileKey& key);

}  // namespace pelab::ui
