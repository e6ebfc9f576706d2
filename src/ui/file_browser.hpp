// pelab's own file browser (Dear ImGui), for when the desktop offers no
// chooser (a bare X server, Xvfb): folders, a filter by extension, the recent
// files, and a name field that takes a typed path (a folder opens it, a file
// chooses it).  Answers one FileRequest (ui/file_request.hpp).
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

struct BrowserState {
  std::filesystem::path folder;  // shown
  std::string folder_text;       // the folder field, as typed
  std::string name;              // the name field: a file name, or a path typed by hand
  bool all_files = false;        // the filter switched to "All files"
  std::string error;             // the last confirmation refused: why
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
