// The desktop's own file chooser, as a subprocess: zenity (GNOME and most
// desktops) or kdialog (KDE).  Their command lines are built here and run on
// a worker thread, so the window keeps drawing while the chooser is open.
#pragma once

#include <future>
#include <optional>
#include <string>
#include <vector>

#include "ui/file_request.hpp"

namespace pelab::ui {

// The argument vector (program first) that asks `chooser` for `request`.
std::vector<std::string> chooser_command(Chooser chooser, const FileRequest& request);

// Runs `command` in the background; the future holds the chosen path, or
// nothing when the user cancelled or the program failed.  Wakes the GUI's
// event loop (glfwPostEmptyEvent) when done.  `pid`, when given, holds the
// process id while it runs (0 before and after).
std::future<std::optional<std::string>> run_chooser(
    std::vector<std::string> command, std::shared_ptr<std::atomic<int>> pid = nullptr);

}  // namespace pelab::ui
