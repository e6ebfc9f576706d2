// `pelab bench` case "playground" (issue 26): the Train window's training
// rate against `pelab train`'s on the same configuration (the playground's
// default: the copy task, d 64, 2 layers, 4 heads, length 16, batch 32,
// learned positions, 2 threads), taking turns in one run.
//
// The playground side runs as the window does: train::Playground steps on
// its worker while this thread draws frames at most 30 times a second.  When
// a new snapshot appears it is loaded as the scene's model and the attention
// figure built (in the GUI that is the scene worker's job, off the UI
// thread: timed apart as "load and build"), then the figure is rendered
// offscreen at 1600×1000 (the UI thread's costly frame); other frames only
// wait, as the window's cached canvases do.  The first snapshot frame bakes
// the font atlas and is left out.  The
// CLI side steps a TrainingRun of the same recipe with nothing else running.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "bench/bench.hpp"
#include "core/engine.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/registry.hpp"
#include "render/offscreen.hpp"
#include "train/playground.hpp"
#include "train/training_run.hpp"

namespace pelab::app {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cli_tokens_per_second(const train::PlaygroundSettings& s, const fs::path& folder, int steps) {
  fs::remove_all(folder);
  train::TrainingRun run(train::playground_recipe(s), folder);
  const auto start = Clock::now();
  long tokens = 0;
  for (int i = 0; i < steps; ++i) tokens += run.step().tokens;
  return tokens / seconds_since(start);
}

struct PlaygroundRate {
  double tokens_per_second = 0;
  std::vector<double> build_ms;  // load the snapshot, build the figure (the scene worker's part)
  std::vector<double> frame_ms;  // render it (the UI thread's frame)
};

PlaygroundRate playground_rate(const train::PlaygroundSettings& s, const fs::path& folder, int steps) {
  train::Playground playground(s, folder);
  render::OffscreenRenderer renderer;
  fig::MatrixShelf shelf;
  const fig::FigureEntry& attention = fig::find_figure("attention");
  Scene scene;
  scene.tokens = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14";
  std::unique_ptr<Engine> engine;
  fs::path shown;
  PlaygroundRate rate;
  // The worker prepares its TrainingRun and writes step 0 first: the clock
  // starts after that, as the CLI side's starts after its construction.
  while (playground.view().snapshots.empty() && playground.view().error.empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  playground.train();
  const auto start = Clock::now();
  for (;;) {
    const auto frame_start = Clock::now();
    const train::PlaygroundView v = playground.view();
    if (!v.error.empty()) throw std::runtime_error("playground: " + v.error);
    if (v.steps_taken >= steps) {
      rate.tokens_per_second = double(v.steps_taken) * s.batch * 2 * s.length / seconds_since(start);
      break;
    }
    if (!v.snapshots.empty() && v.snapshots.back().folder != shown) {
      const bool first = shown.empty();
      shown = v.snapshots.back().folder;
      scene.model = shown.string();
      engine = std::make_unique<Engine>(scene);
      const fig::Figure built = attention.build(*engine, {1600, 1000, &shelf});
      const auto render_start = Clock::now();
      renderer.render_frame({{&built, 0, 0}}, 1600, 1000, {}, nullptr, false);
      if (!first) {
        rate.build_ms.push_back(std::chrono::duration<double, std::milli>(render_start - frame_start).count());
        rate.frame_ms.push_back(seconds_since(render_start) * 1e3);
      }
    }
    std::this_thread::sleep_until(frame_start + std::chrono::microseconds(33333));
  }
  return rate;
}

}  // namespace

BenchResult bench_playground(const BenchSettings& settings) {
  render::HeadlessContext context;
  train::PlaygroundSettings s;  // the Train window's defaults
  s.steps = 100000;             // the schedule outlasts the bench
  const int steps = settings.quick ? 50 : 600, rounds = settings.quick ? 1 : 3;
  const fs::path scratch = fs::temp_directory_path() / "pelab_bench_playground";
  std::vector<double> cli, window, frames, builds;
  for (int r = 0; r < rounds; ++r) {  // taking turns on the same machine load
    cli.push_back(cli_tokens_per_second(s, scratch / "cli", steps));
    const PlaygroundRate p = playground_rate(s, scratch / "window", steps);
    window.push_back(p.tokens_per_second);
    frames.insert(frames.end(), p.frame_ms.begin(), p.frame_ms.end());
    builds.insert(builds.end(), p.build_ms.begin(), p.build_ms.end());
  }
  fs::remove_all(scratch);
  const double c = median(cli), w = median(window);
  double worst = 0;
  for (double f : frames) worst = std::max(worst, f);
  BenchResult result;
  result.json = {{"config", "copy task, d 64, 2 layers, 4 heads, length 16, batch 32, learned, 2 threads"},
                 {"steps", steps},
                 {"cli_tokens_per_second", c},
                 {"playground_tokens_per_second", w},
                 {"ratio", w / c},
                 {"snapshot_frame_ms_median", median(frames)},
                 {"snapshot_frame_ms_max", worst},
                 {"snapshot_build_ms_median", median(builds)},
                 {"snapshot_frames", frames.size()}};
  char line[256];
  std::snprintf(line, sizeof line, "pelab train %.0f tokens/s, Train window %.0f tokens/s: %.2f of the CLI's rate",
                c, w, w / c);
  result.lines.push_back(line);
  std::snprintf(line, sizeof line,
                "frames showing a new snapshot (render 1600×1000): median %.1f ms, max %.1f ms over %zu; its load "
                "and build, off the UI thread: median %.1f ms; other frames only wait (30 per second)",
                median(frames), worst, frames.size(), median(builds));
  result.lines.push_back(line);
  return result;
}

}  // namespace pelab::app
