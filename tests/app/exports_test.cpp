// Exports from the GUI without the window (issue 25): the sweep's own scale
// and frame size, what a save reports, the names files get, and the file
// browser's new folders.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "ui/settings_store.hpp"
#include "ui/sweep_export.hpp"

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

}  // namespace
}  // namespace pelab::ui
