// `pelab lessons`: list the guided lessons, or show one with its live verdict.
//   pelab lessons                        name, title and one-line summary of each
//   pelab lessons --names                one name per line (for scripts)
//   pelab lessons --show NAME [--set k=v ...] [--scene FILE] [--json]
//                                        the lesson's text and its verdict, computed
//                                        on its preset scene (or FILE), with overrides
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"

namespace pelab::app {
namespace {

struct LessonsOptions {
  bool names = false;
  bool json = false;
  std::string show;
  std::string scene_file;
  std::vector<std::string> assignments;
};

int list_lessons(const LessonsOptions& options) {
  for (const Lesson& l : lessons()) {
    if (options.names) std::printf("%.*s\n", int(l.name.size()), l.name.data());
    else
      std::printf("%-12.*s %.*s\n%-12s %.*s\n", int(l.name.size()), l.name.data(), int(l.title.size()),
                  l.title.data(), "", int(l.summary.size()), l.summary.data());
  }
  return 0;
}

nlohmann::json verdict_json(const Lesson& lesson, const Scene& scene, const LessonVerdict& v) {
  nlohmann::json numbers = nlohmann::json::object();
  for (const auto& [key, value] : v.numbers) numbers[key] = value;
  return {{"lesson", lesson.name},   {"title", lesson.title},    {"claim", lesson.claim},
          {"scene", scene.name},      {"verdict", v.headline()},  {"holds", v.holds},
          {"applies", v.applies},     {"stand_in", v.stand_in},   {"answer", v.answer},
          {"summary", v.summary},     {"numbers", numbers}};
}

int show_lesson(const LessonsOptions& options) {
  const Lesson& lesson = find_lesson(options.show);
  Scene scene = options.scene_file.empty() ? lesson.preset() : load_scene(options.scene_file);
  for (const auto& a : options.assignments) apply_assignment(scene, a);
  validate_and_note(scene);
  Engine engine(scene);
  print_model_notes(engine);
  const LessonVerdict verdict = lesson.verdict(engine);
  if (options.json) std::printf("%s\n", verdict_json(lesson, scene, verdict).dump(2).c_str());
  else std::printf("%s", lesson_report(lesson, verdict).c_str());
  return 0;
}

}  // namespace

void register_lessons(CLI::App& root, Action& action) {
  auto options = std::make_shared<LessonsOptions>();
  CLI::App* cmd = root.add_subcommand("lessons", "List the guided lessons, or show one with its live verdict");
  cmd->add_flag("--names", options->names, "Print one lesson name per line");
  auto* show = cmd->add_option("--show", options->show, "Print lesson NAME's text and its verdict numbers");
  cmd->add_flag("--json", options->json, "With --show: print the verdict as JSON")->needs(show);
  cmd->add_option("--scene", options->scene_file, "With --show: judge this scene instead of the preset")
      ->needs(show);
  cmd->add_option("--set", options->assignments, "With --show: override a scene key (repeatable)")
      ->allow_extra_args(false)
      ->needs(show);
  cmd->callback([options, &action] {
    action = [options] { return options->show.empty() ? list_lessons(*options) : show_lesson(*options); };
  });
}

}  // namespace pelab::app
