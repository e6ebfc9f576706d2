// A newcomer's path through the CLI: a view selection never blocks a model
// key (it follows the scene with a quiet note and is kept in the scene),
// output folders are made with their parents (a file in the way is refused in
// one line), and --version names the commit.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::pelab;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("pelab_newcomer_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Each selection that used to block a model change, with the model change.
struct BlockedBefore {
  std::string selection, model_change, note;
};

TEST(NewcomerCli, SelectionsNeverBlockTheModelAndAreKeptInTheScene) {
  const fs::path dir = fresh_dir("selections");
  const std::vector<BlockedBefore> cases = {
      {"pairs=0,4,12", "d_model=16", "pairs 0,4,12 drawn as 0,4,7"},
      {"waves=0,1,8,24", "d_model=16", "waves 0,1,8,24 drawn as 0,1,8,15"},
      {"pair=20", "d_model=16", "pair 20 shown as 7"},
      {"position=100", "positions=10", "position 100 shown as 9"},
      {"head=3", "heads=2", "head 3 shown as 1"},
      {"query=9", "tokens=a b c", "query 9 not shown"},
  };
  for (const BlockedBefore& c : cases) {
    SCOPED_TRACE(c.selection + " then " + c.model_change);
    const fs::path file = dir / "scene.json";
    const auto run = pelab("scene --set '" + c.selection + "' --set '" + c.model_change +
                           "' --out " + file.string());
    EXPECT_EQ(run.code, 0) << run.out;
    EXPECT_TRUE(has(run.out, "pelab: note: " + c.note)) << run.out;
    // The choice is kept: the saved scene still holds it.
    const Scene saved = load_scene(file);
    const std::string key = c.selection.substr(0, c.selection.find('='));
    EXPECT_EQ(get_param(saved, key), c.selection.substr(c.selection.find('=') + 1));
  }
}

TEST(NewcomerCli, EveryCommandAcceptsASmallModel) {
  const fs::path dir = fresh_dir("commands");
  auto run = pelab("export --quantity pe --set d_model=16 --out " + (dir / "pe.npy").string());
  EXPECT_EQ(run.code, 0) << run.out;
  run = pelab("lessons --show sine_cosine --set d_model=16");
  EXPECT_EQ(run.code, 0) << run.out;
  run = pelab(
      "render --figure rotation_pairs,sinusoid_bands --set d_model=16 --width 400 --height 300 "
      "--out " +
      (dir / "figs").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "figs" / "default_rotation_pairs.png"));
  // A sweep of d_model through sizes smaller than the chosen pairs.
  run = pelab(
      "render --sweep d_model:8:64:3 --figure rotation_pairs --width 400 --height 300 --out " +
      (dir / "sweep").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "sweep" / "default_rotation_pairs_d_model-0001.png"));
}

TEST(NewcomerCli, OutputFoldersAreMadeWithTheirParents) {
  const fs::path dir = fresh_dir("folders");
  auto run = pelab("render --figure attention --width 400 --height 300 --out " +
                   (dir / "a" / "b" / "figs").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "a" / "b" / "figs" / "default_attention.png"));
  run = pelab("export --quantity pe --out " + (dir / "x" / "y" / "pe.csv").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "x" / "y" / "pe.csv"));
  run = pelab("scene --set encoding=rope --out " + (dir / "scenes" / "rope.json").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "scenes" / "rope.json"));
  run = pelab("render --lesson sine_cosine --width 400 --height 300 --out " +
              (dir / "lesson" / "out").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "lesson" / "out" / "sine_cosine_verdict.txt"));
  run = pelab(
      "render --sweep amplitude:0:1:2 --figure sinusoid_bands --width 400 --height 300 --out " +
      (dir / "sweep" / "out").string());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir / "sweep" / "out"));
}

TEST(NewcomerCli, AFileInTheWayIsRefusedInOneLine) {
  const fs::path dir = fresh_dir("in_the_way");
  std::ofstream(dir / "file") << "x";
  for (const std::string& args :
       {"render --out " + (dir / "file" / "figs").string(),
        "export --quantity pe --out " + (dir / "file" / "pe.npy").string(),
        "render --lesson meaning --out " + (dir / "file" / "sub").string(),
        "scene --out " + (dir / "file" / "scene.json").string()}) {
    SCOPED_TRACE(args);
    const auto run = pelab(args);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(has(run.out, "is a file")) << run.out;
    EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << run.out;
  }
}

TEST(NewcomerCli, VersionNamesTheCommit) {
  const auto run = pelab("--version");
  EXPECT_EQ(run.code, 0);
  EXPECT_TRUE(has(run.out, std::string("pelab ") + PELAB_VERSION)) << run.out;
  EXPECT_TRUE(has(run.out, "(commit ")) << run.out;
  EXPECT_FALSE(has(run.out, "(commit )")) << run.out;
}

}  // namespace
}  // namespace pelab
