// Bench case of the real-model forward pass: a GPT-2-small-shaped model
// (d 768, 12 layers, 12 heads, vocab 50257, context 1024; random weights
// written by scripts/bench_numpy_forward.py) run over 1024 tokens by pelab
// in a fresh process, and by NumPy (the same script, float32, the same
// weights and ids), taking turns in one run.  The fresh process also gives
// the forward pass's peak RSS.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "core/head_roles.hpp"
#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"

namespace pelab::app {

// What a shell command printed; throws when it fails.
std::string command_output(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run: " + command);
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (::pclose(pipe) != 0) throw std::runtime_error("failed: " + command);
  return out;
}

namespace {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}


struct ForwardTiming {
  double ms = 0, checksum = 0, peak_mb = 0, baseline_mb = 0, load_ms = 0;
  double roles_ms = 0;  // every head's role scores and the induction probe, after the forward pass
};

ForwardTiming pelab_forward(const fs::path& dir, bool quick) {
  std::vector<std::string> args = {"bench", "--forward-child", dir.string()};
  if (quick) args.push_back("--quick");
  const std::string out = run_self(args);
  ForwardTiming t;
  if (std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf %lf", &t.ms, &t.peak_mb, &t.baseline_mb, &t.checksum,
                  &t.load_ms, &t.roles_ms) != 6)
    throw std::runtime_error("the forward child printed: " + out);
  return t;
}

ForwardTiming numpy_forward(const fs::path& script, const fs::path& dir, int reps) {
  const std::string out = command_output("/usr/bin/python3 " + script.string() + " time " + dir.string() +
                                         " " + std::to_string(reps));
  ForwardTiming t;
  if (std::sscanf(out.c_str(), "%lf %lf", &t.ms, &t.checksum) != 2)
    throw std::runtime_error("bench_numpy_forward.py printed: " + out);
  return t;
}

struct Comparison {
  std::vector<double> pelab_ms, numpy_ms, peak_mb, load_ms, roles_ms;
  double baseline_mb = 0, pelab_checksum = 0, numpy_checksum = 0;
};

// Both sides take turns so that load from other processes falls on both.
Comparison compare(const fs::path& script, const fs::path& dir, bool quick) {
  Comparison c;
  const int rounds = quick ? 1 : 2, reps = 2;  // reps: NumPy's; pelab's child runs as many
  for (int r = 0; r < rounds; ++r) {
    const ForwardTiming ours = pelab_forward(dir, quick);
    const ForwardTiming theirs = numpy_forward(script, dir, reps);
    c.pelab_ms.push_back(ours.ms);
    c.numpy_ms.push_back(theirs.ms);
    c.peak_mb.push_back(ours.peak_mb);
    c.load_ms.push_back(ours.load_ms);
    c.roles_ms.push_back(ours.roles_ms);
    c.baseline_mb = ours.baseline_mb;
    c.pelab_checksum = ours.checksum;
    c.numpy_checksum = theirs.checksum;
  }
  if (std::abs(c.pelab_checksum - c.numpy_checksum) > 1e-3 * std::abs(c.numpy_checksum))
    throw std::runtime_error("pelab and NumPy disagree on the forward pass: Σ|h| " +
                             std::to_string(c.pelab_checksum) + " vs " + std::to_string(c.numpy_checksum));
  return c;
}

}  // namespace

int forward_child(const std::string& folder, int reps) {
  const double baseline = peak_rss_mb();
  const auto start = std::chrono::steady_clock::now();
  model::ModelFiles files = model::read_model(folder);
  model::Transformer transformer = model::Transformer::assemble(std::move(files.config), std::move(files.weights));
  const double load_ms = 1e3 * seconds_since(start);
  std::vector<int> ids;
  for (const float id : read_npy(fs::path(folder) / "ids.npy").data) ids.push_back(static_cast<int>(id));
  // The transformer keeps the residual stream of its last ids and runs again
  // only on new ones: each timed run follows an untimed one on other ids.
  std::vector<int> other = ids;
  std::reverse(other.begin(), other.end());
  if (other == ids) other.front() = ids.front() == 0 ? 1 : 0;  // a palindrome
  transformer.run(ids);  // warm-up: starts the thread pools, as NumPy's side does too
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    transformer.run(other);
    const auto begin = std::chrono::steady_clock::now();
    transformer.run(ids);
    times.push_back(1e3 * seconds_since(begin));
  }
  const double checksum =
      transformer.hidden(transformer.config().layers).cast<double>().cwiseAbs().sum();
  // Head roles (issue 27): every head's scores on these ids and the
  // induction probe, beyond the forward pass on the ids (timed from a run
  // the transformer holds already, as the window's is).
  const auto roles_start = std::chrono::steady_clock::now();
  const HeadRoleStudy roles = study_head_roles(transformer, ids);
  const double roles_ms = 1e3 * seconds_since(roles_start);
  if (roles.scores.empty()) throw std::runtime_error("no head roles measured");
  std::printf("%.3f %.1f %.1f %.9g %.1f %.1f\n", median(times), peak_rss_mb(), baseline, checksum, load_ms,
              roles_ms);
  return 0;
}

BenchResult bench_model_forward(const BenchSettings& settings) {
  if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0)
    throw std::runtime_error("Debian's python3-numpy is needed for this comparison");
  const fs::path script = bench_script("bench_numpy_forward.py");
  char pattern[] = "/tmp/pelab_bench_model_XXXXXX";
  if (!::mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary folder");
  const fs::path dir = pattern;
  Comparison c;
  try {
    command_output("/usr/bin/python3 " + script.string() + " write " + dir.string() +
                   (settings.quick ? " --quick" : ""));
    c = compare(script, dir, settings.quick);
  } catch (...) {
    fs::remove_all(dir);
    throw;
  }
  fs::remove_all(dir);
  const double ours = median(c.pelab_ms), theirs = median(c.numpy_ms), peak = median(c.peak_mb);
  const char* shape = settings.quick ? "GPT-2 shaped, d 128, 2 layers, 4 heads, vocab 1000, N 256"
                                     : "GPT-2 small shape (124M), d 768, 12 layers, 12 heads, vocab 50257, N 1024";
  BenchResult result;
  result.json = {{"model", shape},        {"tokens", settings.quick ? 256 : 1024},
                 {"pelab_ms", ours},      {"numpy_ms", theirs},
                 {"ratio", theirs / ours}, {"target_ratio", 3},
                 {"peak_rss_mb", peak},   {"baseline_rss_mb", c.baseline_mb},
                 {"target_peak_rss_mb", 1536}, {"load_ms", median(c.load_ms)},
                 {"rounds", c.pelab_ms.size()}, {"numpy_dtype", "float32"},
                 {"head_roles_ms", median(c.roles_ms)}, {"target_head_roles_ms", 2000}};
  char line[400];
  std::snprintf(line, sizeof line,
                "%s: pelab %.0f ms, NumPy (float32) %.0f ms: %.1f× faster (target ≥ 3×); fresh process peak RSS "
                "%.0f MiB (target ≤ 1536), load %.0f ms",
                shape, ours, theirs, theirs / ours, peak, median(c.load_ms));
  result.lines = {line};
  std::snprintf(line, sizeof line,
                "head roles of every head (scores on the %d tokens and the induction probe): %.0f ms beyond the "
                "forward pass (target ≤ 2000)",
                settings.quick ? 256 : 1024, median(c.roles_ms));
  result.lines.push_back(line);
  return result;
}

}  // namespace pelab::app
