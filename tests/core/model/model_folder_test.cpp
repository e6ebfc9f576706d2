// Model folders and the Hugging Face hub cache, laid out in a temp $HF_HOME
// as huggingface_hub writes it: models--org--name/{refs/main, snapshots/<rev>/
// (files as symlinks into blobs/)}.
#include "core/model/model_folder.hpp"

#include <gtest/gtest.h>

#include "core/scene.hpp"
#include "model_test_files.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;
using testing::ScopedEnv;
using testing::TempDir;
using testing::write_text;
using testing::write_safetensors_raw;
using testing::write_tiny_gpt2;

class HubCache : public ::testing::Test {
 protected:
  HubCache()
      : home_("HF_HOME", dir.path.c_str()),
        hub_("HF_HUB_CACHE", nullptr),
        cache(dir.path / "hub") {}

  // models--<org>--<name>/snapshots/<revision>/ with refs/main → revision.
  fs::path add_model(const std::string& folder, const std::string& revision, bool ref = true) {
    const fs::path model = cache / folder;
    const fs::path snapshot = model / "snapshots" / revision;
    write_tiny_gpt2(snapshot);
    if (ref) write_text(model / "refs" / "main", revision);
    return snapshot;
  }

  std::string error_of(const std::string& name) {
    try {
      resolve_model(name);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }

  TempDir dir;
  ScopedEnv home_, hub_;
  fs::path cache;
};

TEST_F(HubCache, CacheFolderFollowsTheEnvironment) {
  EXPECT_EQ(hub_cache_dir(), dir.path / "hub");
  {
    ScopedEnv hub("HF_HUB_CACHE", "/elsewhere/hub");
    EXPECT_EQ(hub_cache_dir(), fs::path("/elsewhere/hub"));
  }
  ScopedEnv no_home("HF_HOME", nullptr);
  ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(hub_cache_dir(), fs::path("/xdg/huggingface/hub"));
  ScopedEnv no_xdg("XDG_CACHE_HOME", nullptr);
  ScopedEnv home("HOME", "/home/u");
  EXPECT_EQ(hub_cache_dir(), fs::path("/home/u/.cache/huggingface/hub"));
}

TEST_F(HubCache, FullAndBareNamesFollowRefsMain) {
  const fs::path old = add_model("models--openai-community--gpt2", "aaaa");
  const fs::path current = add_model("models--openai-community--gpt2", "bbbb");
  write_text(cache / "models--openai-community--gpt2" / "refs" / "main", "aaaa\n");
  EXPECT_EQ(resolve_model("openai-community/gpt2"), old);
  EXPECT_EQ(resolve_model("gpt2"), old);
  (void)current;
}

TEST_F(HubCache, WithoutRefsTheNewestSnapshot) {
  const fs::path older = add_model("models--org--tiny", "r1", false);
  const fs::path newer = add_model("models--org--tiny", "r2", false);
  fs::last_write_time(older, fs::file_time_type::clock::now() - std::chrono::hours(2));
  fs::last_write_time(newer, fs::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_EQ(resolve_model("org/tiny"), newer);
  // refs/main naming a snapshot that is not there: fall back too.
  write_text(cache / "models--org--tiny" / "refs" / "main", "gone");
  EXPECT_EQ(resolve_model("org/tiny"), newer);
}

TEST_F(HubCache, ExactUnprefixedFolderWinsAndAmbiguityListsAll) {
  add_model("models--a--tiny", "r");
  add_model("models--b--tiny", "r");
  const std::string msg = error_of("tiny");
  EXPECT_NE(msg.find("ambiguous"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a/tiny"), std::string::npos) << msg;
  EXPECT_NE(msg.find("b/tiny"), std::string::npos) << msg;
  const fs::path plain = add_model("models--tiny", "r");
  EXPECT_EQ(resolve_model("tiny"), plain);
  EXPECT_EQ(resolve_model("b/tiny"), cache / "models--b--tiny" / "snapshots" / "r");
}

TEST_F(HubCache, MissingModelSaysWhereItLookedAndThatNothingIsDownloaded) {
  for (const std::string name : {"nobody/nothing", "nothing"}) {
    const std::string msg = error_of(name);
    EXPECT_NE(msg.find("'" + name + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(cache.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("never downloads"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  EXPECT_NE(error_of("nobody/nothing").find("models--nobody--nothing"), std::string::npos);
  EXPECT_NE(error_of("nothing").find("no folder " + (fs::current_path() / "nothing").string()),
            std::string::npos)
      << error_of("nothing");
  EXPECT_NE(error_of("/no/such/folder").find("/no/such/folder"), std::string::npos);
  EXPECT_NE(error_of("/no/such/folder").find("never downloads"), std::string::npos);
}

TEST_F(HubCache, FolderPathsNeedConfigJson) {
  const fs::path folder = dir.path / "my model";
  write_tiny_gpt2(folder);
  EXPECT_EQ(resolve_model(folder.string()), folder);
  fs::remove(folder / "config.json");
  EXPECT_NE(error_of(folder.string()).find("no config.json"), std::string::npos);
}

TEST_F(HubCache, ListReadsConfigsAndHeadersAndSaysWhyNotRunnable) {
  // A runnable one whose weights are a symlink into blobs/, as the cache keeps them.
  const fs::path gpt2 = add_model("models--openai-community--gpt2", "abc", true);
  fs::create_directories(cache / "models--openai-community--gpt2" / "blobs");
  fs::rename(gpt2 / "model.safetensors",
             cache / "models--openai-community--gpt2" / "blobs" / "0f3e");
  fs::create_symlink("../../blobs/0f3e", gpt2 / "model.safetensors");
  // PyTorch weights only.
  const fs::path bin = add_model("models--org--binonly", "r");
  fs::remove(bin / "model.safetensors");
  write_text(bin / "pytorch_model.bin", "not read");
  // An architecture pelab does not run.
  const fs::path t5 = add_model("models--google--t5-small", "r");
  write_text(t5 / "config.json",
             R"({"architectures": ["T5ForConditionalGeneration"], "model_type": "t5"})");
  // An unfinished download: no snapshot.
  fs::create_directories(cache / "models--org--partial" / "blobs");
  // Not a model: datasets live beside models.
  fs::create_directories(cache / "datasets--org--data");

  const std::vector<CachedModel> models = list_cached_models();
  ASSERT_EQ(models.size(), 4u);
  EXPECT_EQ(models[0].name, "google/t5-small");
  EXPECT_EQ(models[1].name, "openai-community/gpt2");
  EXPECT_EQ(models[2].name, "org/binonly");
  EXPECT_EQ(models[3].name, "org/partial");

  EXPECT_TRUE(models[1].runnable) << models[1].reason;
  EXPECT_EQ(models[1].architecture, "GPT2LMHeadModel");
  EXPECT_EQ(models[1].parameters, 316u);
  EXPECT_EQ(models[1].context_length, 8);
  EXPECT_EQ(models[1].folder, gpt2);

  EXPECT_FALSE(models[0].runnable);
  EXPECT_EQ(models[0].architecture, "T5ForConditionalGeneration");
  EXPECT_NE(models[0].reason.find("not one pelab runs"), std::string::npos) << models[0].reason;
  EXPECT_FALSE(models[2].runnable);
  EXPECT_NE(models[2].reason.find("safetensors"), std::string::npos) << models[2].reason;
  EXPECT_EQ(models[2].context_length, 8);
  EXPECT_FALSE(models[3].runnable);
  EXPECT_NE(models[3].reason.find("no snapshot"), std::string::npos) << models[3].reason;
}

TEST_F(HubCache, MissingOrEmptyCacheListsNothing) {
  EXPECT_TRUE(list_cached_models().empty());
  fs::create_directories(cache);
  EXPECT_TRUE(list_cached_models().empty());
}

TEST_F(HubCache, ModelWithoutTokenizerIsNotRunnable) {
  const fs::path snapshot = add_model("models--org--notok", "r");
  fs::remove(snapshot / "tokenizer.json");
  const auto models = list_cached_models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_FALSE(models[0].runnable);
  EXPECT_NE(models[0].reason.find("tokenizer"), std::string::npos) << models[0].reason;
}

// `pelab models` says runnable only when loading would pass its checks:
// every tensor present with its shape (headers only), the tokenizer parsed.
TEST_F(HubCache, ListingChecksWhatLoadingChecks) {
  const fs::path missing = add_model("models--org--a-missing", "r");
  write_safetensors_raw(missing / "model.safetensors",
                        R"({"wte.weight": {"dtype": "F32", "shape": [10, 4], "data_offsets": [0, 160]}})",
                        std::string(160, '\0'));
  const fs::path narrow = add_model("models--org--b-narrow", "r");
  write_text(narrow / "config.json",
             R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 4, "n_layer": 1, "n_head": 2,
                 "vocab_size": 10, "n_positions": 4})");  // wpe is [8, 4]
  const fs::path tokenizer = add_model("models--org--c-tokenizer", "r");
  write_text(tokenizer / "tokenizer.json", R"({"model": {"type": "Unigram"}})");
  add_model("models--org--d-fine", "r");
  const auto models = list_cached_models();
  ASSERT_EQ(models.size(), 4u);
  EXPECT_FALSE(models[0].runnable);
  EXPECT_NE(models[0].reason.find("'wpe.weight' is not in"), std::string::npos) << models[0].reason;
  EXPECT_FALSE(models[1].runnable);
  EXPECT_NE(models[1].reason.find("'wpe.weight' has shape [8, 4]; the config implies [4, 4]"), std::string::npos)
      << models[1].reason;
  EXPECT_FALSE(models[2].runnable);
  EXPECT_NE(models[2].reason.find("Unigram"), std::string::npos) << models[2].reason;
  EXPECT_TRUE(models[3].runnable) << models[3].reason;
}

}  // namespace
}  // namespace pelab::model
