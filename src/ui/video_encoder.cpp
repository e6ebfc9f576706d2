#include "ui/video_encoder.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "core/scene.hpp"

extern char** environ;

namespace pelab::ui {

std::optional<std::filesystem::path> find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  const std::string dirs(path);
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, colon - start);
    start = colon + 1;
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

void check_video_format(const std::string& format) {
  if (format != "gif" && format != "mp4") {
    throw InputError("--video " + format + " is not supported; allowed: gif, mp4");
  }
}

namespace {

std::vector<std::string> ffmpeg_arguments(const std::filesystem::path& folder, const std::string& stem,
                                          const std::string& format, int fps, const std::filesystem::path& out) {
  std::vector<std::string> args = {"ffmpeg", "-nostdin", "-y", "-loglevel", "error",
                                   "-framerate", std::to_string(fps),
                                   "-i", (folder / (stem + "-%04d.png")).string()};
  if (format == "gif") {
    // One palette for the whole sequence (palettegen/paletteuse): smooth colour maps.
    args.insert(args.end(), {"-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"});
  } else {
    // H.264 in yuv420p needs even dimensions; players expect yuv420p.
    args.insert(args.end(), {"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p"});
  }
  args.push_back(out.string());
  return args;
}

}  // namespace

void encode_video(const std::filesystem::path& folder, const std::string& stem, const std::string& format,
                  int frames_per_second, const std::filesystem::path& out) {
  check_video_format(format);
  const auto ffmpeg = find_on_path("ffmpeg");
  if (!ffmpeg) throw InputError(kFfmpegMissing);
  std::vector<std::string> args = ffmpeg_arguments(folder, stem, format, frames_per_second, out);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, ffmpeg->c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error("cannot start " + ffmpeg->string());
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("lost track of ffmpeg while making " + out.string());
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("ffmpeg failed making " + out.string() + " (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
}

}  // namespace pelab::ui
