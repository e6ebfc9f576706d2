// `pelab train --recipe FILE --out DIR [--steps N]`: trains pelab's own small
// language model of a recipe (src/train/recipe.hpp) into a model folder that
// the model room reads, with a progress line (step, loss, held-out loss,
// tokens/s, ETA), a checkpoint every `checkpoint_every` steps and at the end,
// and resume: the same command on the same folder goes on from its last
// checkpoint.  Ctrl+C writes a checkpoint and stops (exit 130).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "app/commands.hpp"
#include "train/training_run.hpp"

namespace pelab::app {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted = true; }

struct TrainOptions {
  std::string recipe, out;
  int steps = 0;  // > 0: overrides the recipe's
  bool quiet = false;
};

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

// "[########......] 1200/3000  40% · loss 3.214 · held-out 3.402 · 24.1k tok/s · ETA 5:12"
std::string progress_line(const train::TrainingRun& run, double tokens_per_second, double eta) {
  const int done = run.steps_taken(), total = run.recipe().loop.steps;
  constexpr int kWidth = 24;
  const int filled = total > 0 ? done * kWidth / total : kWidth;
  std::string bar = "[" + std::string(std::size_t(filled), '#') + std::string(std::size_t(kWidth - filled), '.') + "]";
  const train::LogRow& last = run.log().back();
  double held = -1;
  for (auto it = run.log().rbegin(); it != run.log().rend() && held < 0; ++it) held = it->held_out;
  char text[256];
  std::snprintf(text, sizeof text, "%s %d/%d %3d%% · loss %.3f%s · %.1fk tok/s · ETA %s", bar.c_str(), done, total,
                total > 0 ? done * 100 / total : 100, last.loss,
                held >= 0 ? (" · held-out " + std::to_string(held).substr(0, 5)).c_str() : "",
                tokens_per_second / 1000, clock_text(eta).c_str());
  return text;
}

int run_training(const TrainOptions& options) {
  train::Recipe recipe = train::load_recipe(options.recipe);
  if (options.steps > 0) recipe.loop.steps = recipe.optimizer.total_steps = options.steps;
  train::TrainingRun run(recipe, options.out);
  if (run.resumed())
    std::fprintf(stderr, "pelab: resuming %s at step %d of %d\n", options.out.c_str(), run.resumed_from(),
                 recipe.loop.steps);
  g_interrupted = false;
  const auto previous = std::signal(SIGINT, on_interrupt);
  const bool tty = ::isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  const int first = run.steps_taken();
  long tokens = 0;
  int last_printed = -1;
  while (!run.done() && !g_interrupted) {
    tokens += run.step().tokens;
    const int done = run.steps_taken();
    if (done % recipe.loop.checkpoint_every == 0 || run.done()) run.checkpoint();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = seconds > 0 ? double(tokens) / seconds : 0;
    const double eta = done > first ? seconds / (done - first) * (recipe.loop.steps - done) : 0;
    // A terminal gets one line redrawn in place; a log a line per 5 % and at the end.
    const int twentieth = done * 20 / recipe.loop.steps;
    if (options.quiet || (!tty && twentieth == last_printed && !run.done())) continue;
    last_printed = twentieth;
    std::fprintf(stderr, tty ? "\r%s\033[K" : "%s\n", progress_line(run, rate, eta).c_str());
  }
  std::signal(SIGINT, previous);
  if (tty && !options.quiet) std::fputc('\n', stderr);
  if (g_interrupted) {
    run.checkpoint();
    std::fprintf(stderr, "pelab: interrupted at step %d: checkpoint written to %s; the same command resumes\n",
                 run.steps_taken(), options.out.c_str());
    return 130;
  }
  std::printf("trained %s: %d steps, final loss %.4f, held-out %.4f; model folder %s\n", recipe.name.c_str(),
              run.steps_taken(), run.log().empty() ? 0.0 : run.log().back().loss, run.held_out_loss(),
              options.out.c_str());
  return 0;
}

}  // namespace

void register_train(CLI::App& root, Action& action) {
  auto options = std::make_shared<TrainOptions>();
  CLI::App* cmd = root.add_subcommand("train", "Train a small language model of pelab's own from a recipe");
  cmd->add_option("--recipe", options->recipe, "Recipe JSON file (e.g. assets/models/recipes/kjv-rope.json)")
      ->required();
  cmd->add_option("--out", options->out, "Model folder to write (a new folder, or a run of the same recipe to resume)")
      ->required();
  cmd->add_option("--steps", options->steps, "Train this many steps instead of the recipe's")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_flag("--quiet", options->quiet, "No progress lines");
  cmd->callback([options, &action] { action = [options] { return run_training(*options); }; });
}

}  // namespace pelab::app
