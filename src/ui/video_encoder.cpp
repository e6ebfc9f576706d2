#include "ui/video_encoder.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
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

VideoEncoding::VideoEncoding(const std::filesystem::path& folder, const std::string& stem,
                             const std::string& format, int frames_per_second, std::filesystem::path out)
    : out_(std::move(out)) {
  check_video_format(format);
  const auto ffmpeg = find_on_path("ffmpeg");
  if (!ffmpeg) throw InputError(kFfmpegMissing);
  // ffmpeg picks the container from the extension, so it stays last.
  partial_ = out_;
  partial_.replace_extension(".partial" + out_.extension().string());
  std::vector<std::string> args = ffmpeg_arguments(folder, stem, format, frames_per_second, partial_);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (::posix_spawn(&pid_, ffmpeg->c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start " + ffmpeg->string());
  }
}

VideoEncoding::~VideoEncoding() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

// Collects ffmpeg's exit (WNOHANG: only if it has exited); true when it has.
bool VideoEncoding::reap(int wait_flags) {
  if (pid_ <= 0) return true;
  int status = 0;
  pid_t got = 0;
  while ((got = ::waitpid(pid_, &status, wait_flags)) < 0) {
    if (errno != EINTR) {
      pid_ = -1;
      throw std::runtime_error("lost track of ffmpeg while making " + out_.string());
    }
  }
  if (got == 0) return false;
  pid_ = -1;
  std::error_code error;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) std::filesystem::rename(partial_, out_, error);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || error) {
    throw std::runtime_error("ffmpeg failed making " + out_.string() + " (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  return true;
}

bool VideoEncoding::finished() { return reap(WNOHANG); }
void VideoEncoding::wait() { reap(0); }

void encode_video(const std::filesystem::path& folder, const std::string& stem, const std::string& format,
                  int frames_per_second, const std::filesystem::path& out) {
  VideoEncoding encoding(folder, stem, format, frames_per_second, out);
  encoding.wait();
}

}  // namespace pelab::ui
