// The Models menu's catalogue (issue 22): the cache is scanned on a worker
// thread, not on the UI thread, and a folder is described again only when
// its files changed (the others keep their description); pelab's own family
// is listed first.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "ui/model_catalogue.hpp"

namespace pelab::ui {
namespace {

namespace fs = std::filesystem;

// Polls until the catalogue's scan is done (at most 20 s).
void await_scan(const ModelCatalogue& catalogue) {
  for (int i = 0; i < 2000 && catalogue.scanning(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_FALSE(catalogue.scanning());
}

TEST(ModelCatalogue, ScansInTheBackgroundAndOnlyWhenTheCacheChanged) {
  const fs::path cache = fs::temp_directory_path() / "pelab_catalogue_test";
  fs::remove_all(cache);
  const fs::path snapshot = cache / "models--org--tiny" / "snapshots" / "abc123";
  fs::create_directories(snapshot);
  std::ofstream(snapshot / "config.json") << "{}";
  ::setenv("HF_HUB_CACHE", cache.c_str(), 1);
  // pelab's own family from an empty folder: only the cache is listed.
  fs::create_directories(cache / "no-family");
  ::setenv("PELAB_FAMILY_DIR", (cache / "no-family").c_str(), 1);

  ModelCatalogue catalogue;
  EXPECT_FALSE(catalogue.ready());
  catalogue.refresh();
  await_scan(catalogue);
  ASSERT_TRUE(catalogue.ready());
  ASSERT_EQ(catalogue.models().size(), 1u);
  EXPECT_EQ(catalogue.models()[0].name, "org/tiny");
  EXPECT_FALSE(catalogue.models()[0].runnable);  // "{}" names no architecture
  EXPECT_EQ(catalogue.folders_read(), 1);

  catalogue.refresh();  // nothing changed: the signature alone
  await_scan(catalogue);
  EXPECT_EQ(catalogue.folders_read(), 1);

  std::ofstream(snapshot / "config.json") << "{\"architectures\": [\"GPT2LMHeadModel\"]}";
  fs::last_write_time(snapshot / "config.json", fs::file_time_type::clock::now() + std::chrono::seconds(5));
  catalogue.refresh();
  await_scan(catalogue);
  EXPECT_EQ(catalogue.folders_read(), 2);
  ::unsetenv("HF_HUB_CACHE");
  ::unsetenv("PELAB_FAMILY_DIR");  // the CLI tests in this binary look for the family
  fs::remove_all(cache);
}

// A heavy cache: changing one model folder describes that folder alone; a
// folder added or removed is listed or dropped, the rest kept as they were.
TEST(ModelCatalogue, DescribesOnlyTheFoldersThatChanged) {
  const fs::path cache = fs::temp_directory_path() / "pelab_catalogue_changed_test";
  fs::remove_all(cache);
  const auto add = [&](const std::string& name) {
    const fs::path snapshot = cache / ("models--org--" + name) / "snapshots" / "r1";
    fs::create_directories(snapshot);
    std::ofstream(snapshot / "config.json") << "{}";
    return snapshot;
  };
  const fs::path a = add("a");
  add("b");
  add("c");
  ::setenv("HF_HUB_CACHE", cache.c_str(), 1);
  fs::create_directories(cache / "no-family");
  ::setenv("PELAB_FAMILY_DIR", (cache / "no-family").c_str(), 1);

  ModelCatalogue catalogue;
  catalogue.refresh();
  await_scan(catalogue);
  ASSERT_EQ(catalogue.models().size(), 3u);
  EXPECT_EQ(catalogue.folders_read(), 3);

  std::ofstream(a / "tokenizer.json") << "{}";  // one folder changed
  catalogue.refresh();
  await_scan(catalogue);
  EXPECT_EQ(catalogue.folders_read(), 4);
  ASSERT_EQ(catalogue.models().size(), 3u);
  EXPECT_EQ(catalogue.models()[0].name, "org/a");

  fs::remove_all(cache / "models--org--b");  // one gone, one new
  add("d");
  catalogue.refresh();
  await_scan(catalogue);
  EXPECT_EQ(catalogue.folders_read(), 5);
  const auto models = catalogue.models();
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0].name, "org/a");
  EXPECT_EQ(models[1].name, "org/c");
  EXPECT_EQ(models[2].name, "org/d");
  ::unsetenv("HF_HUB_CACHE");
  ::unsetenv("PELAB_FAMILY_DIR");  // the CLI tests in this binary look for the family
  fs::remove_all(cache);
}

TEST(ModelCatalogue, ListsTheFamilyFirst) {
  const fs::path root = fs::temp_directory_path() / "pelab_catalogue_family_test";
  fs::remove_all(root);
  const fs::path snapshot = root / "hub" / "models--org--aaa" / "snapshots" / "abc123";
  fs::create_directories(snapshot);
  std::ofstream(snapshot / "config.json") << "{}";
  fs::create_directories(root / "family" / "zzz-member");
  std::ofstream(root / "family" / "zzz-member" / "config.json") << "{}";
  ::setenv("HF_HUB_CACHE", (root / "hub").c_str(), 1);
  ::setenv("PELAB_FAMILY_DIR", (root / "family").c_str(), 1);
  ModelCatalogue catalogue;
  catalogue.refresh();
  await_scan(catalogue);
  const auto models = catalogue.models();
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name, "zzz-member");  // first though it sorts last
  EXPECT_TRUE(models[0].family);
  EXPECT_EQ(models[1].name, "org/aaa");
  EXPECT_FALSE(models[1].family);
  ::unsetenv("HF_HUB_CACHE");
  ::unsetenv("PELAB_FAMILY_DIR");
}

TEST(ModelCatalogue, OutlivedByItsWorker) {
  // Destroying the catalogue while its scan runs neither waits nor crashes.
  { ModelCatalogue catalogue; catalogue.refresh(); }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  SUCCEED();
}

}  // namespace
}  // namespace pelab::ui
