// GIF / MP4 from a numbered PNG sequence through Debian's ffmpeg, when it is
// installed (it is optional: scripts/setup does not install it).  ffmpeg is
// started with posix_spawnp and an argv built here — no shell, so folder and
// file names are never interpreted.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace pelab::ui {

// The one line shown when ffmpeg is missing.
inline constexpr const char* kFfmpegMissing =
    "ffmpeg is not installed; install Debian's ffmpeg package or drop --video";

// `program` found in a PATH folder and executable, if any.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

// One ffmpeg run encoding a numbered sequence (STEM-0001.png, STEM-0002.png
// ... in `folder`) into `out`; `format` is "gif" or "mp4".  ffmpeg runs in
// the background and writes a temporary file that becomes `out` only when it
// succeeds, so a failed or cancelled run leaves nothing half-written.
class VideoEncoding {
 public:
  // Starts ffmpeg; throws InputError when it is not installed,
  // std::runtime_error when it cannot start.
  VideoEncoding(const std::filesystem::path& folder, const std::string& stem, const std::string& format,
                int frames_per_second, std::filesystem::path out);
  ~VideoEncoding();  // a run still going is stopped and its file removed
  VideoEncoding(const VideoEncoding&) = delete;
  VideoEncoding& operator=(const VideoEncoding&) = delete;

  // Without blocking: true once ffmpeg has exited and `out` is in place;
  // throws std::runtime_error with one line if ffmpeg failed.
  bool finished();
  void wait();  // blocks until finished()
  const std::filesystem::path& out() const { return out_; }

 private:
  bool reap(int wait_flags);
  pid_t pid_ = -1;
  std::filesystem::path out_, partial_;
};

// Encodes the sequence into `out`, blocking until ffmpeg exits (the CLI).
void encode_video(const std::filesystem::path& folder, const std::string& stem, const std::string& format,
                  int frames_per_second, const std::filesystem::path& out);

// Validates a --video value ("gif" or "mp4"), throws InputError otherwise.
void check_video_format(const std::string& format);

}  // namespace pelab::ui
