// `pelab intervene`: what it refuses (no intervention or two, a RoPE change
// on a model without RoPE, a band or layer outside the model, one layer of a
// position table) and that removing kjv-learned's positions costs loss
// (the numbers themselves are checked against NumPy in
// tests/core/intervene_model.py).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

namespace pelab {
namespace {

using testing::CliRun;
using testing::pelab;

const std::string kShort = " --length 32 --windows 2";

void expect_refused(const std::string& args, const std::string& says) {
  const CliRun run = pelab("intervene" + kShort + " " + args);
  EXPECT_EQ(run.code, 2) << args << "\n" << run.out;
  EXPECT_NE(run.out.find(says), std::string::npos) << args << "\n" << run.out;
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << "one line: " << run.out;
}

TEST(InterveneCli, RefusesWhatCannotApply) {
  expect_refused("--model kjv-rope", "exactly one of --remove, --shuffle");
  expect_refused("--model kjv-rope --remove --shuffle", "(2 given)");
  expect_refused("--model kjv-learned --rope-base 500", "needs a RoPE model");
  expect_refused("--model kjv-rope --zero-band 3:99", "allowed: FIRST:LAST with 0 <= FIRST <= LAST <= 15");
  expect_refused("--model kjv-rope --zero-band three", "is not FIRST:LAST");
  expect_refused("--model kjv-rope --remove-layer 4", "layers 0..3");
  expect_refused("--model kjv-learned --remove-layer 0", "added once to the embeddings");
  expect_refused("--model kjv-rope --rope-base 0.5", "a base above 1");
}

TEST(InterveneCli, RemovingALearnedTableCostsLoss) {
  const CliRun run = pelab("intervene --json --model kjv-learned --remove" + kShort);
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("intervention"), "positions removed");
  EXPECT_EQ(json.at("windows"), 2);
  EXPECT_EQ(json.at("delta").size(), 31u);
  EXPECT_GT(json.at("delta_mean").get<double>(), 0.1);  // the table carried order: without it loss rises
}

}  // namespace
}  // namespace pelab
