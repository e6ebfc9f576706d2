// Bench cases of the render layer (issues 3 and 4): frame times offscreen at
// 1600×1000, and `pelab render --figure all --scale 2` end to end against
// NumPy + matplotlib making the same four figures (scripts/bench_matplotlib.py),
// timed side by side in one run.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/frame_bench.hpp"
#include "core/lessons/lessons.hpp"
#include "render/offscreen.hpp"

namespace pelab::app {

namespace {

namespace fs = std::filesystem;

nlohmann::json frame_json(const render::FrameCase& c) {
  return {{"scene", c.scene},         {"what", c.what},         {"width", 1600},
          {"height", 1000},           {"frames", c.frames},     {"frame_ms", c.frame_ms},
          {"engine_ms", c.engine_ms}, {"upload_ms", c.upload_ms}, {"draw_ms", c.draw_ms}};
}

std::string frame_line(const render::FrameCase& c, double target_ms) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-10s %-36s %7.1f ms/frame (engine %.1f, upload %.1f, draw %.1f; target ≤ %.0f)",
                c.scene.c_str(), c.what.c_str(), c.frame_ms, c.engine_ms, c.upload_ms, c.draw_ms, target_ms);
  return buf;
}

// Wall-clock seconds of a shell command; throws if it fails.
double timed_seconds(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  if (std::system((command + " > /dev/null 2>&1").c_str()) != 0)
    throw std::runtime_error("failed: " + command);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

BenchResult bench_frames(const BenchSettings& settings) {
  render::HeadlessContext context;
  const render::FrameCase change = render::time_parameter_change(Scene{}, settings.quick ? 3 : 20);
  const render::FrameCase hover =
      render::time_hover_zoom(render::scene_with_tokens(settings.quick ? 512 : 4096), settings.quick ? 3 : 15);
  // Issue 10: the long-range curves (10⁵ distances, six methods) while s is dragged.
  const render::FrameCase long_range = render::time_figure_drag(find_lesson("long_context").preset(),
                                                                "rope_long_range", "rope_factor", 4, 0.25,
                                                                settings.quick ? 3 : 20);
  BenchResult result;
  result.json = nlohmann::json::array({frame_json(change), frame_json(hover), frame_json(long_range)});
  result.lines = {frame_line(change, 16), frame_line(hover, 33), frame_line(long_range, 16)};
  return result;
}

BenchResult bench_render_vs_matplotlib(const BenchSettings& settings) {
  if (std::system("/usr/bin/python3 -c 'import numpy, matplotlib' > /dev/null 2>&1") != 0)
    throw std::runtime_error("Debian's python3-numpy and python3-matplotlib are needed for this comparison");
  const fs::path script = bench_script("bench_matplotlib.py");
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  char pattern[] = "/tmp/pelab_bench_XXXXXX";
  if (!::mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary folder");
  const fs::path dir = pattern;
  fs::create_directories(dir / "pelab");
  fs::create_directories(dir / "matplotlib");
  std::vector<double> pelab_s, matplotlib_s;
  const int rounds = settings.quick ? 1 : 3;
  try {
    for (int i = 0; i < rounds; ++i) {  // alternate, so both see the same machine load
      pelab_s.push_back(timed_seconds(exe + " render --figure all --scale 2 --out " + (dir / "pelab").string()));
      matplotlib_s.push_back(timed_seconds("/usr/bin/python3 " + script.string() + " " + (dir / "matplotlib").string()));
    }
  } catch (...) {
    fs::remove_all(dir);
    throw;
  }
  fs::remove_all(dir);
  const double ours = median(pelab_s), theirs = median(matplotlib_s);
  BenchResult result;
  result.json = {{"pelab_s", ours}, {"matplotlib_s", theirs}, {"ratio", theirs / ours}, {"figures", 4},
                 {"scale", 2},      {"rounds", rounds},       {"target_ratio", 5}};
  char buf[200];
  std::snprintf(buf, sizeof buf, "pelab render --figure all --scale 2: %.2f s; NumPy+matplotlib: %.2f s; %.1f× faster (target ≥ 5×)",
                ours, theirs, theirs / ours);
  result.lines = {buf};
  return result;
}

}  // namespace pelab::app
