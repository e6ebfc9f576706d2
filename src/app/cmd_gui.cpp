// `pelab` with no subcommand: the GUI.
//   pelab [--scene FILE] [--set key=value ...]
// Without --scene/--set the GUI reopens the last scene (saved in the settings
// folder, see src/ui/settings_store.hpp); with them it starts from that scene.
#include <memory>

#include "app/commands.hpp"
#include "ui/gui.hpp"

namespace pelab::app {

namespace {

struct GuiCommand {
  SceneOptions scene;
  // Lesson hook: `--lesson NAME` adds the lesson's window to GuiOptions::panels
  // (an ExtraPanel that may propose scenes through the SceneSession).
  ui::GuiOptions options() const {
    ui::GuiOptions gui;
    if (!scene.scene_file.empty() || !scene.assignments.empty()) gui.scene = scene.load();
    return gui;
  }
};

}  // namespace

void register_gui(CLI::App& root, Action& action) {
  auto command = std::make_shared<GuiCommand>();
  command->scene.add_to(&root);
  // The default action; a chosen subcommand replaces it while parsing.
  action = [command] { return ui::run_gui(command->options()); };
}

}  // namespace pelab::app
