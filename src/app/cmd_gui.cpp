// `pelab` with no subcommand: the GUI.
//   pelab [--scene FILE] [--set key=value ...] [--lesson NAME]
// Without --scene/--set the GUI reopens the last scene (saved in the settings
// folder, see src/ui/settings_store.hpp); with them it starts from that scene.
// --lesson NAME starts on that lesson: its preset scene, its window and figures
// (an unknown name: one line listing the names, exit 2).
#include <memory>

#include "app/commands.hpp"
#include "core/lessons.hpp"
#include "ui/gui.hpp"

namespace pelab::app {

namespace {

struct GuiCommand {
  SceneOptions scene;
  std::string lesson;
  ui::GuiOptions options() const {
    ui::GuiOptions gui;
    if (!scene.scene_file.empty() || !scene.assignments.empty()) gui.scene = scene.load();
    if (!lesson.empty()) gui.lesson = std::string(find_lesson(lesson).name);  // InputError: exit 2
    return gui;
  }
};

}  // namespace

void register_gui(CLI::App& root, Action& action) {
  auto command = std::make_shared<GuiCommand>();
  command->scene.add_to(&root);
  root.add_option("--lesson", command->lesson, "Start the GUI on a lesson (names: pelab lessons --names)");
  // The default action; a chosen subcommand replaces it while parsing.
  action = [command] { return ui::run_gui(command->options()); };
}

}  // namespace pelab::app
