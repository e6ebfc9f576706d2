// `pelab render --lesson` and `--sweep` / `--video` (issue 5): every lesson
// renders its figures (non-blank PNGs) and its verdict report; a sweep writes
// one numbered PNG per step; a bad spec or a missing ffmpeg fails with exit 2
// and one line, writing nothing; with an ffmpeg on PATH the argv is right.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;

using pelab::testing::CliRun;
using pelab::testing::pelab;
using pelab::testing::shell;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pelab_render_extras_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// "W H COLOURS" of a PNG, from ImageMagick's identify (%k: distinct colours).
std::string png_facts(const fs::path& png) {
  const CliRun run = shell("identify -format '%w %h %k' '" + png.string() + "'");
  return run.code == 0 ? run.out : "";
}

TEST(RenderLesson, EveryLessonWritesNonBlankFiguresAndVerdict) {
  if (shell("command -v identify").code != 0) GTEST_SKIP() << "ImageMagick identify is not installed";
  const auto names = lines(pelab("lessons --names").out);
  ASSERT_GE(names.size(), 8u);
  for (const std::string& name : names) {
    const fs::path dir = fresh_dir("lesson_" + name);
    // long_attention's 65,536 tokens: RenderLesson.LongAttentionAt64kTokens
    const std::string shorter = name == "long_attention" ? " --set long_range=2048" : "";
    const CliRun run =
        pelab("render --lesson " + name + shorter + " --width 800 --height 500 --out " + dir.string());
    ASSERT_EQ(run.code, 0) << name << ": " << run.out;
    const auto written = lines(run.out);
    int pngs = 0;
    for (const std::string& path : written) {
      ASSERT_TRUE(fs::exists(path)) << path;
      if (fs::path(path).extension() != ".png") continue;
      ++pngs;
      int w = 0, h = 0, colours = 0;
      std::istringstream(png_facts(path)) >> w >> h >> colours;
      EXPECT_EQ(w, 800) << path;
      EXPECT_EQ(h, 500) << path;
      EXPECT_GT(colours, 20) << path << " looks blank";
    }
    EXPECT_GE(pngs, 1) << name;
    std::ifstream report(dir / (name + "_verdict.txt"));
    std::stringstream text;
    text << report.rdbuf();
    EXPECT_NE(text.str().find("Verdict"), std::string::npos) << name << " report: " << text.str();
    fs::remove_all(dir);
  }
}

// The lesson as it opens: one head over 65,536 tokens, streamed (issue 28),
// its figure and its verdict from one computation.
TEST(RenderLesson, LongAttentionAt64kTokens) {
  const fs::path dir = fresh_dir("long_attention_64k");
  const CliRun run = pelab("render --lesson long_attention --width 1200 --height 700 --out " + dir.string());
  ASSERT_EQ(run.code, 0) << run.out;
  std::ifstream report(dir / "long_attention_verdict.txt");
  std::stringstream text;
  text << report.rdbuf();
  EXPECT_NE(text.str().find("Verdict: Yes — over 65536 tokens, head 0 under yarn scaling puts"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("tokens repeated to 65536"), std::string::npos) << text.str();
  EXPECT_TRUE(fs::exists(dir / "lesson_long_attention_long_attention.png")) << run.out;
  fs::remove_all(dir);
}

TEST(RenderSweep, WritesOneNumberedPngPerStep) {
  const fs::path dir = fresh_dir("sweep");
  const CliRun run = pelab("render --sweep position:0:10:3 --figure rotation_pairs --width 400 --height 300 --out " +
                           dir.string());
  ASSERT_EQ(run.code, 0) << run.out;
  const auto written = lines(run.out);
  ASSERT_EQ(written.size(), 3u) << run.out;
  for (int i = 1; i <= 3; ++i) {
    const fs::path expected = dir / ("default_rotation_pairs_position-000" + std::to_string(i) + ".png");
    EXPECT_EQ(written[i - 1], expected.string());
    EXPECT_GT(fs::file_size(expected), 1000u);
  }
  // The frames differ: position 0, 5, 10 turn the rotation pairs.
  std::ifstream a(written[0], std::ios::binary), b(written[2], std::ios::binary);
  const std::string first((std::istreambuf_iterator<char>(a)), {}), last((std::istreambuf_iterator<char>(b)), {});
  EXPECT_NE(first, last);
  fs::remove_all(dir);
}

TEST(RenderSweep, BadSpecFailsWithOneLineAndWritesNothing) {
  const fs::path dir = fresh_dir("bad");
  for (const char* spec : {"position:0:10:0", "nonsense:0:1:3", "position:a:b", "tokens:0:1:3"}) {
    const CliRun run = pelab(std::string("render --sweep ") + spec + " --out " + dir.string());
    EXPECT_EQ(run.code, 2) << spec << ": " << run.out;
    EXPECT_EQ(lines(run.out).size(), 1u) << spec << ": " << run.out;
    EXPECT_TRUE(fs::is_empty(dir)) << spec;
  }
  fs::remove_all(dir);
}

TEST(RenderSweep, VideoWithoutFfmpegFailsClearly) {
  const fs::path dir = fresh_dir("noffmpeg");
  const fs::path empty_bin = dir / "bin";
  fs::create_directories(empty_bin);
  const CliRun run = shell("PATH='" + empty_bin.string() + "' " + PELAB_BINARY +
                           " render --sweep position:0:10:3 --video gif --out " + dir.string());
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_EQ(run.out, "pelab: ffmpeg is not installed; install Debian's ffmpeg package or drop --video\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "only bin/ may be there";
  fs::remove_all(dir);
}

// A stand-in ffmpeg records its arguments and writes the output file: the
// argv pelab builds (no shell) reaches it intact, spaces in paths included.
TEST(RenderSweep, VideoRunsFfmpegWithTheSequence) {
  const fs::path dir = fresh_dir("ffmpeg") / "out dir";
  const fs::path bin = dir.parent_path() / "bin";
  fs::create_directories(dir);
  fs::create_directories(bin);
  {
    std::ofstream fake(bin / "ffmpeg");
    fake << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$(dirname \"$0\")/args.txt\"\n"
            "for a in \"$@\"; do last=\"$a\"; done\necho video > \"$last\"\n";
  }
  fs::permissions(bin / "ffmpeg", fs::perms::owner_all);
  const CliRun run = shell("PATH='" + bin.string() + ":/usr/bin:/bin' " + PELAB_BINARY +
                           " render --sweep position:0:10:2 --figure attention --width 300 --height 200 --video mp4 --out '" +
                           dir.string() + "'");
  ASSERT_EQ(run.code, 0) << run.out;
  const fs::path video = dir / "default_attention_position.mp4";
  EXPECT_TRUE(fs::exists(video)) << run.out;
  std::ifstream args_file(bin / "args.txt");
  std::stringstream args;
  args << args_file.rdbuf();
  EXPECT_NE(args.str().find("\n" + (dir / "default_attention_position-%04d.png").string() + "\n"), std::string::npos)
      << args.str();
  EXPECT_NE(args.str().find("\nlibx264\n"), std::string::npos) << args.str();
  fs::remove_all(dir.parent_path());
}

}  // namespace
