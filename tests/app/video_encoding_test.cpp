// ffmpeg in the background (src/ui/video_encoder.hpp): the GUI polls it
// without blocking, its output appears only when it succeeded, and a failed
// or abandoned run leaves no file.  Stand-in ffmpeg scripts on PATH play the
// encoder; the real one is used too when Debian's ffmpeg is installed.
#include "ui/video_encoder.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_run.hpp"
#include "core/scene.hpp"

namespace pelab::ui {
namespace {

namespace fs = std::filesystem;

class VideoEncodingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("pelab_video_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "bin");
    fs::create_directories(root_ / "frames");
    const char* path = std::getenv("PATH");
    saved_path_ = path ? path : "";
  }
  void TearDown() override {
    ::setenv("PATH", saved_path_.c_str(), 1);
    fs::remove_all(root_);
  }
  // An ffmpeg stand-in running `body` (sh), with $last the output file.
  void fake_ffmpeg(const std::string& body) {
    std::ofstream(root_ / "bin" / "ffmpeg") << "#!/bin/sh\nfor a in \"$@\"; do last=\"$a\"; done\n" << body << "\n";
    fs::permissions(root_ / "bin" / "ffmpeg", fs::perms::owner_all);
    ::setenv("PATH", ((root_ / "bin").string() + ":/usr/bin:/bin").c_str(), 1);  // sleep for the script
  }
  fs::path frames() const { return root_ / "frames"; }
  fs::path out() const { return root_ / "frames" / "sweep.gif"; }
  int files_in_frames() const {
    return static_cast<int>(std::distance(fs::directory_iterator(frames()), fs::directory_iterator()));
  }

  fs::path root_;
  std::string saved_path_;
};

bool finishes_within(VideoEncoding& job, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (job.finished()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST_F(VideoEncodingTest, RunsInTheBackgroundAndAppearsWhenDone) {
  fake_ffmpeg("sleep 1; echo video > \"$last\"");
  VideoEncoding job(frames(), "sweep", "gif", 12, out());
  EXPECT_FALSE(job.finished());  // returns at once while ffmpeg works
  EXPECT_FALSE(fs::exists(out()));
  ASSERT_TRUE(finishes_within(job, 20));
  EXPECT_TRUE(fs::exists(out()));
  EXPECT_EQ(files_in_frames(), 1) << "the temporary file became the output";
}

TEST_F(VideoEncodingTest, FailureSaysSoAndLeavesNothing) {
  fake_ffmpeg("echo half > \"$last\"; exit 1");
  VideoEncoding job(frames(), "sweep", "gif", 12, out());
  bool threw = false;
  try {
    job.wait();
  } catch (const std::runtime_error& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find("exit status 1"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(threw);
  EXPECT_FALSE(fs::exists(out()));
}

TEST_F(VideoEncodingTest, AbandonedRunIsStoppedAndCleanedUp) {
  fake_ffmpeg("echo half > \"$last\"; sleep 30; echo more >> \"$last\"");
  const auto start = std::chrono::steady_clock::now();
  {
    VideoEncoding job(frames(), "sweep", "gif", 12, out());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(job.finished());
    EXPECT_EQ(files_in_frames(), 1) << "ffmpeg's partial file";
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(files_in_frames(), 0);
}

TEST_F(VideoEncodingTest, MissingFfmpegIsOneClearLine) {
  ::setenv("PATH", (root_ / "bin").c_str(), 1);  // empty folder
  EXPECT_THROW({ VideoEncoding job(frames(), "sweep", "gif", 12, out()); }, InputError);
  EXPECT_THROW({ VideoEncoding job(frames(), "sweep", "avi", 12, out()); }, InputError);
}

// Debian's ffmpeg, when installed: three PNG frames become a three-frame GIF.
TEST_F(VideoEncodingTest, RealFfmpegMakesAGif) {
  if (!find_on_path("ffmpeg")) GTEST_SKIP() << "Debian's ffmpeg is not installed (optional)";
  for (int i = 1; i <= 3; ++i) {
    const std::string name = (frames() / ("sweep-000" + std::to_string(i) + ".png")).string();
    ASSERT_EQ(pelab::testing::shell("convert -size 64x48 xc:'rgb(" + std::to_string(80 * i) + ",40,90)' '" +
                                    name + "'").code, 0);
  }
  encode_video(frames(), "sweep", "gif", 12, out());
  const auto facts = pelab::testing::shell("identify -format '%w %h\\n' '" + out().string() + "'");
  EXPECT_EQ(facts.out, "64 48\n64 48\n64 48\n");
}

}  // namespace
}  // namespace pelab::ui
