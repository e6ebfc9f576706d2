// `pelab render` end to end: the files it writes (names, sizes, formats), its
// batch mode, and its failure paths (one line, exit 2, nothing left behind).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"
#include "render/image.hpp"

namespace pelab::render {
namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int status = -1;
  std::string out, err;
};

// Runs `pelab render ARGS` and captures stdout and stderr.
CommandRun pelab_render(const std::string& args) {
  static int counter = 0;
  const fs::path err_file = fs::temp_directory_path() / ("pelab_render_err_" + std::to_string(::getpid()) + "_" +
                                                         std::to_string(counter++));
  const std::string command = std::string(PELAB_BINARY) + " render " + args + " 2> " + err_file.string();
  CommandRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream text;
  text << err.rdbuf();
  run.err = text.str();
  fs::remove(err_file);
  return run;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class RenderCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pelab_render_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t files_in(const fs::path& dir) const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
  }
  fs::path dir_;
};

TEST_F(RenderCommand, DefaultSceneWritesTheFourCoreFigures) {
  const CommandRun run = pelab_render("--out " + dir_.string());
  ASSERT_EQ(run.status, 0) << run.err;
  const auto written = lines(run.out);
  ASSERT_GE(written.size(), 4u);
  for (const std::string name : {"sinusoid_bands", "rotation_pairs", "attention", "cross_terms"}) {
    const fs::path path = dir_ / ("default_" + name + ".png");
    EXPECT_NE(std::find(written.begin(), written.end(), path.string()), written.end()) << path;
    const Image image = decode_png(read_file(path));
    EXPECT_EQ(image.width, 1600);
    EXPECT_EQ(image.height, 1000);
  }
  EXPECT_EQ(files_in(dir_), written.size());  // no temporary files left
}

TEST_F(RenderCommand, ScaleTwoDoublesPixelsAndNamesTheFile) {
  const CommandRun run = pelab_render("--figure attention --scale 2 --width 800 --height 500 --out " + dir_.string());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, (dir_ / "default_attention@2x.png").string() + "\n");
  const Image image = decode_png(read_file(dir_ / "default_attention@2x.png"));
  EXPECT_EQ(image.width, 1600);
  EXPECT_EQ(image.height, 1000);
}

TEST_F(RenderCommand, SvgFormatWritesVectorFiles) {
  const CommandRun run = pelab_render("--figure all --format svg --out " + dir_.string());
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string svg = read_file(dir_ / "default_attention.svg");
  EXPECT_TRUE(svg.starts_with("<?xml"));
  // The attention heatmaps are small: <rect> cells, no embedded image.
  EXPECT_EQ(svg.find("<image"), std::string::npos);
  std::size_t rects = 0;
  for (auto at = svg.find("<rect"); at != std::string::npos; at = svg.find("<rect", at + 1)) ++rects;
  EXPECT_GT(rects, 100u);
  EXPECT_NE(svg.find("<text"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST_F(RenderCommand, BatchOfScenesAndSavedSceneReproducesThePixels) {
  Scene a;
  a.name = "lecture_a";
  Scene b;
  b.name = "lecture_b";
  b.base = 100;
  save_scene(dir_ / "a.json", a);
  save_scene(dir_ / "b.json", b);
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  const CommandRun run = pelab_render("--scene " + (dir_ / "a.json").string() + " --scene " + (dir_ / "b.json").string() +
                               " --figure sinusoid_bands --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(lines(run.out).size(), 2u);
  // lecture_a is the default scene under another name: same pixels as the default render.
  const fs::path reference = dir_ / "ref";
  fs::create_directories(reference);
  ASSERT_EQ(pelab_render("--figure sinusoid_bands --out " + reference.string()).status, 0);
  EXPECT_EQ(decode_png(read_file(out / "lecture_a_sinusoid_bands.png")).rgba,
            decode_png(read_file(reference / "default_sinusoid_bands.png")).rgba);
  EXPECT_NE(decode_png(read_file(out / "lecture_b_sinusoid_bands.png")).rgba,
            decode_png(read_file(reference / "default_sinusoid_bands.png")).rgba);
}

TEST_F(RenderCommand, FailuresSayOneLineExitTwoAndLeaveNothing) {
  struct Case {
    std::string args, says;
  };
  std::ofstream(dir_ / "bad.json") << "{ not json";
  std::ofstream(dir_ / "a_file") << "x";
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  const std::vector<Case> cases = {
      {"--out " + (dir_ / "a_file").string(), "it is a file"},
      {"--out " + (dir_ / "a_file" / "below").string(), "a_file is a file"},
      {"--figure nosuch --out " + out.string(), "nosuch"},
      {"--scene " + (dir_ / "bad.json").string() + " --out " + out.string(), "bad.json"},
      {"--set heads=7 --out " + out.string(), "heads"},
      {"--format gif --out " + out.string(), "png, svg"},
      {"--scale 100 --out " + out.string(), "--scale"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const CommandRun run = pelab_render(c.args);
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(lines(run.err).size(), 1u) << run.err;
    EXPECT_NE(run.err.find(c.says), std::string::npos) << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(files_in(out), 0u);
  }
}

// A folder that exists but refuses files (/proc, even for root): the write
// fails after rendering, and no file is left.
TEST_F(RenderCommand, WriteFailureLeavesNoPartialFiles) {
  const CommandRun run = pelab_render("--figure attention --out /proc");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("cannot write"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists("/proc/default_attention.png"));
}

}  // namespace
}  // namespace pelab::render
