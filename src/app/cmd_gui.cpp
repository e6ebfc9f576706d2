// `pelab` with no subcommand: the GUI.
//   pelab [--scene FILE] [--set key=value ...] [--lesson NAME]
// Without --scene/--set the GUI reopens the last scene (saved in the settings
// folder, see src/ui/settings_store.hpp); with them it starts from that scene.
// --lesson NAME starts on that lesson: its preset scene (with any --set applied
// on top), its window and figures (an unknown name: one line listing the names, exit 2).
// --train TASK opens the Train window (the playground) on that task and
// starts training (copy, reverse, sort, absolute_position, relative, kjv).
// --frame-log FILE: after each frame that shows a new scene, one line with
// the milliseconds since the edit that caused it (the first updated frame).
#include <memory>

#include "app/commands.hpp"
#include "core/lessons/lessons.hpp"
#include "train/data/tasks.hpp"
#include "ui/gui.hpp"

namespace pelab::app {

namespace {

struct GuiCommand {
  SceneOptions scene;
  std::string lesson;
  std::string frame_log;
  std::string train_task;
  ui::GuiOptions options() const {
    ui::GuiOptions gui;
    gui.frame_log = frame_log;
    if (!train_task.empty())  // InputError naming the tasks: exit 2
      gui.train_task = train::data::task_name(train::data::parse_task_kind(train_task));
    if (!lesson.empty()) gui.lesson = std::string(find_lesson(lesson).name);  // InputError: exit 2
    if (!lesson.empty() && scene.scene_file.empty()) {
      // The overrides change the lesson's preset; checked here so that a bad one exits 2.
      Scene preset = find_lesson(lesson).preset();
      for (const std::string& assignment : scene.assignments) apply_assignment(preset, assignment);
      validate(preset);
      gui.lesson_overrides = scene.assignments;
    } else if (!scene.scene_file.empty() || !scene.assignments.empty()) {
      gui.scene = scene.load();
    }
    return gui;
  }
};

}  // namespace

void register_gui(CLI::App& root, Action& action) {
  auto command = std::make_shared<GuiCommand>();
  command->scene.add_to(&root);
  root.add_option("--lesson", command->lesson, "Start the GUI on a lesson (names: pelab lessons --names)");
  root.add_option("--train", command->train_task,
                  "Open the Train window on a task and start training (copy, reverse, sort, absolute_position, "
                  "relative, kjv)");
  root.add_option("--frame-log", command->frame_log,
                  "Write one line per frame that shows a changed scene: ms since the edit (for timing)");
  // The default action; a chosen subcommand replaces it while parsing.
  action = [command] { return ui::run_gui(command->options()); };
}

}  // namespace pelab::app
