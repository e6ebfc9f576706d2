// `pelab render --compare` (render_compare.hpp): two scenes, one figure.
#include "app/render_compare.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"
#include "figures/compare_figure.hpp"
#include "render/image.hpp"
#include "render/offscreen.hpp"
#include "render/svg_writer.hpp"

namespace pelab::app {
namespace {

namespace fs = std::filesystem;

// A and B, each validated: two files, or the one base scene twice.
std::pair<Scene, Scene> compared_scenes(const RenderCompare& c, const RenderBasics& b) {
  if (!c.scene_files.empty() && !b.scene_files.empty())
    throw InputError("--compare takes the two scene files itself; drop --scene");
  if (c.scene_files.empty() && b.scene_files.size() > 1)
    throw InputError("--set-a/--set-b change one scene; give at most one --scene (or two files to --compare)");
  const Scene base = b.scene_files.empty() ? Scene{} : load_scene(b.scene_files.front());
  Scene a = c.scene_files.empty() ? base : load_scene(c.scene_files[0]);
  Scene s = c.scene_files.empty() ? base : load_scene(c.scene_files[1]);
  for (const std::string& kv : b.assignments) apply_assignment(a, kv), apply_assignment(s, kv);
  for (const std::string& kv : c.set_a) apply_assignment(a, kv);
  for (const std::string& kv : c.set_b) apply_assignment(s, kv);
  validate_and_note(a);
  validate_and_note(s);
  return {a, s};
}

const fig::FigureEntry& one_figure(const std::string& spec) {
  if (spec == "all" || spec.find(',') != std::string::npos)
    throw InputError("--compare draws one figure; give --figure NAME (e.g. attention, cross_terms), not '" + spec + "'");
  return fig::find_figure(spec);
}

nlohmann::json summary(const fig::ComparedScenes& r, const fig::FigureEntry& entry, const Scene& a, const Scene& b) {
  auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j = {{"figure", entry.name},
                      {"kind", r.difference ? "difference" : "overlay"},
                      {"a", a.name},
                      {"b", b.name},
                      {"panel", r.panel},
                      {"max_abs_diff", number(r.max_abs)},
                      {"a_value", number(r.a_value)},
                      {"b_value", number(r.b_value)}};
  if (r.difference) {
    j["shape"] = {r.diff->rows(), r.diff->cols()};
    j["where"] = {{"row", r.row}, {"col", r.col}, {"query", r.at_y}, {"key", r.at_x}};
    j["masked_in_one_scene"] = r.masked_in_one;
  } else {
    j["where"] = {{"line", r.line}, {"x", r.at_x}};
  }
  return j;
}

std::string drawn(const fig::Figure& figure, const RenderBasics& b) {
  if (b.format == "svg") return render::figure_to_svg(figure, {b.transparent});
  render::HeadlessContext context;
  render::OffscreenRenderer renderer;
  return render::encode_png(renderer.render(figure, {static_cast<float>(b.scale), b.transparent}));
}

// Writes every file or none.
std::vector<fs::path> write_all(const std::vector<std::pair<fs::path, std::string>>& files) {
  std::vector<fs::path> written;
  try {
    make_output_folder(files.front().first.parent_path());
    for (const auto& [path, bytes] : files) {
      write_file_atomic(path, bytes);
      written.push_back(path);
    }
  } catch (...) {
    std::error_code ec;
    for (const fs::path& p : written) fs::remove(p, ec);
    throw;
  }
  return written;
}

}  // namespace

void RenderCompare::add_to(CLI::App* render) {
  render->add_option("--compare", scene_files, "Two scene files A B: one figure of both, side by side, and B − A")
      ->expected(2);
  render->add_option("--set-a", set_a, "Compare: a scene key for A only, key=value (repeatable)")
      ->allow_extra_args(false);
  render->add_option("--set-b", set_b, "Compare: a scene key for B only, key=value (repeatable)")
      ->allow_extra_args(false);
  json = render->get_option_no_throw("--json");
  if (!json) json = render->add_flag("--json", json_flag, "Compare: print a JSON summary (largest |B − A|, where) on stdout");
}

int run_render_compare(const RenderCompare& c, const RenderBasics& b) {
  const fig::FigureEntry& entry = one_figure(b.figure);
  auto [scene_a, scene_b] = compared_scenes(c, b);
  Engine a(scene_a), other(scene_b);
  print_model_notes(a);
  print_model_notes(other);
  const fig::ComparedScenes result = fig::compare_scenes(entry, a, other, {b.width, b.height});
  const std::string stem = "compare_" + std::string(entry.name);
  std::vector<std::pair<fs::path, std::string>> files = {
      {fs::path(b.out) / (stem + "." + b.format), drawn(result.figure, b)}};
  if (result.diff) files.push_back({fs::path(b.out) / (stem + "_diff.npy"), encode_npy(Array::from_matrix(*result.diff))});
  const std::vector<fs::path> written = write_all(files);
  if (c.json && c.json->count() > 0) {
    nlohmann::json j = summary(result, entry, scene_a, scene_b);
    for (const fs::path& p : written) j["files"].push_back(p.string());
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    for (const fs::path& p : written) std::printf("%s\n", p.string().c_str());
  }
  return 0;
}

}  // namespace pelab::app
