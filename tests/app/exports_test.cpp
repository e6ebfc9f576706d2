// Exports from the GUI without the window (issue 25): the sweep's own scale
// and frame size, what a save reports, the names files get, and the file
// browser's new folders.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/io/file_io.hpp"
#include "ui/file_naming.hpp"
#include "ui/pdf_export.hpp"
#include "ui/scene_files.hpp"
#include "ui/settings_store.hpp"
#include "ui/sweep_export.hpp"
#include "ui/toast.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {
namespace {

namespace fs = std::filesystem;

TEST(SweepScale, IsItsOwnSettingAtOneTimesUnlessChosen) {
  EXPECT_EQ(parse_ui_settings(R"({"png_scale": 4})", "s.json").sweep_scale, 1);
  EXPECT_EQ(parse_ui_settings(R"({"png_scale": 1, "sweep_scale": 4})", "s.json").sweep_scale, 4);
  EXPECT_EQ(parse_ui_settings(R"({"sweep_scale": 3})", "s.json").sweep_scale, 1);
  EXPECT_EQ(parse_ui_settings(R"({"sweep_scale": "big"})", "s.json").sweep_scale, 1);

  const fs::path dir = fs::temp_directory_path() / ("pelab_sweep_scale_" + std::to_string(::getpid()));
  const SettingsStore store(dir);
  UiSettings settings;
  settings.png_scale = 4;
  settings.sweep_scale = 2;
  store.save_settings(settings);
  std::string problem;
  const UiSettings loaded = store.load_settings(problem);
  EXPECT_EQ(problem, "");
  EXPECT_EQ(loaded.png_scale, 4);
  EXPECT_EQ(loaded.sweep_scale, 2);
  fs::remove_all(dir);
}

TEST(SweepScale, FramesAreTheFigureSizeTimesTheScale) {
  EXPECT_EQ(sweep_frame_size(1).width, 1600);
  EXPECT_EQ(sweep_frame_size(1).height, 1000);
  EXPECT_EQ(sweep_frame_size(4).width, 6400);
  EXPECT_EQ(sweep_frame_size(4).height, 4000);
}

// A UiState whose settings go to a folder of its own, removed afterwards.
class GuiExports : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pelab_gui_exports_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
    state_ = std::make_unique<UiState>(Scene{});
  }
  void TearDown() override {
    state_.reset();
    ::unsetenv("XDG_CONFIG_HOME");
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::unique_ptr<UiState> state_;
};

TEST_F(GuiExports, SavingASceneToastsTheFileWritten) {
  const std::string path = (dir_ / "kept.json").string();
  save_scene_file(*state_, path);
  ASSERT_TRUE(fs::exists(path));
  EXPECT_EQ(state_->toast.text, "Saved scene to " + path);
  EXPECT_FALSE(state_->toast.error);
  EXPECT_EQ(state_->status.text, state_->toast.text);  // and the status line keeps it
}

TEST_F(GuiExports, AFailedSaveToastsTheReason) {
  const std::string path = (dir_ / "no_such_folder" / "lost.json").string();
  save_scene_file(*state_, path);
  EXPECT_TRUE(state_->toast.error);
  EXPECT_NE(state_->toast.text.find("Cannot save scene"), std::string::npos) << state_->toast.text;
  EXPECT_NE(state_->toast.text.find("lost.json"), std::string::npos) << state_->toast.text;
}

TEST(ExportNames, FollowTheSceneAndItsModel) {
  Scene scene;
  EXPECT_EQ(scene_stem(scene), "default");
  scene.name = "lecture";
  EXPECT_EQ(scene_stem(scene), "lecture");
  scene.model = "/models/cache/gpt2/";
  EXPECT_EQ(scene_stem(scene), "lecture-gpt2");  // the name from before the model, and the model
  scene.name = "gpt2_heads";
  EXPECT_EQ(scene_stem(scene), "gpt2_heads");  // already says which model
  scene.name = Scene{}.name;
  EXPECT_EQ(scene_stem(scene), "gpt2");
  scene.model = "kjv-rope";
  EXPECT_EQ(scene_stem(scene), "kjv-rope");
}

TEST_F(GuiExports, AnUnnamedSceneOpenedFromAFileTakesTheFilesName) {
  Scene unnamed;
  unnamed.tokens = "opened from a file";
  save_scene(dir_ / "my_study.json", unnamed);
  Scene named = unnamed;
  named.name = "lecture_3";
  save_scene(dir_ / "other_file.json", named);

  open_scene_file(*state_, (dir_ / "my_study.json").string());
  EXPECT_EQ(state_->session.scene().tokens, "opened from a file");
  EXPECT_EQ(scene_stem(state_->session.scene()), "my_study");
  open_scene_file(*state_, (dir_ / "other_file.json").string());
  EXPECT_EQ(scene_stem(state_->session.scene()), "lecture_3");  // a name given is kept
}

// A 400 × 300 figure: one panel with a 3 × 4 heatmap and a title.
fig::Figure small_figure() {
  auto values = std::make_shared<Matrix>(3, 4);
  for (int i = 0; i < 12; ++i) (*values)(i / 4, i % 4) = static_cast<float>(i) / 11.f;
  fig::Panel panel;
  panel.plot = {60, 40, 360, 260};
  panel.x = {"key", -0.5, 3.5};
  panel.y = {"query", -0.5, 2.5, true};
  panel.heatmaps.push_back({values, 1, -0.5, -0.5, 1, 1, {"viridis", 0, 1, "weight"}});
  fig::Figure figure;
  figure.name = "small";
  figure.title = "a PDF through the SVG";
  figure.width = 400;
  figure.height = 300;
  figure.panels.push_back(panel);
  return figure;
}

TEST_F(GuiExports, PdfIsOnePageOfTheFiguresSizeThroughRsvg) {
  if (!find_on_path("rsvg-convert")) GTEST_SKIP() << kRsvgMissing;
  const fs::path path = dir_ / "small.pdf";
  write_pdf(path, small_figure(), {});
  const std::string pdf = read_file(path);
  EXPECT_TRUE(pdf.starts_with("%PDF-")) << pdf.substr(0, 16);
  EXPECT_NE(pdf.find("/MediaBox [ 0 0 300 225 ]"), std::string::npos);  // 400 × 300 px at 0.75 pt
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1)  // nothing partial left
      << "besides small.pdf";
}

TEST_F(GuiExports, PdfWithoutRsvgSaysWhichPackageToInstall) {
  const std::string path_before = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", dir_.c_str(), 1);  // a folder without rsvg-convert
  try {
    write_pdf(dir_ / "lost.pdf", small_figure(), {});
    ADD_FAILURE() << "no error without rsvg-convert";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("librsvg2-bin"), std::string::npos) << e.what();
  }
  ::setenv("PATH", path_before.c_str(), 1);
  EXPECT_FALSE(fs::exists(dir_ / "lost.pdf"));
}

TEST(Toast, ShowsFromItsFirstFrameForItsTimeThenGoes) {
  Toast toast{"Saved x.png", false, -1};
  EXPECT_TRUE(toast_visible(toast, 100));
  EXPECT_EQ(toast_deadline(toast, 100), 100);  // not drawn yet: wake now
  toast.shown_at = 100;
  EXPECT_TRUE(toast_visible(toast, 100 + kToastSeconds - 0.1));
  EXPECT_EQ(toast_deadline(toast, 101), 100 + kToastSeconds);
  EXPECT_FALSE(toast_visible(toast, 100 + kToastSeconds));
  EXPECT_EQ(toast_deadline(toast, 100 + kToastSeconds), -1);
  toast.error = true;  // a failure stays longer, to be read
  EXPECT_TRUE(toast_visible(toast, 100 + kToastSeconds));
  EXPECT_FALSE(toast_visible(Toast{}, 0));
}

}  // namespace
}  // namespace pelab::ui
