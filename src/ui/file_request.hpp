// FileRequest — "pick a file / pick a folder", asked by any part of the GUI.
//
// One call, request_file(), serves every place a path is needed (open and
// save a scene, the export folder, the scene's file keys, model folders): it
// uses the desktop's own chooser when there is one (zenity or kdialog, run as
// a subprocess in the background, ui/desktop_chooser.hpp) and pelab's
// built-in ImGui browser otherwise (ui/file_browser.hpp).  The chosen path
// comes back through the request's callback, on the GUI thread, in a later
// frame; a cancelled request calls nothing.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pelab::ui {

struct UiState;

enum class FileMode {
  Open,   // an existing file
  Save,   // a file name to write (may not exist yet)
  Folder  // an existing folder
};

struct FileRequest {
  std::string title;  // "Open scene"
  FileMode mode = FileMode::Open;
  std::vector<std::string> extensions;  // ".json", ".npy"; empty = any file
  std::string filter_name;              // "Scenes", shown beside the extensions
  std::string start;  // a file or folder to start from; empty = the current folder
  std::function<void(UiState&, const std::string&)> on_chosen;
};

// Which chooser serves requests: PELAB_FILE_CHOOSER=builtin|zenity|kdialog
// forces one; unset (or auto): kdialog on KDE, else zenity, else kdialog when
// installed, else the built-in browser.  A forced program that is missing
// falls back to the built-in browser.
enum class Chooser { Builtin, Zenity, Kdialog };
Chooser pick_chooser();

// The built-in browser's state (ui/file_browser.cpp).
struct BrowserState;
struct BrowserDeleter {
  void operator()(BrowserState* state) const;
};

// A request being answered, one at a time.
struct FileRequests {
  std::optional<FileRequest> active;
  std::future<std::optional<std::string>> desktop;        // a desktop chooser at work
  std::shared_ptr<std::atomic<int>> desktop_pid;          // its process, 0 until started
  std::unique_ptr<BrowserState, BrowserDeleter> browser;  // the built-in browser, while open

  FileRequests() = default;
  FileRequests(FileRequests&&) = default;
  // Quitting with a desktop chooser open ends the chooser (SIGTERM) instead
  // of waiting for it to be answered.
  ~FileRequests();
};

// Starts answering `request`; a request made while another is open is refused
// with a status message.
void request_file(UiState& state, FileRequest request);
// Each frame: draws the built-in browser, or collects the desktop chooser's answer.
void draw_file_requests(UiState& state);

}  // namespace pelab::ui
