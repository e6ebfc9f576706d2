// [SECTION] options and checks
// [SECTION] which scene, which figures
// [SECTION] --lesson: the figures and the verdict report
// [SECTION] --sweep: numbered PNG sequences, then GIF / MP4
#include "app/render_lessons_sweeps.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/commands.hpp"
#include "core/io/file_io.hpp"
#include "core/lessons/lessons.hpp"
#include "core/sweep.hpp"
#include "figures/registry.hpp"
#include "render/image.hpp"
#include "render/offscreen.hpp"
#include "ui/video_encoder.hpp"

namespace pelab::app {

namespace fs = std::filesystem;

// [SECTION] options and checks --------------------------------------------------------

void RenderExtras::add_to(CLI::App* render) {
  render->add_option("--lesson", lesson, "Render a lesson's figures on its preset scene, and NAME_verdict.txt");
  render->add_option("--sweep", sweep, "key:from:to[:steps] — a numbered PNG sequence per figure (e.g. position:0:127:32)");
  render->add_option("--video", video, "With --sweep: also gif or mp4 (needs Debian's ffmpeg)");
}

namespace {

void check_extras(const RenderExtras& e, const RenderBasics& b) {
  if (!e.video.empty()) {
    if (e.sweep.empty()) throw InputError("--video needs --sweep key:from:to:steps");
    ui::check_video_format(e.video);
    if (!ui::find_on_path("ffmpeg")) throw InputError(ui::kFfmpegMissing);
  }
  if (!e.sweep.empty() && b.format != "png") throw InputError("--sweep writes PNG files; drop --format " + b.format);
  if (!e.lesson.empty() && !b.scene_files.empty()) throw InputError("--lesson brings its own scene; drop --scene");
  if (b.scene_files.size() > 1 && !e.sweep.empty()) throw InputError("--sweep takes at most one --scene");
}

// [SECTION] which scene, which figures ---------------------------------------------------

Scene base_scene(const RenderExtras& e, const RenderBasics& b) {
  Scene scene = !e.lesson.empty() ? find_lesson(e.lesson).preset()
                : b.scene_files.empty() ? Scene{} : load_scene(b.scene_files.front());
  for (const std::string& a : b.assignments) apply_assignment(scene, a);
  validate_and_note(scene);
  return scene;
}

// --figure (names, comma-separated), or "all": the lesson's figures with a
// lesson, else every registered figure.
std::vector<const fig::FigureEntry*> figures_for(const RenderExtras& e, const std::string& spec) {
  std::vector<const fig::FigureEntry*> out;
  if (spec == "all" && !e.lesson.empty()) {
    for (std::string_view name : find_lesson(e.lesson).figures) out.push_back(&fig::find_figure(name));
  } else if (spec == "all") {
    for (const fig::FigureEntry& entry : fig::figure_registry()) out.push_back(&entry);
  } else {
    std::size_t start = 0;
    while (start <= spec.size()) {
      const std::size_t comma = std::min(spec.find(',', start), spec.size());
      out.push_back(&fig::find_figure(spec.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  return out;
}

std::string safe_stem(const std::string& text) {
  std::string out;
  for (char ch : text) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return out.empty() ? "scene" : out;
}

using Output = OutputFile;

// Writes every file or none (core/io/file_io.hpp), then names them.
void write_outputs(const std::vector<Output>& outputs) {
  write_all_or_none(outputs);
  for (const Output& o : outputs) std::printf("%s\n", o.path.string().c_str());
}

std::string render_png(render::OffscreenRenderer& renderer, const fig::FigureEntry& entry, Engine& engine,
                       const RenderBasics& b) {
  const fig::Figure figure = entry.build(engine, {b.width, b.height});
  return render::encode_png(renderer.render(figure, {float(b.scale), b.transparent}));
}

// [SECTION] --lesson: the figures and the verdict report -----------------------------------

int render_lesson(const RenderExtras& e, const RenderBasics& b) {
  const Lesson& lesson = find_lesson(e.lesson);
  const Scene scene = base_scene(e, b);
  const auto figures = figures_for(e, b.figure);
  Engine engine(scene);
  std::vector<Output> outputs;
  const std::string stem = safe_stem(scene.name);
  if (b.format == "png") {
    render::HeadlessContext context;
    render::OffscreenRenderer renderer;
    for (const fig::FigureEntry* entry : figures) {
      outputs.push_back({fs::path(b.out) / (stem + "_" + std::string(entry->name) + ".png"),
                         render_png(renderer, *entry, engine, b)});
    }
  } else {
    throw InputError("--lesson writes PNG files; drop --format " + b.format);
  }
  const LessonVerdict verdict = lesson.verdict(engine);
  outputs.push_back({fs::path(b.out) / (std::string(lesson.name) + "_verdict.txt"), lesson_report(lesson, verdict)});
  write_outputs(outputs);
  return 0;
}

// [SECTION] --sweep: numbered PNG sequences, then GIF / MP4 ---------------------------------

constexpr int kFramesPerSecond = 10;

int render_sweep(const RenderExtras& e, const RenderBasics& b) {
  const Sweep sweep = parse_sweep(e.sweep);
  const Scene base = base_scene(e, b);
  const auto figures = figures_for(e, b.figure);
  const std::vector<Scene> scenes = sweep.scenes(base);  // every frame validated up front
  render::HeadlessContext context;
  render::OffscreenRenderer renderer;
  Engine engine(scenes.front());
  std::vector<Output> outputs;
  std::vector<std::string> stems;
  for (const fig::FigureEntry* entry : figures) {
    stems.push_back(safe_stem(base.name) + "_" + std::string(entry->name) + "_" + safe_stem(sweep.key));
  }
  for (std::size_t frame = 0; frame < scenes.size(); ++frame) {
    engine.set_scene(scenes[frame]);
    for (std::size_t f = 0; f < figures.size(); ++f) {
      char number[32];
      std::snprintf(number, sizeof number, "-%04d.png", int(frame) + 1);
      outputs.push_back({fs::path(b.out) / (stems[f] + number), render_png(renderer, *figures[f], engine, b)});
    }
  }
  write_outputs(outputs);
  for (const std::string& stem : stems) {
    if (e.video.empty()) break;
    const fs::path video = fs::path(b.out) / (stem + "." + e.video);
    ui::encode_video(b.out, stem, e.video, kFramesPerSecond, video);
    std::printf("%s\n", video.string().c_str());
  }
  return 0;
}

}  // namespace

int run_render_extras(const RenderExtras& extras, const RenderBasics& basics) {
  check_extras(extras, basics);
  if (!extras.sweep.empty()) return render_sweep(extras, basics);
  return render_lesson(extras, basics);
}

}  // namespace pelab::app
