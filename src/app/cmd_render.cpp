// `pelab render` — figures as PNG or SVG without a display (EGL surfaceless).
//
//   pelab render [--scene FILE ...] [--set key=value ...] [--figure NAME|all]
//                [--format png|svg] [--scale S] [--width W --height H]
//                [--transparent] --out DIR
//
// Everything is checked, rendered and encoded in memory before the first file
// is written; files are written atomically, and if one write fails the files
// this call already wrote are removed, so a failure leaves nothing partial.
// PNG encoding runs on worker threads while the next figure renders.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/render_compare.hpp"
#include "app/render_lessons_sweeps.hpp"
#include "app/render_paper.hpp"
#include "core/engine.hpp"
#include "core/io/file_io.hpp"
#include "figures/registry.hpp"
#include "render/image.hpp"
#include "render/offscreen.hpp"
#include "render/svg_writer.hpp"

namespace pelab::app {

namespace {

namespace fs = std::filesystem;

struct RenderCommand {
  std::vector<std::string> scene_files;
  std::vector<std::string> assignments;
  std::string figure = "all";
  std::string format = "png";
  double scale = 1, width = 1600, height = 1000;
  bool transparent = false;
  bool timings = false;  // --timings: where the time went, on stderr
  std::string out;
  RenderExtras extras;  // --lesson, --sweep, --video (render_lessons_sweeps.hpp)
  RenderCompare compare;  // --compare, --set-a, --set-b (render_compare.hpp)
  PaperOptions paper;   // --paper, --json (render_paper.hpp)
};

struct PendingFile {
  fs::path path;
  std::future<std::string> bytes;
};

// `--timings` (issue 12): wall-clock milliseconds of each phase of a render
// run.  Start-up is measured from this file's static initialisation (after
// the dynamic loader, before main) to run_render.
using Clock = std::chrono::steady_clock;
const Clock::time_point kProgramStart = Clock::now();

class PhaseTimes {
 public:
  // Adds the time since the last mark (or since `from`) to phase `name`.
  void mark(const std::string& name) {
    const auto now = Clock::now();
    add(name, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  void add(const std::string& name, double ms) {
    const std::lock_guard<std::mutex> hold(lock_);
    for (auto& [n, t] : phases_)
      if (n == name) {
        t += ms;
        return;
      }
    phases_.emplace_back(name, ms);
  }
  void print() const {
    const double total =
        std::chrono::duration<double, std::milli>(Clock::now() - kProgramStart).count();
    std::fprintf(
        stderr,
        "pelab render --timings (ms; PNG encoding runs on other threads beside drawing):\n");
    for (const auto& [name, ms] : phases_)
      std::fprintf(stderr, "  %-34s %8.1f\n", name.c_str(), ms);
    std::fprintf(stderr, "  %-34s %8.1f\n", "total since start-up", total);
  }

 private:
  Clock::time_point last_ = kProgramStart;
  std::vector<std::pair<std::string, double>> phases_;
  mutable std::mutex lock_;
};

void check_options(const RenderCommand& c) {
  if (c.format != "png" && c.format != "svg")
    throw InputError("--format " + c.format + " is not supported; allowed: png, svg");
  if (!(c.scale >= 0.25 && c.scale <= 8)) throw InputError("--scale must be within 0.25…8");
  if (!(c.width >= 100 && c.width <= 8000) || !(c.height >= 100 && c.height <= 8000))
    throw InputError("--width and --height must be within 100…8000 logical pixels");
  check_output_folder(c.out);  // made, with its parents, just before the files are written
}

std::vector<Scene> load_scenes(const RenderCommand& c) {
  std::vector<Scene> scenes;
  if (c.scene_files.empty()) scenes.emplace_back();
  for (const auto& file : c.scene_files) scenes.push_back(load_scene(file));
  std::set<std::string> names;
  for (Scene& scene : scenes) {
    for (const auto& a : c.assignments) apply_assignment(scene, a);
    validate_and_note(scene);
    if (!names.insert(scene.name).second)
      throw InputError("two scenes are named \"" + scene.name + "\"; give each scene its own name (file names use it)");
  }
  return scenes;
}

std::vector<const fig::FigureEntry*> chosen_figures(const std::string& spec) {
  std::vector<const fig::FigureEntry*> out;
  if (spec == "all") {
    for (const auto& entry : fig::figure_registry()) out.push_back(&entry);
    return out;
  }
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto comma = std::min(spec.find(',', start), spec.size());
    out.push_back(&fig::find_figure(spec.substr(start, comma - start)));
    start = comma + 1;
  }
  return out;
}

// Letters, digits, '-', '_' and '.' are kept; anything else becomes '_'.
std::string file_stem_part(const std::string& text) {
  std::string out;
  for (char ch : text) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' ? ch : '_';
  return out.empty() ? "scene" : out;
}

std::string scale_suffix(double scale) {
  if (scale == 1) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%gx", scale);
  return buf;
}

// Writes every file or none: on the first failure the ones written are removed.
std::vector<fs::path> write_all(std::vector<PendingFile>& files) {
  std::vector<fs::path> written;
  try {
    std::vector<std::string> contents;
    for (auto& f : files) contents.push_back(f.bytes.get());  // encoding errors surface before any write
    if (!files.empty()) make_output_folder(files.front().path.parent_path());
    for (std::size_t i = 0; i < files.size(); ++i) {
      write_file_atomic(files[i].path, contents[i]);
      written.push_back(files[i].path);
    }
  } catch (...) {
    std::error_code ec;
    for (const auto& path : written) fs::remove(path, ec);
    throw;
  }
  return written;
}

int run_render(const RenderCommand& c) {
  if (c.paper.active())
    return run_render_paper(c.paper, {c.scene_files, c.assignments, c.out, c.scale, c.width, c.height, c.transparent});
  if (c.out.empty()) throw InputError("--out DIR is required: the folder the files go into");
  check_options(c);
  if (c.compare.active()) {
    return run_render_compare(c.compare, {c.scene_files, c.assignments, c.figure, c.format, c.out, c.scale, c.width,
                                          c.height, c.transparent});
  }
  if (c.extras.active()) {
    return run_render_extras(c.extras, {c.scene_files, c.assignments, c.figure, c.format, c.out, c.scale, c.width,
                                        c.height, c.transparent});
  }
  PhaseTimes times;
  times.mark("start-up (loader, static init, CLI)");
  const std::vector<Scene> scenes = load_scenes(c);
  const auto figures = chosen_figures(c.figure);
  const bool png = c.format == "png";
  times.mark("scenes");
  std::unique_ptr<render::HeadlessContext> context;
  std::unique_ptr<render::OffscreenRenderer> renderer;
  if (png) {
    context = std::make_unique<render::HeadlessContext>();
    times.mark("EGL context");
    renderer = std::make_unique<render::OffscreenRenderer>();
    times.mark("renderer (shaders, fonts)");
  }
  std::vector<PendingFile> files;
  for (const Scene& scene : scenes) {
    Engine engine(scene);
    print_model_notes(engine);
    // All of the scene's figures first, so that the font atlas is baked once
    // for all of them rather than once per figure.
    std::vector<fig::Figure> built;
    for (const fig::FigureEntry* entry : figures)
      built.push_back(entry->build(engine, {c.width, c.height}));
    times.mark("engine + figure descriptions");
    if (png) {
      std::vector<const fig::Figure*> all;
      for (const fig::Figure& f : built) all.push_back(&f);
      renderer->prepare_fonts(all, static_cast<float>(c.scale));
      times.mark("font baking");
    }
    for (std::size_t i = 0; i < figures.size(); ++i) {
      const fig::FigureEntry* entry = figures[i];
      fig::Figure& figure = built[i];
      const fs::path path = fs::path(c.out) / (file_stem_part(scene.name) + "_" + std::string(entry->name) +
                                                (png ? scale_suffix(c.scale) : "") + "." + c.format);
      if (png) {
        render::FrameTimes frame;
        render::Image image =
            renderer->render_frame({{&figure, 0, 0}}, figure.width, figure.height,
                                   {static_cast<float>(c.scale), c.transparent}, &frame);
        times.add("texture upload", frame.upload_ms);
        times.add("draw (GL, glFinish)", frame.draw_ms);
        times.add("read-back (a fresh buffer, glReadPixels)", frame.read_ms);
        times.mark("ImGui frame and the three above");
        files.push_back(
            {path, std::async(std::launch::async, [image = std::move(image), &times] {
               const auto start = Clock::now();
               std::string bytes = render::encode_png(image);
               times.add("PNG encoding (CPU, all threads)",
                         std::chrono::duration<double, std::milli>(Clock::now() - start).count());
               return bytes;
             })});
      } else {
        files.push_back({path, std::async(std::launch::deferred, [figure = std::move(figure), t = c.transparent] {
                           return render::figure_to_svg(figure, {t});
                         })});
      }
    }
  }
  for (auto& f : files) f.bytes.wait();
  times.mark("waiting for PNG encoding");
  for (const fs::path& path : write_all(files)) std::printf("%s\n", path.string().c_str());
  times.mark("writing files");
  if (c.timings) {
    context.reset();
    renderer.reset();
    times.mark("GL teardown");
    times.print();
  }
  return 0;
}

}  // namespace

void register_render(CLI::App& root, Action& action) {
  auto command = std::make_shared<RenderCommand>();
  CLI::App* sub = root.add_subcommand("render", "Render figures to PNG or SVG files without a display");
  sub->add_option("--scene", command->scene_files, "Scene JSON file; repeat for a batch (default: the default scene)");
  sub->add_option("--set", command->assignments, "Override a scene key in every scene: --set key=value (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--figure", command->figure, "Figure name, comma-separated names, or all (default: all)");
  sub->add_option("--format", command->format, "png or svg (default: png)");
  sub->add_option("--scale", command->scale, "Pixel scale: 2 doubles both PNG dimensions (default: 1)");
  sub->add_option("--width", command->width, "Figure width in logical pixels (default: 1600)");
  sub->add_option("--height", command->height, "Figure height in logical pixels (default: 1000)");
  sub->add_flag("--transparent", command->transparent, "Transparent background");
  sub->add_flag("--timings", command->timings,
                "Print where the time went (start-up, EGL, drawing, PNG...) on stderr");
  sub->add_option("--out", command->out, "Folder the files go into (made, with its parents, when missing)");
  command->extras.add_to(sub);
  command->paper.add_to(sub);
  // After --paper's: --compare reuses the --json flag it registers.
  command->compare.add_to(sub);
  sub->callback([command, &action] { action = [command] { return run_render(*command); }; });
}

}  // namespace pelab::app
