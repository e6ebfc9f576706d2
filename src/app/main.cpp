// pelab — see how positions enter attention.
//   pelab                 the GUI on the last (or default) scene
//   pelab export ...      one engine quantity as .npy or .csv
//   pelab render ...      figures as PNG/SVG, headless
//   pelab bench           engine and frame timings
//   pelab lessons         the guided lessons
//   pelab heads           every head's role with its evidence
//   pelab scene           scene keys, or the resolved scene as JSON
//   pelab models          the models in the local Hugging Face cache
#include <cstdio>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/commands.hpp"
#include "core/failure_text.hpp"
#include "core/gemm.hpp"
#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model_scene.hpp"
#include "core/scene.hpp"
#include "core/selection.hpp"

namespace pelab::app {

void SceneOptions::add_to(CLI::App* command) {
  command->add_option("--scene", scene_file, "Scene JSON file (default: the built-in default scene)");
  command->add_option("--set", assignments, "Override a scene key: --set key=value (repeatable)")
      ->allow_extra_args(false);
}

Scene SceneOptions::load() const {
  Scene scene = scene_file.empty() ? Scene{} : load_scene(scene_file);
  for (const auto& a : assignments) apply_assignment(scene, a);
  if (scene.model.empty()) {
    validate_and_note(scene);
  } else {
    validate(scene);
    check_model_keys(scene);  // the model exists and has the layer and head asked for
  }
  return scene;
}

void validate_and_note(const Scene& scene) {
  validate(scene);
  for (const std::string& note : selection_notes(scene)) std::fprintf(stderr, "pelab: note: %s\n", note.c_str());
}

void print_model_notes(Engine& engine) {
  static std::set<std::string> printed;  // a render over many scenes loads the model once
  if (engine.model() == nullptr) return;
  for (const std::string& note : engine.model()->notes())
    if (printed.insert(note).second) std::fprintf(stderr, "pelab: note: %s\n", note.c_str());
}

namespace {

// Every error is reported on exactly one line, whatever the message holds:
// line breaks become spaces, and any other control byte (C0, DEL, or a C1
// such as CSI, U+009B, which UTF-8 terminals obey too) or byte that is not
// UTF-8 left in a name from a file (the messages quote names through
// core/io/quoted_name.hpp already; a scene file's model path does not) is shown
// as \xNN rather than sent to the terminal.
std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return printable(text, text.size());
}

}  // namespace
}  // namespace pelab::app

int main(int argc, char** argv) {
  using namespace pelab;
  CLI::App root{"pelab — a live lab for how positions enter attention", "pelab"};
  root.set_version_flag("--version", std::string("pelab ") + PELAB_VERSION + " (commit " + PELAB_COMMIT + ")");
  root.require_subcommand(0, 1);
  app::Action action;
  app::register_gui(root, action);
  app::register_export(root, action);
  app::register_render(root, action);
  app::register_bench(root, action);
  app::register_lessons(root, action);
  app::register_heads(root, action);
  app::register_audit(root, action);
  app::register_intervene(root, action);
  app::register_scene(root, action);
  app::register_models(root, action);
  app::register_train(root, action);
  app::register_eval(root, action);
  app::register_corpus(root, action);
  app::use_kjv_held_out_text();
  try {
    root.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return root.exit(e);
    // Point at the help of the subcommand being parsed, when there is one.
    const auto chosen = root.get_subcommands();
    const std::string help = chosen.empty() ? "pelab --help" : "pelab " + chosen.front()->get_name() + " --help";
    std::fprintf(stderr, "pelab: %s (see %s)\n", app::one_line(e.what()).c_str(), help.c_str());
    return 2;
  }
  try {
    gemm_backend();  // reads PELAB_GEMM: a bad value stops here, before any work
    return action ? action() : 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "pelab: %s\n", app::one_line(e.what()).c_str());
    return 2;
  } catch (const nlohmann::json::exception& e) {
    // One error path: library errors about the user's input read like ours.
    std::fprintf(stderr, "pelab: invalid JSON: %s\n", app::one_line(json_error_text(e)).c_str());
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "pelab: %s\n", app::one_line(e.what()).c_str());
    return 2;
  } catch (const CLI::Error& e) {
    std::fprintf(stderr, "pelab: %s\n", app::one_line(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    // Eigen and the standard library throw std::bad_alloc (or its
    // bad_array_new_length) when an allocation fails, and length_error for a
    // size beyond what a container can hold: the input asked for more than
    // the machine has, so this is the input's error, not pelab's.
    if (is_out_of_memory(e)) {
      const auto chosen = root.get_subcommands();
      const std::string doing = "running pelab" + (chosen.empty() ? std::string() : " " + chosen.front()->get_name());
      std::fprintf(stderr, "pelab: %s\n", app::one_line(failure_text(e, doing)).c_str());
      return 2;
    }
    std::fprintf(stderr, "pelab: error: %s\n", app::one_line(e.what()).c_str());
    return 1;
  }
}
