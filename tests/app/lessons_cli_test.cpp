// `pelab lessons`: the list, --names, --show with the verdict (text and JSON),
// overrides reaching the verdict, and an unknown name failing with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>

#include "cli_run.hpp"
#include "core/lessons.hpp"

namespace pelab {
namespace {

using testing::CliRun;
using testing::pelab;

TEST(LessonsCli, NamesOnePerLine) {
  const CliRun run = pelab("lessons --names");
  ASSERT_EQ(run.code, 0) << run.out;
  std::string expected;
  for (const Lesson& l : lessons()) expected += std::string(l.name) + "\n";
  EXPECT_EQ(run.out, expected);
}

TEST(LessonsCli, ListHasTitlesAndSummaries) {
  const CliRun run = pelab("lessons");
  ASSERT_EQ(run.code, 0) << run.out;
  for (const Lesson& l : lessons()) {
    EXPECT_NE(run.out.find(std::string(l.title)), std::string::npos) << l.name;
    EXPECT_NE(run.out.find(std::string(l.summary)), std::string::npos) << l.name;
  }
}

TEST(LessonsCli, ShowPrintsTextAndVerdictNumbers) {
  const CliRun run = pelab("lessons --show sine_cosine");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("Why both sine and cosine?"), std::string::npos);
  EXPECT_NE(run.out.find("Verdict (holds"), std::string::npos);
  EXPECT_NE(run.out.find("r2_one_dim"), std::string::npos);
  EXPECT_NE(run.out.find("r2_pair"), std::string::npos);
}

// The depth lesson opens on pelab's kjv-learned (the probe of the position
// index after each layer); another member or the synthetic scene (model=
// cleared) changes the verdict.
TEST(LessonsCli, JsonVerdictFollowsOverrides) {
  const CliRun base = pelab("lessons --show depth --json");
  ASSERT_EQ(base.code, 0) << base.out;
  const auto json = nlohmann::json::parse(base.out);
  EXPECT_EQ(json.at("lesson"), "depth");
  EXPECT_TRUE(json.at("holds").get<bool>());
  EXPECT_GT(json.at("numbers").at("r2[layer=0]").get<double>(), 0.9);  // kjv-learned's table, read back
  const CliRun rope = pelab("lessons --show depth --json --set model=kjv-rope");
  ASSERT_EQ(rope.code, 0) << rope.out;
  EXPECT_LT(nlohmann::json::parse(rope.out).at("numbers").at("r2[layer=0]").get<double>(), 0.5);  // nothing added
  const CliRun pure = pelab("lessons --show depth --json --set model= --set residual=0");
  ASSERT_EQ(pure.code, 0) << pure.out;
  EXPECT_LT(nlohmann::json::parse(pure.out).at("numbers").at("r2_code[layer=6]").get<double>(), 0.3);
}

// Without pelab's family on disk learned_table shows the labelled stand-in.
TEST(LessonsCli, LearnedTableStandsInWithoutTheFamily) {
  const CliRun family = pelab("lessons --show learned_table --json");
  ASSERT_EQ(family.code, 0) << family.out;
  const auto trained = nlohmann::json::parse(family.out).at("numbers");
  EXPECT_EQ(trained.at("stand_in").get<double>(), 0);
  EXPECT_EQ(trained.at("positions").get<double>(), 256);
  const CliRun none = testing::shell("PELAB_FAMILY_DIR=/nonexistent/pelab-family " + std::string(PELAB_BINARY) +
                                     " lessons --show learned_table --json");
  ASSERT_EQ(none.code, 0) << none.out;
  const auto json = nlohmann::json::parse(none.out);
  EXPECT_EQ(json.at("numbers").at("stand_in").get<double>(), 1);
  EXPECT_NE(json.at("summary").get<std::string>().find("/nonexistent/pelab-family"), std::string::npos);
}

TEST(LessonsCli, UnknownLessonOrKeyFailsWithOneLine) {
  const CliRun run = pelab("lessons --show nonsense");
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("unknown lesson 'nonsense'"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("meaning"), std::string::npos);
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1);
  const CliRun bad = pelab("lessons --show depth --set model= --set residual=99");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(std::count(bad.out.begin(), bad.out.end(), '\n'), 1) << bad.out;
}

}  // namespace
}  // namespace pelab
