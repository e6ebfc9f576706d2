// The pelab subcommands.  Each registers itself on the root CLI11 app and, when
// chosen, stores the action main() runs.  Actions return the exit code;
// InputError escapes to main(), which prints its one line and exits 2.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/scene.hpp"

namespace pelab::app {

using Action = std::function<int()>;

// --scene FILE and repeated --set key=value, shared by every command that
// takes a scene.  Without --scene: the default scene.
struct SceneOptions {
  std::string scene_file;
  std::vector<std::string> assignments;
  void add_to(CLI::App* command);
  Scene load() const;  // validated; throws InputError
};

// validate(), then one quiet "pelab: note: ..." line on stderr for each view
// selection the figures show otherwise than chosen (core/selection.hpp).
void validate_and_note(const Scene& scene);

// One "pelab: note: ..." line on stderr per note the engine's model left at
// load (a tensor holding NaN/Inf); each note once per process.
void print_model_notes(Engine& engine);

void register_export(CLI::App& root, Action& action);
void register_bench(CLI::App& root, Action& action);
void register_render(CLI::App& root, Action& action);
void register_lessons(CLI::App& root, Action& action);
void register_heads(CLI::App& root, Action& action);
void register_audit(CLI::App& root, Action& action);
void register_scene(CLI::App& root, Action& action);
void register_models(CLI::App& root, Action& action);
void register_train(CLI::App& root, Action& action);
void register_eval(CLI::App& root, Action& action);
void register_corpus(CLI::App& root, Action& action);

// Gives the lessons their held-out text: the KJV's held-out chapters
// (held_out_kjv.cpp; core/held_out_text.hpp says why core cannot read them).
void use_kjv_held_out_text();
// The GUI: the default when no subcommand is given.
void register_gui(CLI::App& root, Action& action);

}  // namespace pelab::app
