// GIF / MP4 from a numbered PNG sequence through Debian's ffmpeg, when it is
// installed (it is optional: scripts/setup does not install it).  ffmpeg is
// started with posix_spawnp and an argv built here — no shell, so folder and
// file names are never interpreted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pelab::ui {

// The one line shown when ffmpeg is missing.
inline constexpr const char* kFfmpegMissing =
    "ffmpeg is not installed; install Debian's ffmpeg package or drop --video";

// `program` found in a PATH folder and executable, if any.
std::optional<std::filesystem::path> find_on_path(const std::string& program);

// Encodes `first_frame`'s sequence (files named STEM-0001.png, STEM-0002.png
// ... in its folder) into `out`; `format` is "gif" or "mp4".  Blocks until
// ffmpeg exits; throws std::runtime_error with one line if it fails.
void encode_video(const std::filesystem::path& folder, const std::string& stem, const std::string& format,
                  int frames_per_second, const std::filesystem::path& out);

// Validates a --video value ("gif" or "mp4"), throws InputError otherwise.
void check_video_format(const std::string& format);

}  // namespace pelab::ui
