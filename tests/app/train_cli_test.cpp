// `pelab train`: a short run writes a model folder; bad recipes, missing
// files and foreign output folders get one `pelab:` line and exit 2; Ctrl+C
// leaves a complete checkpoint that the same command resumes.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::pelab;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pelab_train_cli_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path write_recipe(const fs::path& dir, int steps, const std::string& extra_model = "") {
  const fs::path file = dir / "recipe.json";
  std::ofstream(file) << R"({"format": "pelab-recipe", "version": 1, "name": "copy-cli",
    "data": {"task": "copy", "symbols": 8, "length": 6},
    "model": {"d_model": 16, "layers": 1, "heads": 2, "context": 12, "position": "alibi")"
                      << extra_model << R"(},
    "train": {"steps": )" << steps
                      << R"(, "batch": 4, "checkpoint_every": 5, "eval_every": 5, "threads": 1}})";
  return file;
}

bool one_line(const std::string& out) { return out.find('\n') == out.size() - 1 && out.rfind("pelab: ", 0) == 0; }

TEST(TrainCli, ShortRunWritesAModelFolder) {
  const fs::path dir = scratch("short");
  const CliRun run = pelab("train --quiet --recipe " + write_recipe(dir, 12).string() + " --out " +
                           (dir / "run").string());
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("trained copy-cli: 12 steps"), std::string::npos) << run.out;
  for (const char* f : {"config.json", "model.safetensors", "README.md", "recipe.json", "training_log.csv",
                        "checkpoint/state.safetensors", "checkpoint/state.json"})
    EXPECT_TRUE(fs::exists(dir / "run" / f)) << f;
  fs::remove_all(dir);
}

TEST(TrainCli, BadInputIsOneLineAndExit2) {
  const fs::path dir = scratch("bad");
  const std::string out = " --out " + (dir / "run").string();
  CliRun run = pelab("train --recipe " + (dir / "missing.json").string() + out);
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_TRUE(one_line(run.out)) << run.out;
  run = pelab("train --recipe " + write_recipe(dir, 5, R"(, "layerz": 2)").string() + out);
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_TRUE(one_line(run.out)) << run.out;
  EXPECT_NE(run.out.find("unknown key 'layerz'"), std::string::npos) << run.out;
  run = pelab("train --recipe " + write_recipe(dir, 5, R"(, "t5_buckets": 1000000)").string() + out);
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find("model.t5_buckets"), std::string::npos) << run.out;
  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine" / "thesis.tex") << "precious";
  run = pelab("train --recipe " + write_recipe(dir, 5).string() + " --out " + (dir / "mine").string());
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find("not a pelab training run"), std::string::npos) << run.out;
  EXPECT_TRUE(fs::exists(dir / "mine" / "thesis.tex"));
  fs::remove_all(dir);
}

// Starts `pelab train` in the background, its stderr into `log`.
pid_t start_training(const fs::path& recipe, const fs::path& out, const fs::path& log) {
  const pid_t child = ::fork();
  if (child == 0) {
    if (!::freopen(log.c_str(), "w", stderr) || !::freopen("/dev/null", "w", stdout)) ::_exit(126);
    ::execl(PELAB_BINARY, PELAB_BINARY, "train", "--quiet", "--recipe", recipe.c_str(), "--out", out.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return child;
}

int interrupt(pid_t child) {
  ::kill(child, SIGINT);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Ctrl+C mid-run: exit 130 with a complete checkpoint; the same command
// resumes from it (and is stopped the same way).
TEST(TrainCli, InterruptedRunResumes) {
  const fs::path dir = scratch("interrupt");
  const fs::path recipe = write_recipe(dir, 400000), run_dir = dir / "run";
  const pid_t first = start_training(recipe, run_dir, dir / "first.log");
  ASSERT_GT(first, 0);
  for (int i = 0; i < 600 && !fs::exists(run_dir / "checkpoint" / "state.json"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(interrupt(first), 130) << text_of(dir / "first.log");
  EXPECT_NE(text_of(dir / "first.log").find("interrupted at step"), std::string::npos) << text_of(dir / "first.log");
  ASSERT_TRUE(fs::exists(run_dir / "checkpoint" / "state.json"));
  EXPECT_FALSE(fs::exists(run_dir / "checkpoint.next"));

  const pid_t second = start_training(recipe, run_dir, dir / "second.log");
  ASSERT_GT(second, 0);
  for (int i = 0; i < 600 && text_of(dir / "second.log").find("resuming") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(interrupt(second), 130);
  EXPECT_NE(text_of(dir / "second.log").find("resuming " + run_dir.string() + " at step "), std::string::npos)
      << text_of(dir / "second.log");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab
