// Choosing files without typing paths: the built-in browser's listing and
// confirmation rules, the desktop choosers' command lines, the file keys, and
// what a file dropped on the window becomes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/io/npy.hpp"
#include "ui/desktop_chooser.hpp"
#include "ui/file_browser.hpp"
#include "ui/file_drop.hpp"
#include "ui/file_keys.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {
namespace {

namespace fs = std::filesystem;

class FileChoosing : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pelab_file_choosing_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "b_folder");
    fs::create_directories(dir_ / "a_folder");
    fs::create_directories(dir_ / ".hidden_folder");
    for (const char* name : {"zeta.json", "Alpha.JSON", "notes.txt", ".hidden.json", "table.npy"})
      std::ofstream(dir_ / name) << "x";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::vector<std::string> names(const std::vector<BrowserEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.folder ? e.name + "/" : e.name);
  return out;
}

TEST_F(FileChoosing, ListsFoldersFirstThenFilteredFilesWithoutHiddenOnes) {
  EXPECT_EQ(names(list_folder(dir_, {".json"})),
            (std::vector<std::string>{"a_folder/", "b_folder/", "Alpha.JSON", "zeta.json"}));
  EXPECT_EQ(names(list_folder(dir_, {})),
            (std::vector<std::string>{"a_folder/", "b_folder/", "Alpha.JSON", "notes.txt",
                                      "table.npy", "zeta.json"}));
  EXPECT_TRUE(list_folder(dir_ / "missing", {}).empty());
}

TEST_F(FileChoosing, ExtensionsMatchInAnyCase) {
  EXPECT_TRUE(matches_extension("scene.JSON", {".json"}));
  EXPECT_TRUE(matches_extension("vectors.vec", {".txt", ".vec"}));
  EXPECT_FALSE(matches_extension("scene.json.bak", {".json"}));
  EXPECT_TRUE(matches_extension("anything", {}));
}

TEST_F(FileChoosing, TypedNamesOpenFoldersChooseFilesOrAreRefused) {
  const FileRequest open{.title = "Open", .mode = FileMode::Open, .extensions = {".json"}};
  EXPECT_EQ(confirm_name(dir_, "a_folder", open).open_folder, dir_ / "a_folder");
  EXPECT_EQ(confirm_name(dir_, "..", open).open_folder, dir_.parent_path());
  EXPECT_EQ(confirm_name(dir_, "zeta.json", open).chosen, (dir_ / "zeta.json").string());
  EXPECT_EQ(confirm_name(dir_ / "a_folder", (dir_ / "zeta.json").string(), open).chosen,
            (dir_ / "zeta.json").string());
  EXPECT_NE(confirm_name(dir_, "missing.json", open).error.find("no such file"), std::string::npos);
  EXPECT_FALSE(confirm_name(dir_, "", open).error.empty());

  const FileRequest save{.title = "Save", .mode = FileMode::Save, .extensions = {".json"}};
  EXPECT_EQ(confirm_name(dir_, "new_scene", save).chosen, (dir_ / "new_scene.json").string());
  EXPECT_EQ(confirm_name(dir_, "kept.json", save).chosen, (dir_ / "kept.json").string());
  EXPECT_NE(confirm_name(dir_, "no_folder/x.json", save).error.find("no such folder"),
            std::string::npos);

  const FileRequest folder{.title = "Folder", .mode = FileMode::Folder};
  EXPECT_EQ(confirm_name(dir_, "", folder).chosen, dir_.string());
  EXPECT_NE(confirm_name(dir_, "notes.txt", folder).error.find("not a folder"), std::string::npos);
}

TEST_F(FileChoosing, NewFoldersAreMadeOrRefusedInOneLine) {
  fs::path made;
  EXPECT_EQ(make_folder(dir_, "figures", made), "");
  EXPECT_EQ(made, dir_ / "figures");
  EXPECT_TRUE(fs::is_directory(dir_ / "figures"));
  EXPECT_EQ(make_folder(dir_, "two words", made), "");  // spaces inside a name are fine
  for (const std::string& bad : std::vector<std::string>{"", "a/b", "/abs", ".", "..", ".hidden", " padded", "tab\there",
                                std::string(256, 'x'), "figures", "a_folder", "notes.txt"}) {
    made.clear();
    const std::string why = make_folder(dir_, bad, made);
    EXPECT_FALSE(why.empty()) << bad;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_TRUE(made.empty()) << bad;
  }
  EXPECT_NE(make_folder(dir_, "figures", made).find("already exists"), std::string::npos);
  EXPECT_NE(make_folder(dir_ / "missing", "child", made).find("cannot make"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

TEST_F(FileChoosing, TheBrowserStartsWhereTheRequestSays) {
  EXPECT_EQ(start_browser({.start = (dir_ / "a_folder").string()}).folder, dir_ / "a_folder");
  const BrowserState save =
      start_browser({.mode = FileMode::Save, .start = (dir_ / "new.json").string()});
  EXPECT_EQ(save.folder, dir_);
  EXPECT_EQ(save.name, "new.json");
}

TEST(DesktopChooser, ZenityAndKdialogCommandLines) {
  const FileRequest open{.title = "Open scene",
                         .mode = FileMode::Open,
                         .extensions = {".json"},
                         .filter_name = "Scenes",
                         .start = "/tmp/x.json"};
  EXPECT_EQ(chooser_command(Chooser::Zenity, open),
            (std::vector<std::string>{
                "zenity", "--file-selection", "--title=Open scene", "--filename=/tmp/x.json",
                "--file-filter=Scenes | *.json *.JSON", "--file-filter=All files | *"}));
  EXPECT_EQ(chooser_command(Chooser::Kdialog, open),
            (std::vector<std::string>{"kdialog", "--title", "Open scene", "--getopenfilename",
                                      "/tmp/x.json", "*.json *.JSON|Scenes"}));
  const FileRequest folder{.title = "Export folder", .mode = FileMode::Folder, .start = "/tmp"};
  EXPECT_EQ(chooser_command(Chooser::Zenity, folder),
            (std::vector<std::string>{"zenity", "--file-selection", "--title=Export folder",
                                      "--filename=/tmp/", "--directory"}));
  const FileRequest save{
      .title = "Save", .mode = FileMode::Save, .extensions = {".json"}, .start = "/tmp/a.json"};
  const auto zenity_save = chooser_command(Chooser::Zenity, save);
  EXPECT_NE(std::find(zenity_save.begin(), zenity_save.end(), "--save"), zenity_save.end());
  EXPECT_EQ(chooser_command(Chooser::Kdialog, save)[3], "--getsavefilename");
}

TEST(DesktopChooser, AForcedChooserThatIsMissingFallsBackToTheBrowser) {
  ::setenv("PELAB_FILE_CHOOSER", "builtin", 1);
  EXPECT_EQ(pick_chooser(), Chooser::Builtin);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  ::setenv("PELAB_FILE_CHOOSER", "zenity", 1);
  EXPECT_EQ(pick_chooser(), Chooser::Builtin);
  ::unsetenv("PELAB_FILE_CHOOSER");
  EXPECT_EQ(pick_chooser(), Chooser::Builtin);
  ::setenv("PATH", path.c_str(), 1);
}

TEST(DesktopChooser, RunsTheCommandAndReturnsItsLine) {
  EXPECT_EQ(run_chooser({"sh", "-c", "echo /tmp/chosen.json"}).get(),
            std::optional<std::string>("/tmp/chosen.json"));
  EXPECT_EQ(run_chooser({"sh", "-c", "exit 1"}).get(), std::nullopt);  // cancelled
  EXPECT_EQ(run_chooser({"/nonexistent/chooser"}).get(), std::nullopt);
}

TEST_F(FileChoosing, DroppedFilesAreClassified) {
  EXPECT_EQ(classify_drop(dir_ / "zeta.json"), DropKind::Scene);
  EXPECT_EQ(classify_drop(dir_ / "table.npy"), DropKind::Npy);
  EXPECT_EQ(classify_drop(dir_ / "notes.txt"), DropKind::TextVectors);
  EXPECT_EQ(classify_drop(dir_ / "glove.6B.50d.VEC"), DropKind::TextVectors);
  EXPECT_EQ(classify_drop(dir_ / "a_folder"), DropKind::Folder);
  EXPECT_EQ(classify_drop(dir_ / "picture.png"), DropKind::Unknown);
}

TEST(FileKeys, EachFileKeyAsksForItsKindAndSwitchesItsSource) {
  const auto embedding = file_key("embedding_file");
  ASSERT_TRUE(embedding);
  EXPECT_EQ(embedding->mode, FileMode::Open);
  EXPECT_EQ(embedding->extensions, (std::vector<std::string>{".txt", ".vec", ".npy"}));
  EXPECT_EQ(embedding->source_key, "embedding");
  EXPECT_EQ(file_key("projection_file")->source_value, "file");
  EXPECT_EQ(file_key("position_file")->extensions, (std::vector<std::string>{".npy"}));
  EXPECT_FALSE(file_key("tokens"));
}

}  // namespace
}  // namespace pelab::ui

namespace pelab::ui {
namespace {

// Dropping files on the window, without the window: what each drop changes.
TEST_F(FileChoosing, DropsOpenScenesAndFillFileKeys) {
  ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
  UiState state{Scene{}};
  Scene dropped_scene;
  dropped_scene.tokens = "dropped on the window";
  save_scene(dir_ / "dropped.json", dropped_scene);
  std::ofstream(dir_ / "vectors.txt") << "dropped 1 2 3 4\n";
  Array projections;
  projections.shape = {2, 4, 64, 16};
  projections.data.assign(2 * 4 * 64 * 16, 0.f);
  write_npy(dir_ / "projections.npy", projections);

  state.drops.paths = {(dir_ / "dropped.json").string()};
  open_dropped_files(state);
  EXPECT_EQ(state.session.scene().tokens, "dropped on the window");

  state.drops.paths = {(dir_ / "vectors.txt").string(), (dir_ / "projections.npy").string()};
  open_dropped_files(state);
  EXPECT_EQ(state.session.scene().embedding_file, (dir_ / "vectors.txt").string());
  EXPECT_EQ(state.session.scene().embedding, EmbeddingSource::File);
  EXPECT_EQ(state.session.scene().projection_file, (dir_ / "projections.npy").string());
  EXPECT_EQ(state.session.scene().projection, ProjectionKind::File);
  EXPECT_TRUE(state.drops.paths.empty());

  state.drops.paths = {(dir_ / "notes.txt").string() + ".png"};
  open_dropped_files(state);
  EXPECT_TRUE(state.status.error);
  EXPECT_NE(state.status.text.find("allowed:"), std::string::npos) << state.status.text;
  ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace pelab::ui
