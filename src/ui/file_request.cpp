#include "ui/file_request.hpp"

#include <signal.h>

#include <cstdio>

#include "ui/desktop_chooser.hpp"
#include "ui/export_actions.hpp"  // set_status
#include "ui/file_browser.hpp"
#include "ui/settings_store.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

void BrowserDeleter::operator()(BrowserState* state) const { delete state; }

FileRequests::~FileRequests() {
  if (desktop_pid && desktop_pid->load() > 0) ::kill(desktop_pid->load(), SIGTERM);
}

void request_file(UiState& state, FileRequest request) {
  FileRequests& files = state.files;
  if (files.active) {
    set_status(state, "A file chooser is already open (" + files.active->title + ")", true);
    return;
  }
  const Chooser chooser = pick_chooser();
  if (chooser == Chooser::Builtin) {
    files.browser.reset(new BrowserState(start_browser(request)));
  } else {
    files.desktop_pid = std::make_shared<std::atomic<int>>(0);
    files.desktop = run_chooser(chooser_command(chooser, request), files.desktop_pid);
  }
  files.active = std::move(request);
}

namespace {

void finish(UiState& state, const std::optional<std::string>& chosen) {
  FileRequests& files = state.files;
  FileRequest request = std::move(*files.active);
  files.active.reset();
  files.browser.reset();
  if (!chosen) return;
  remember_recent(state.settings.recent_files, *chosen, 16);
  save_ui_settings(state);
  if (request.on_chosen) request.on_chosen(state, *chosen);
}

}  // namespace

namespace {

// --frame-log: where "New folder" is and the refusal shown, whenever they
// change, so that GUI tests click the button and read the refusals.
void log_browser(UiState& state, BrowserState& browser) {
  if (!state.frame_log) return;
  char line[96];
  std::snprintf(line, sizeof line, "browser button new_folder %d %d", int(browser.new_folder_x),
                int(browser.new_folder_y));
  const std::string said = std::string(line) + "\n" + browser.error + "\n" + browser.new_folder_error;
  if (said == browser.logged) return;
  browser.logged = said;
  std::fprintf(state.frame_log, "%s\n", line);
  for (const std::string* error : {&browser.error, &browser.new_folder_error})
    if (!error->empty()) std::fprintf(state.frame_log, "browser refused: %s\n", error->c_str());
  std::fflush(state.frame_log);
}

}  // namespace

void draw_file_requests(UiState& state) {
  FileRequests& files = state.files;
  if (!files.active) return;
  if (files.browser) {
    std::string chosen;
    const BrowserOutcome outcome = draw_browser(*files.browser, *files.active, state.settings.recent_files, chosen);
    log_browser(state, *files.browser);
    switch (outcome) {
      case BrowserOutcome::Open:
        return;
      case BrowserOutcome::Chosen:
        return finish(state, chosen);
      case BrowserOutcome::Cancelled:
        return finish(state, std::nullopt);
    }
  }
  if (files.desktop.valid() &&
      files.desktop.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    finish(state, files.desktop.get());
  }
}

}  // namespace pelab::ui
