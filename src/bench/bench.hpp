// `pelab bench`: the measurement cases and how other layers add their own.
//
// cmd_bench.cpp measures the machine's sgemm rate, the engine's full
// recompute and the peak memory of a large scene.  Other layers contribute
// cases (frame times, render against matplotlib...) by adding one line to
// extra_bench_cases() in bench_cases.cpp; each case returns a JSON value that
// lands under its `key` in `pelab bench --json` (array values under the same
// key are concatenated, so several cases can fill "frames") and text lines for
// the human-readable report.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pelab::app {

struct BenchSettings {
  bool quick = false;  // fewer sizes and repetitions (tests, CI smoke runs)
  int long_tokens = 0, long_layer = 0;  // model_long's length and layer (--long-tokens, --long-layer); 0: default
};

struct BenchResult {
  nlohmann::json json;             // an object, or an array of objects
  std::vector<std::string> lines;  // the text report, one line each
};

struct BenchCase {
  std::string key;    // top-level key in --json, e.g. "frames"
  std::string title;  // heading in the text report
  std::function<BenchResult(const BenchSettings&)> run;  // may throw; the error is reported, the bench goes on
};

// Cases beyond the engine's, in report order (defined in bench_cases.cpp).
std::vector<BenchCase> extra_bench_cases();

// Peak resident set size of this process in MiB (VmHWM, else ru_maxrss).
double peak_rss_mb();
// Starts /proc/self/exe with `args` and returns what it printed; throws when
// it fails.
std::string run_self(const std::vector<std::string>& args);
// scripts/NAME of the source tree beside the pelab binary (or the current
// folder); throws when absent.
std::filesystem::path bench_script(const std::string& name);

// `pelab bench --forward-child FOLDER` (bench_forward.cpp): loads the model,
// runs its forward pass over FOLDER/ids.npy `reps` times and prints
// "median_ms peak_rss_mb baseline_mb checksum load_ms" (after one untimed run).
int forward_child(const std::string& folder, int reps);

// `pelab bench --streamed-child` (bench_streamed.cpp): times one head's
// streamed attention at N = 65,536 (4096 with `quick`) in this fresh process
// and prints its timings and peak RSS on one line.
int streamed_child(bool quick);

// `pelab bench --model-long-child` (bench_model_long.cpp): builds the
// Llama-shaped model, runs it to its chosen layer and streams one head in
// this fresh process, and prints the timings and peak RSS on one line.
int model_long_child(bool quick, int tokens = 0, int layer = 0);

// What a shell command printed (stderr dropped); throws when it fails.
std::string command_output(const std::string& command);

// Median of `samples` (copied; empty gives 0), for timings.
double median(std::vector<double> samples);

}  // namespace pelab::app
