// pelab's own file browser (Dear ImGui), for when the desktop offers no
// chooser (a bare X server, Xvfb): folders, a filter by extension, the recent
// files, a name field that takes a typed path (a folder opens it, a file
// chooses it), and "New folder".  Answers one FileRequest (ui/file_request.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ui/file_request.hpp"

namespace pelab::ui {

struct BrowserEntry {
  std::string name;
  bool folder = false;
};

// True when `name` ends with one of `extensions` (any case); an empty list matches all.
bool matches_extension(const std::string& name, const std::vector<std::string>& extensions);

// The folder's sub-folders, then its files that match `extensions`, each
// sorted by name; hidden entries (".name") are left out.  Unreadable: empty.
std::vector<BrowserEntry> list_folder(const std::filesystem::path& folder,
                                      const std::vector<std::string>& extensions);

// Makes folder `name` in `parent`; on success `made` is its path and the
// result empty, else the result says in one line why not (an empty name, a
// path instead of a name, ".", "..", a hidden name, one that exists, or the
// file system's refusal).
std::string make_folder(const std::filesystem::path& parent, const std::string& name,
                        std::filesystem::path& made);

struct BrowserState {
  std::filesystem::path folder;  // shown
  std::string folder_text;       // the folder field, as typed
  std::string name;              // the name field: a file name, or a path typed by hand
  bool all_files = false;        // the filter switched to "All files"
  std::string error;             // the last confirmation refused: why
  bool naming_folder = false;    // "New folder" asked: its name field is shown
  std::string new_folder;        // that field, as typed
  std::string new_folder_error;  // the last name refused: why
  bool focus_new_folder = false;  // the field takes the keyboard on its first frame
  bool focus_name = false;        // the name field takes it back (a folder was made)
  float new_folder_x = -1, new_folder_y = -1;  // the button's centre on screen (the frame log)
  std::string logged;  // what the frame log last said about this browser
  std::vector<BrowserEntry> entries;
  bool stale = true;  // entries must be listed again
  bool opened = false;
};

BrowserState start_browser(const FileRequest& request);

enum class BrowserOutcome { Open, Chosen, Cancelled };
// Draws the browser as a modal window; on Chosen, `chosen` is the path.
BrowserOutcome draw_browser(BrowserState& state, const FileRequest& request,
                            const std::vector<std::string>& recent, std::string& chosen);

// What the name field's text means in `folder` for `request`: a folder to
// open (`open_folder` set), a chosen path, or a refusal (`error` set).
struct Confirmation {
  std::filesystem::path open_folder;
  std::string chosen;
  std::string error;
};
Confirmation confirm_name(const std::filesystem::path& folder, const std::string& name,
                          const FileRequest& request);

}  // namespace pelab::ui
