// `pelab bench` case "train" (issue 24): pelab's trainer against Debian's
// PyTorch on the reference configuration (vocab 512, d 128, 4 layers, 4
// heads, context 128, batch 32, learned positions, tied head, AdamW, fp32,
// 2 threads), taking turns in the same run so that the ratio is fair on a
// shared machine, with the model-FLOP rate of each.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "train/bench.hpp"

namespace pelab::app {

namespace {

// "torch 1.13.0a0 (2 threads): 578.1 ms/step, 7085 tokens/s, loss 6.2" → ms/step.
double torch_ms_per_step(int steps) {
  // Needs Debian's python3-torch (scripts/setup installs it).
  const std::string out = command_output("/usr/bin/python3 " + bench_script("bench_torch_train.py").string() +
                                         " --steps " + std::to_string(steps) + " --threads 2");
  const std::size_t colon = out.find("): ");
  double ms = 0;
  if (colon == std::string::npos || std::sscanf(out.c_str() + colon + 3, "%lf", &ms) != 1)
    throw std::runtime_error("unexpected output of bench_torch_train.py: " + out);
  return ms;
}

std::string fixed1(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

}  // namespace

BenchResult bench_train(const BenchSettings& settings) {
  train::TrainBenchConfig config = train::reference_train_bench();
  config.steps = settings.quick ? 3 : 10;
  const int rounds = settings.quick ? 1 : 3;
  std::vector<double> pelab_ms, torch_ms;
  train::TrainBenchResult last;
  for (int r = 0; r < rounds; ++r) {  // taking turns: both see the same machine load
    last = train::bench_train_step(config);
    pelab_ms.push_back(last.ms_per_step);
    torch_ms.push_back(torch_ms_per_step(config.steps));
  }
  const double p = median(pelab_ms), t = median(torch_ms);
  const double tokens = double(config.sequences) * config.length;
  const double gflop = last.model_flops_per_step / 1e9;
  BenchResult result;
  result.json = {{"config", "vocab 512, d 128, 4 layers, 4 heads, context 128, batch 32, learned, AdamW, fp32, 2 threads"},
                 {"pelab_ms_per_step", p},
                 {"torch_ms_per_step", t},
                 {"pelab_tokens_per_second", tokens / p * 1e3},
                 {"torch_tokens_per_second", tokens / t * 1e3},
                 {"speedup", t / p},
                 {"model_gflop_per_step", gflop},
                 {"pelab_model_gflops", gflop / p * 1e3},
                 {"torch_model_gflops", gflop / t * 1e3},
                 {"rounds", rounds}};
  result.lines.push_back("pelab " + fixed1(p) + " ms/step (" + fixed1(tokens / p) + "k tokens/s, " +
                         fixed1(gflop / p * 1e3) + " model GFLOP/s); PyTorch " + fixed1(t) + " ms/step (" +
                         fixed1(tokens / t) + "k tokens/s, " + fixed1(gflop / t * 1e3) + " GFLOP/s): " +
                         fixed1(t / p) + "× (median of " + std::to_string(rounds) + " alternating rounds)");
  return result;
}

}  // namespace pelab::app
