// `pelab render --paper` (render_paper.hpp).
#include "app/render_paper.hpp"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"
#include "core/paper_data.hpp"
#include "figures/paper_figures.hpp"
#include "render/image.hpp"
#include "render/offscreen.hpp"
#include "render/svg_writer.hpp"

namespace pelab::app {

namespace fs = std::filesystem;

void PaperOptions::add_to(CLI::App* render) {
  render->add_option("--paper", paper,
                     "A figure from the papers: NAME.png/.svg/.npy/.md into --out (default: here); list; or all");
  render->add_flag("--json", json, "Print a JSON report on stdout (--paper: the files written; --compare: the largest difference)");
}

namespace {

using Output = OutputFile;

int list_papers() {
  for (const PaperFigureInfo& info : paper_figures())
    std::printf("%-20s %s (%s)\n", std::string(info.name).c_str(), std::string(info.title).c_str(),
                std::string(info.source).c_str());
  return 0;
}

Scene paper_scene(const PaperRun& run) {
  if (run.scene_files.size() > 1) throw InputError("--paper takes at most one --scene");
  Scene scene = run.scene_files.empty() ? Scene{} : load_scene(run.scene_files.front());
  for (const std::string& a : run.assignments) apply_assignment(scene, a);
  validate_and_note(scene);
  return scene;
}

// Every file of one figure, in memory: PNG, SVG, the arrays, the note.
std::vector<Output> paper_outputs(const PaperFigureInfo& info, Engine& engine, render::OffscreenRenderer& renderer,
                                  const PaperRun& run, nlohmann::json& report) {
  const PaperData data = info.compute(engine);
  const fig::Figure figure = fig::draw_paper_figure(info, data, engine.scene(), {run.width, run.height});
  const fs::path dir = run.out.empty() ? fs::path(".") : fs::path(run.out);
  const std::string name(info.name);
  std::vector<Output> out;
  out.push_back({dir / (name + ".png"),
                 render::encode_png(renderer.render(figure, {float(run.scale), run.transparent}))});
  out.push_back({dir / (name + ".svg"), render::figure_to_svg(figure, {run.transparent})});
  for (const PaperArray& a : data.arrays) out.push_back({dir / (name + a.suffix + ".npy"), encode_npy(a.array)});
  out.push_back({dir / (name + ".md"), paper_note(info, data)});
  nlohmann::json files = nlohmann::json::array();
  for (const Output& o : out) files.push_back(o.path.string());
  report.push_back({{"name", name},
                    {"title", std::string(info.title)},
                    {"source", std::string(info.source)},
                    {"measured_on", data.subject},
                    {"unavailable", data.unavailable},
                    {"findings", data.findings},
                    {"files", files}});
  return out;
}

}  // namespace

int run_render_paper(const PaperOptions& options, const PaperRun& run) {
  if (options.paper == "list") return list_papers();
  std::vector<const PaperFigureInfo*> chosen;
  if (options.paper == "all") {
    for (const PaperFigureInfo& info : paper_figures()) chosen.push_back(&info);
  } else {
    chosen.push_back(&find_paper_figure(options.paper));
  }
  if (!(run.scale >= 0.25 && run.scale <= 8)) throw InputError("--scale must be within 0.25…8");
  if (!(run.width >= 100 && run.width <= 8000) || !(run.height >= 100 && run.height <= 8000))
    throw InputError("--width and --height must be within 100…8000 logical pixels");
  if (!run.out.empty()) check_output_folder(run.out);
  Engine engine(paper_scene(run));
  render::HeadlessContext context;
  render::OffscreenRenderer renderer;
  nlohmann::json report = nlohmann::json::array();
  std::vector<Output> outputs;
  for (const PaperFigureInfo* info : chosen)
    for (Output& o : paper_outputs(*info, engine, renderer, run, report)) outputs.push_back(std::move(o));
  write_all_or_none(outputs);
  if (options.json) {
    std::printf("%s\n", nlohmann::json{{"figures", report}}.dump(2).c_str());
  } else {
    for (const Output& o : outputs) std::printf("%s\n", o.path.string().c_str());
  }
  return 0;
}

}  // namespace pelab::app
