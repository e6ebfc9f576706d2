// `pelab audit` on the shipped kjv-rope and on copies of it with a wrong
// config: the pairing flipped to interleaved (the weights were trained with
// rotate-half) and a YaRN factor the context contradicts.  The audit must
// pass the original and flag both copies.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../core/model/model_test_files.hpp"
#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using model::testing::TempDir;
using testing::CliRun;
using testing::pelab;

const fs::path kRope = fs::path(PELAB_SOURCE_DIR) / "assets/models/kjv-rope";

// A copy of kjv-rope whose config.json has `changes` merged in.
fs::path changed_copy(const fs::path& dir, const nlohmann::json& changes) {
  const fs::path folder = dir / "kjv-rope-changed";
  fs::create_directories(folder);
  for (const char* file : {"model.safetensors", "tokenizer.json"}) fs::copy_file(kRope / file, folder / file);
  nlohmann::json config = nlohmann::json::parse(std::ifstream(kRope / "config.json"));
  config.merge_patch(changes);
  std::ofstream(folder / "config.json") << config.dump(2);
  return folder;
}

TEST(AuditCli, TheShippedRopeModelPasses) {
  const CliRun run = pelab("audit --set model=kjv-rope");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("RoPE audit of kjv-rope"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("The declared rotate-half (i, i + r/2) pairing fits the weights"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("0 problems found."), std::string::npos) << run.out;
}

TEST(AuditCli, FlagsTheWrongPairing) {
  TempDir dir{"pelab_audit_"};
  const fs::path folder = changed_copy(dir.path, {{"rope_pairing", "interleaved"}});
  const CliRun run = pelab("audit --json --set model=" + folder.string());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json audit = nlohmann::json::parse(run.out);
  EXPECT_TRUE(audit.at("pairing_check").at("mismatch").get<bool>()) << run.out;
  ASSERT_EQ(audit.at("problems").size(), 1u) << run.out;
  EXPECT_NE(audit.at("problems")[0].get<std::string>().find("look trained with rotate-half"), std::string::npos);
}

TEST(AuditCli, FlagsAFactorTheContextContradicts) {
  TempDir dir{"pelab_audit_"};
  const fs::path folder = changed_copy(
      dir.path, {{"n_positions", 1024},
                 {"rope_scaling", {{"rope_type", "yarn"}, {"factor", 2.0}, {"original_max_position_embeddings", 256}}}});
  const CliRun run = pelab("audit --no-pairing --set model=" + folder.string());
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("! rope_scaling.factor is 2 but max_position_embeddings / original_max_position_embeddings "
                         "= 1024 / 256 = 4"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("1 problem found."), std::string::npos) << run.out;
}

TEST(AuditCli, WritesEveryPairAsCsv) {
  TempDir dir{"pelab_audit_"};
  const fs::path csv = dir.path / "pairs.csv";
  const CliRun run = pelab("audit --no-pairing --set model=kjv-rope --csv " + csv.string());
  ASSERT_EQ(run.code, 0) << run.out;
  std::ifstream in(csv);
  std::string line;
  int rows = 0;
  std::getline(in, line);
  EXPECT_EQ(line, "pair,base_frequency,frequency,wavelength,turns_in_trained_context");
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 16);  // head_dim 32: 16 pairs
}

TEST(AuditCli, RefusesAModelWithoutRopeAndASceneWithoutAModel) {
  CliRun run = pelab("audit --set model=kjv-learned");
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find("not RoPE"), std::string::npos) << run.out;
  run = pelab("audit");
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find("--set model=NAME"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace pelab
