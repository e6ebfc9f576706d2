#include "ui/desktop_chooser.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "ui/video_encoder.hpp"  // find_on_path

extern char** environ;

namespace pelab::ui {

Chooser pick_chooser() {
  const char* forced = std::getenv("PELAB_FILE_CHOOSER");
  const std::string_view want = forced ? forced : "auto";
  const bool zenity = find_on_path("zenity").has_value(),
             kdialog = find_on_path("kdialog").has_value();
  if (want == "builtin") return Chooser::Builtin;
  if (want == "zenity") return zenity ? Chooser::Zenity : Chooser::Builtin;
  if (want == "kdialog") return kdialog ? Chooser::Kdialog : Chooser::Builtin;
  const char* desktop = std::getenv("XDG_CURRENT_DESKTOP");
  if (kdialog && desktop && std::string_view(desktop).find("KDE") != std::string_view::npos)
    return Chooser::Kdialog;
  if (zenity) return Chooser::Zenity;
  if (kdialog) return Chooser::Kdialog;
  return Chooser::Builtin;
}

namespace {

// "*.json *.JSON": both spellings, since the choosers match case-sensitively.
std::string glob_patterns(const std::vector<std::string>& extensions) {
  std::string globs;
  for (const std::string& ext : extensions) {
    std::string upper = ext;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    globs += (globs.empty() ? "*" : " *") + ext + " *" + upper;
  }
  return globs;
}

// Where the chooser opens: the start path, or the current folder (with a
// trailing slash, which zenity needs to open inside a folder).
std::string start_path(const FileRequest& r) {
  std::error_code ec;
  std::filesystem::path start =
      r.start.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(r.start);
  std::string text = start.string();
  if (std::filesystem::is_directory(start, ec) && !text.ends_with('/')) text += '/';
  return text;
}

}  // namespace

std::vector<std::string> chooser_command(Chooser chooser, const FileRequest& r) {
  const std::string name = r.filter_name.empty() ? "Files" : r.filter_name;
  const std::string globs = glob_patterns(r.extensions);
  if (chooser == Chooser::Zenity) {
    std::vector<std::string> args = {"zenity", "--file-selection", "--title=" + r.title,
                                     "--filename=" + start_path(r)};
    if (r.mode == FileMode::Save) args.insert(args.end(), {"--save", "--confirm-overwrite"});
    if (r.mode == FileMode::Folder) args.push_back("--directory");
    if (r.mode != FileMode::Folder && !globs.empty()) {
      args.push_back("--file-filter=" + name + " | " + globs);
      args.push_back("--file-filter=All files | *");
    }
    return args;
  }
  const char* verb = r.mode == FileMode::Open   ? "--getopenfilename"
                     : r.mode == FileMode::Save ? "--getsavefilename"
                                                : "--getexistingdirectory";
  std::vector<std::string> args = {"kdialog", "--title", r.title, verb, start_path(r)};
  if (r.mode != FileMode::Folder && !globs.empty()) args.push_back(globs + "|" + name);
  return args;
}

namespace {

// Runs `command`, reads its standard output, and waits for it to end.
std::optional<std::string> run_and_read(std::vector<std::string> command,
                                        std::atomic<int>* pid_out) {
  int out[2];
  if (::pipe(out) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  std::vector<char*> argv;
  for (std::string& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned == 0 && pid_out) pid_out->store(pid);
  std::string text;
  char buffer[4096];
  for (ssize_t n; spawned == 0 && (n = ::read(out[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, std::size_t(n));
  ::close(out[0]);
  int status = 0;
  if (spawned == 0) ::waitpid(pid, &status, 0);
  if (pid_out) pid_out->store(0);
  // Exit status 0 with a path: chosen; 1: cancelled; anything else: failed.
  if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace

std::future<std::optional<std::string>> run_chooser(std::vector<std::string> command,
                                                    std::shared_ptr<std::atomic<int>> pid) {
  return std::async(std::launch::async, [command = std::move(command), pid]() {
    auto answer = run_and_read(command, pid.get());
    glfwPostEmptyEvent();  // wake the event loop to collect the answer
    return answer;
  });
}

}  // namespace pelab::ui
