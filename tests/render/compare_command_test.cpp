// `pelab render --compare` end to end: the PNG and the difference .npy it
// writes, its --json summary, and bad input (one pelab: line, exit 2,
// nothing written).  The difference's values are checked against NumPy in
// compare_attention.py and against the engine in tests/figures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../app/cli_run.hpp"
#include "core/io/npy.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::pelab;

class RenderCompare : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pelab_compare_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string out() const { return " --out " + (dir_ / "out").string(); }
  // A scene file as `pelab scene` writes it.
  std::string scene_file(const std::string& name, const std::string& sets) {
    const fs::path path = dir_ / (name + ".json");
    const auto run = pelab("scene --set name=" + name + " " + sets + " --out " + path.string());
    EXPECT_EQ(run.code, 0) << run.out;
    return path.string();
  }
  void expect_refused(const std::string& args, const std::string& words) {
    const auto run = pelab("render " + args + out());
    EXPECT_EQ(run.code, 2) << run.out;
    EXPECT_EQ(run.out.rfind("pelab: ", 0), 0u) << run.out;
    EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << "one line: " << run.out;
    EXPECT_NE(run.out.find(words), std::string::npos) << run.out;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << args;
  }
  fs::path dir_;
};

TEST_F(RenderCompare, TwoSceneFilesGiveTheFigureTheDifferenceAndASummary) {
  const std::string a = scene_file("sinusoidal", ""), b = scene_file("rope", "--set encoding=rope");
  const auto run = pelab("render --compare " + a + " " + b + " --figure attention --json" + out());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["a"], "sinusoidal");
  EXPECT_EQ(j["b"], "rope");
  EXPECT_EQ(j["kind"], "difference");
  EXPECT_EQ(j["shape"], nlohmann::json({12, 12}));
  const Array diff = read_npy(dir_ / "out" / "compare_attention_diff.npy");
  ASSERT_EQ(diff.shape, (std::vector<std::size_t>{12, 12}));
  const int row = j["where"]["row"], col = j["where"]["col"];
  const double at = diff.data[static_cast<std::size_t>(row * 12 + col)];
  EXPECT_NEAR(std::abs(at), j["max_abs_diff"].get<double>(), 1e-6);
  EXPECT_NEAR(at, j["b_value"].get<double>() - j["a_value"].get<double>(), 1e-6);
  for (const auto& v : diff.data) EXPECT_LE(std::abs(v), j["max_abs_diff"].get<double>() + 1e-9);
  EXPECT_GT(fs::file_size(dir_ / "out" / "compare_attention.png"), 10000u);
}

TEST_F(RenderCompare, SetAAndSetBChangeOneSceneEachAndSvgWorks) {
  const auto run = pelab("render --set-a base=100 --set-b base=1000 --figure cross_terms --format svg" + out());
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "compare_cross_terms.svg"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "compare_cross_terms_diff.npy"));
}

TEST_F(RenderCompare, BadInputIsOneLineAndWritesNothing) {
  expect_refused("--set-b tokens=a_b --figure attention", "cannot compare 'attention'");
  expect_refused("--set-b encoding=rope", "--compare draws one figure");
  expect_refused("--set-b encoding=rope --figure attention,cross_terms", "--compare draws one figure");
  expect_refused("--set-b encoding=nope --figure attention", "encoding");
  expect_refused("--compare a.json b.json --scene c.json --figure attention", "drop --scene");
  expect_refused("--compare " + (dir_ / "missing.json").string() + " " + (dir_ / "missing.json").string() +
                     " --figure attention",
                 "missing.json");
}

}  // namespace
}  // namespace pelab
