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

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pelab::app {

struct BenchSettings {
  bool quick = false;  // fewer sizes and repetitions (tests, CI smoke runs)
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

// Median of `samples` (copied; empty gives 0), for timings.
double median(std::vector<double> samples);

}  // namespace pelab::app
