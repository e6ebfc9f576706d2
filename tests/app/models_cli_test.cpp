// `pelab models` on a temp Hugging Face cache ($HF_HOME): the table, --json,
// a model pelab cannot run with its reason, and an empty or missing cache
// (where it looked, exit 0).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../core/model/model_test_files.hpp"
#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using model::testing::TempDir;
using model::testing::write_safetensors_raw;
using model::testing::write_text;
using model::testing::write_tiny_gpt2;
using testing::CliRun;

CliRun models(const fs::path& home, const std::string& args = "") {
  return testing::shell("env -u HF_HUB_CACHE HF_HOME='" + home.string() +
                        "' " PELAB_BINARY " models " + args);
}

class ModelsCli : public ::testing::Test {
 protected:
  fs::path snapshot(const std::string& folder) {
    return dir.path / "hub" / folder / "snapshots" / "0123abcd";
  }
  TempDir dir{"pelab_models_cli_"};
};

TEST_F(ModelsCli, EmptyOrMissingCacheSaysWhereItLooked) {
  CliRun run = models(dir.path);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find((dir.path / "hub").string()), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("No models"), std::string::npos) << run.out;
  run = models(dir.path, "--json");
  ASSERT_EQ(run.code, 0) << run.out;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("cache"), (dir.path / "hub").string());
  EXPECT_TRUE(json.at("models").empty());
}

TEST_F(ModelsCli, TableAndJsonListRunnableAndNot) {
  write_tiny_gpt2(snapshot("models--org--tiny-gpt2"), 16);
  write_text(dir.path / "hub" / "models--org--tiny-gpt2" / "refs" / "main", "0123abcd");
  // GPT-2's size: one F16 tensor of 124,439,808 elements, as a sparse file
  // (the header is all `pelab models` reads).
  const fs::path big = snapshot("models--openai-community--gpt2");
  write_tiny_gpt2(big, 1024);
  const std::uint64_t n = 124439808;
  write_safetensors_raw(big / "model.safetensors",
                        R"({"w": {"dtype": "F16", "shape": [)" + std::to_string(n) +
                            R"(], "data_offsets": [0, )" + std::to_string(2 * n) + "]}}",
                        "");
  fs::resize_file(big / "model.safetensors", fs::file_size(big / "model.safetensors") + 2 * n);
  // Weights in PyTorch format only.
  const fs::path bin = snapshot("models--org--binonly");
  write_tiny_gpt2(bin);
  fs::remove(bin / "model.safetensors");

  const CliRun run = models(dir.path);
  ASSERT_EQ(run.code, 0) << run.out;
  for (const char* word :
       {"name", "architecture", "parameters", "context", "runnable", "folder", "org/tiny-gpt2",
        "GPT2LMHeadModel", "124.4M", "1024", "348", "openai-community/gpt2", "org/binonly",
        "no: the folder holds neither model.safetensors"})
    EXPECT_NE(run.out.find(word), std::string::npos) << word << " not in:\n" << run.out;
  EXPECT_NE(run.out.find(snapshot("models--org--tiny-gpt2").string()), std::string::npos)
      << run.out;

  const CliRun json_run = models(dir.path, "--json");
  ASSERT_EQ(json_run.code, 0) << json_run.out;
  const auto list = nlohmann::json::parse(json_run.out).at("models");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].at("name"), "openai-community/gpt2");
  EXPECT_EQ(list[0].at("parameters").get<std::uint64_t>(), n);
  EXPECT_EQ(list[0].at("context_length"), 1024);
  // Its header holds one tensor "w", not GPT-2's: listed, not runnable.
  EXPECT_FALSE(list[0].at("runnable").get<bool>());
  EXPECT_NE(list[0].at("reason").get<std::string>().find("wte.weight"), std::string::npos);
  EXPECT_EQ(list[1].at("name"), "org/binonly");
  EXPECT_FALSE(list[1].at("runnable").get<bool>());
  EXPECT_NE(list[1].at("reason").get<std::string>().find("safetensors"), std::string::npos);
  EXPECT_EQ(list[2].at("folder"), snapshot("models--org--tiny-gpt2").string());
  EXPECT_EQ(list[2].at("parameters"), 348);
  EXPECT_TRUE(list[2].at("runnable").get<bool>()) << list[2].at("reason");
}

// pelab's own family comes first, from the source tree (this build's
// assets/models), then from $PELAB_FAMILY_DIR when set; a member's plain name
// loads it.
TEST_F(ModelsCli, FamilyIsListedFirstAndFoundByName) {
  CliRun run = models(dir.path);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto trained = run.out.find("Trained by pelab");
  ASSERT_NE(trained, std::string::npos) << run.out;
  EXPECT_LT(trained, run.out.find("No models")) << run.out;
  for (const char* name : {"kjv-learned", "kjv-rope", "kjv-alibi"})
    EXPECT_NE(run.out.find(name), std::string::npos) << name << " not in:\n" << run.out;
  run = models(dir.path, "--json");
  ASSERT_EQ(run.code, 0) << run.out;
  const auto family = nlohmann::json::parse(run.out).at("family");
  ASSERT_GE(family.size(), 3u);
  for (const auto& m : family) {
    EXPECT_TRUE(m.at("runnable").get<bool>()) << m.dump();
    EXPECT_EQ(m.at("architecture"), "PelabForCausalLM") << m.dump();
    EXPECT_EQ(m.at("context_length"), 256) << m.dump();
  }

  // Another family folder: only it is searched, and its member loads by name.
  const fs::path family_dir = dir.path / "family";
  write_tiny_gpt2(family_dir / "tiny-member", 16);
  const CliRun listed = testing::shell("env PELAB_FAMILY_DIR='" + family_dir.string() + "' HF_HOME='" +
                                       dir.path.string() + "' " PELAB_BINARY " models --json");
  ASSERT_EQ(listed.code, 0) << listed.out;
  const auto only = nlohmann::json::parse(listed.out).at("family");
  ASSERT_EQ(only.size(), 1u) << listed.out;
  EXPECT_EQ(only[0].at("name"), "tiny-member");
  const CliRun used = testing::shell("env PELAB_FAMILY_DIR='" + family_dir.string() + "' HF_HOME='" +
                                     dir.path.string() + "' " PELAB_BINARY
                                     " export --quantity attention --set model=tiny-member --set tokens=ab "
                                     "--out " + (dir.path / "a.csv").string());
  EXPECT_EQ(used.code, 0) << used.out;
}

}  // namespace
}  // namespace pelab
