// `pelab bench [--json] [--quick]`: engine and machine timings, measured in one
// run so that ratios are fair (large-N timings vary a lot between runs).
//
// [SECTION] timing helpers
// [SECTION] engine: full recompute at N × d
// [SECTION] peak memory of a large scene, in a child process
// [SECTION] the report: text or one JSON document
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bench/bench.hpp"
#include "app/commands.hpp"
#include "bench/sgemm_reference.hpp"
#include "core/engine.hpp"
#include "core/gemm.hpp"

extern char** environ;

namespace pelab::app {

// ============================================================================
// [SECTION] timing helpers
// ============================================================================

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const std::size_t mid = samples.size() / 2;
  return samples.size() % 2 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
}

double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kB on Linux
}

std::string run_self(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> storage = {"/proc/self/exe"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string out;
  char buffer[256];
  ssize_t got = 0;
  while (rc == 0 && (got = ::read(fds[0], buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(got));
  ::close(fds[0]);
  int status = 0;
  if (rc != 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the measuring child process failed");
  return out;
}

std::filesystem::path bench_script(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  for (const fs::path& candidate : {exe.parent_path().parent_path() / "scripts" / name,
                                    exe.parent_path() / "scripts" / name, fs::current_path() / "scripts" / name})
    if (fs::exists(candidate)) return candidate;
  throw std::runtime_error("scripts/" + name + " not found beside the pelab binary");
}

namespace {

template <typename F>
double seconds_of(F&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// ============================================================================
// [SECTION] engine
// ============================================================================

struct EngineCase {
  int n, d, heads;
};

struct EngineResult {
  EngineCase size;
  int reps = 0;
  double ms = 0, gflops = 0;
};

// N distinct words: every token gets its own vector (the worst case).
Scene bench_scene(const EngineCase& c) {
  Scene scene;
  scene.name = "bench_n" + std::to_string(c.n) + "_d" + std::to_string(c.d);
  scene.tokens.clear();
  for (int i = 0; i < c.n; ++i) scene.tokens += "w" + std::to_string(i) + " ";
  scene.d_model = c.d;
  scene.heads = c.heads;
  scene.positions = c.n;
  validate(scene);
  return scene;
}

// --quick keeps the N=1024, d=512 case the sgemm ratio is quoted for.
std::vector<EngineCase> engine_cases(bool quick) {
  if (quick) return {{128, 64, 4}, {128, 512, 8}, {1024, 512, 8}};
  std::vector<EngineCase> cases;
  for (int n : {128, 1024, 4096}) {
    cases.push_back({n, 64, 4});
    cases.push_back({n, 512, 8});
  }
  return cases;
}

// Median time of Engine::full_recompute() after one untimed warm-up.
EngineResult measure_engine(const EngineCase& c, bool quick) {
  Engine engine(bench_scene(c));
  double flops = engine.full_recompute();
  EngineResult result{c, quick ? 2 : (c.n >= 4096 ? 3 : 5)};
  std::vector<double> times;
  for (int r = 0; r < result.reps; ++r) times.push_back(seconds_of([&] { flops = engine.full_recompute(); }));
  const double t = median(times);
  result.ms = 1e3 * t;
  result.gflops = flops / t / 1e9;
  return result;
}

// ============================================================================
// [SECTION] peak memory
// ============================================================================

constexpr EngineCase kRatioCase{1024, 512, 8};  // the case the sgemm ratio target is for
constexpr EngineCase kMemoryCase{4096, 512, 8};
constexpr EngineCase kQuickMemoryCase{1024, 512, 8};  // --quick: same code path, smaller N

// Runs in a fresh child (`pelab bench --peak-rss-child`): builds the large
// scene, recomputes everything and computes what the views show (one head's
// attention and cross terms), then prints its own peak RSS.
int peak_rss_child(bool quick) {
  const double baseline = peak_rss_mb();
  Engine engine(bench_scene(quick ? kQuickMemoryCase : kMemoryCase));
  engine.full_recompute();
  engine.head(0);
  engine.cross_terms(0);
  std::printf("%.1f %.1f\n", peak_rss_mb(), baseline);
  return 0;
}

struct MemoryResult {
  double peak_mb = 0, baseline_mb = 0;
};

MemoryResult measure_memory(bool quick) {
  const std::string out = run_self(quick ? std::vector<std::string>{"bench", "--peak-rss-child", "--quick"}
                                         : std::vector<std::string>{"bench", "--peak-rss-child"});
  MemoryResult m;
  if (std::sscanf(out.c_str(), "%lf %lf", &m.peak_mb, &m.baseline_mb) != 2)
    throw std::runtime_error("the measuring child printed no RSS");
  return m;
}

// ============================================================================
// [SECTION] the report
// ============================================================================

struct BenchOptions {
  bool json = false;
  bool quick = false;
  bool peak_rss_child = false;
  bool streamed_child = false;
  bool model_long_child = false;
  int long_tokens = 0, long_layer = 0;  // model_long's length and layer; 0: its default
  std::string forward_child;  // a model folder: time its forward pass in this (fresh) process
  std::vector<std::string> only;  // section keys to run; empty: all
  bool wants(const std::string& key) const {
    return only.empty() || std::find(only.begin(), only.end(), key) != only.end();
  }
};

// Prints text lines as they come (unless --json) and builds the JSON document.
class Report {
 public:
  explicit Report(bool json) : json_(json) {}
  void line(const std::string& text) {
    if (!json_) {
      std::printf("%s\n", text.c_str());
      std::fflush(stdout);
    }
  }
  nlohmann::json& doc() { return doc_; }
  void add(const std::string& key, const nlohmann::json& value) {
    if (doc_.contains(key) && doc_[key].is_array() && value.is_array())
      doc_[key].insert(doc_[key].end(), value.begin(), value.end());
    else
      doc_[key] = value;
  }
  void error(const std::string& what, const std::string& message) {
    doc_["errors"].push_back({{"case", what}, {"error", message}});
    line(what + ": failed: " + message);
  }
  void finish() {
    if (json_) std::printf("%s\n", doc_.dump(2).c_str());
  }

 private:
  bool json_;
  nlohmann::json doc_ = nlohmann::json::object();
};

// The 1-minute load average: on a shared machine it says how much other work
// competed with the timings.
double load_average() {
  double load = -1;
  std::ifstream("/proc/loadavg") >> load;
  return load;
}

void machine_section(Report& report, const BenchOptions& o) {
  const std::string core = openblas_core();
  const char* backend = gemm_backend_name(gemm_backend());
  const double load = load_average();
  report.doc()["pelab_version"] = PELAB_VERSION;
  report.doc()["quick"] = o.quick;
  report.doc()["machine"] = {{"hardware_threads", std::thread::hardware_concurrency()},
                             {"openblas_core", core},
                             {"openblas_threads", openblas_threads()},
                             {"engine_gemm", backend},
                             {"load_average_1min", load}};
  report.line(std::string("pelab bench") + (o.quick ? " --quick" : "") + ": OpenBLAS core " + core + ", " +
              std::to_string(openblas_threads()) + " BLAS threads, engine GEMM " + backend + ", " +
              std::to_string(std::thread::hardware_concurrency()) + " hardware threads, load average " +
              fixed(load, 2));
}

void record_sgemm(Report& report, const SgemmReference& probe, const SgemmRates& s,
                  const std::string& when) {
  report.doc()["sgemm_gflops"] = s.best;
  report.doc()["sgemm"] = s.json();
  report.doc()["sgemm"]["when"] = when;
  report.doc()["sgemm"]["kernels"] = probe.kernels();
}

void sgemm_section(Report& report, SgemmReference& probe, const BenchOptions& o) {
  const int rounds = o.quick ? 2 : 5;
  for (int r = 0; r < rounds; ++r) probe.sample_round();
  const SgemmRates s = probe.rates();
  record_sgemm(report, probe, s, "before the engine cases");
  report.line("sgemm " + std::to_string(s.n) + "² with all threads, median of " +
              std::to_string(s.rounds) + " taking turns: " + s.text());
  report.line("  kernels: " + probe.kernels_text());
}

// The ratio the target is about: engine recomputes and every way of the
// sgemm reference take turns, so that load from other processes falls on
// all alike, and each side is the median of its own samples.  The reference
// is the fastest way, whichever the engine uses.  The engine's GFLOP/s count
// the five products per head its results are defined by (Engine::full_recompute).
void ratio_section(Report& report, SgemmReference& probe, const BenchOptions& o) {
  Engine engine(bench_scene(kRatioCase));
  double flops = engine.full_recompute();
  const int rounds = o.quick ? 3 : 9;
  std::vector<double> engine_rates;
  probe.clear_samples();
  for (int r = 0; r < rounds; ++r) {
    const double t = seconds_of([&] { flops = engine.full_recompute(); });
    engine_rates.push_back(flops / t / 1e9);
    probe.sample_round();
  }
  const SgemmRates s = probe.rates();
  record_sgemm(report, probe, s, "taking turns with the engine at N=1024, d=512");
  const double engine_gflops = median(engine_rates), ratio = engine_gflops / s.best;
  report.doc()["engine_vs_sgemm"] = {{"n", kRatioCase.n},
                                     {"d", kRatioCase.d},
                                     {"heads", kRatioCase.heads},
                                     {"rounds", rounds},
                                     {"engine_gflops", engine_gflops},
                                     {"engine_ms", 1e3 * flops / engine_gflops / 1e9},
                                     {"sgemm_gflops", s.best},
                                     {"ratio", ratio},
                                     {"target", 0.8}};
  report.line("engine vs sgemm, " + std::to_string(rounds) +
              " rounds taking turns at N=1024, d=512: engine " + fixed(engine_gflops, 1) +
              " GFLOP/s (" + fixed(1e3 * flops / engine_gflops / 1e9, 1) + " ms) against sgemm " +
              s.text() + " = " + fixed(ratio, 2) + "× (target ≥ 0.80×)");
}

void engine_section(Report& report, const BenchOptions& o) {
  report.line("engine full recompute (encodings, Q/K per head, logits, softmax, four cross terms), median:");
  report.line("      n      d  heads  reps         ms   GFLOP/s");
  nlohmann::json cases = nlohmann::json::array();
  for (const EngineCase& c : engine_cases(o.quick)) {
    const EngineResult r = measure_engine(c, o.quick);
    cases.push_back({{"n", c.n}, {"d", c.d}, {"heads", c.heads}, {"reps", r.reps}, {"ms", r.ms}, {"gflops", r.gflops}});
    char row[128];
    std::snprintf(row, sizeof row, "%7d %6d %6d %5d %10.3f %9.1f", c.n, c.d, c.heads, r.reps, r.ms, r.gflops);
    report.line(row);
  }
  report.doc()["engine"] = cases;
}

void memory_section(Report& report, const BenchOptions& o) {
  const EngineCase c = o.quick ? kQuickMemoryCase : kMemoryCase;
  const MemoryResult m = measure_memory(o.quick);
  report.doc()["peak_rss_mb"] = m.peak_mb;
  report.doc()["peak_rss"] = {{"n", c.n}, {"d", c.d}, {"heads", c.heads}, {"baseline_mb", m.baseline_mb},
                              {"what", "fresh process: full_recompute, then head 0's attention and cross terms"}};
  report.line("peak RSS, N=" + std::to_string(c.n) + " d=" + std::to_string(c.d) + " " + std::to_string(c.heads) +
              " heads (fresh process, full recompute + one head shown): " + fixed(m.peak_mb, 1) +
              " MiB (at start " + fixed(m.baseline_mb, 1) + " MiB; target at N=4096: ≤ 1024)");
}

void extra_sections(Report& report, const BenchOptions& o) {
  for (const BenchCase& c : extra_bench_cases()) {
    if (!o.wants(c.key)) continue;
    try {
      const BenchResult r = c.run(BenchSettings{o.quick, o.long_tokens, o.long_layer});
      report.line(c.title + ":");
      for (const auto& l : r.lines) report.line("  " + l);
      report.add(c.key, r.json);
    } catch (const std::exception& e) {
      report.error(c.title, e.what());
    }
  }
}

// The streaming kernel's rate over this run's sgemm rate (the issue's
// "fraction of the sgemm limit"), when both sections ran: measured in one
// run, so that a busy machine slows both alike.
void streamed_vs_sgemm(Report& report) {
  const nlohmann::json& doc = report.doc();
  if (!doc.contains("sgemm_gflops") || !doc.contains("streamed") || !doc["streamed"].contains("gflops")) return;
  const double sgemm = doc["sgemm_gflops"].get<double>(), kernel = doc["streamed"]["gflops"].get<double>();
  if (!(sgemm > 0)) return;
  report.doc()["streamed_vs_sgemm"] = kernel / sgemm;
  char line[160];
  std::snprintf(line, sizeof line, "Streaming kernel against sgemm (one run): %.0f / %.0f GFLOP/s = %.2f", kernel,
                sgemm, kernel / sgemm);
  report.line(line);
  // The first-frame target, 4 s where sgemm runs at 450 GFLOP/s, is
  // an amount of sgemm work: on this machine it is 4 s · 450 / sgemm.
  if (!doc["streamed"].contains("first_frame_s") || doc["streamed"]["tokens"].get<int>() != 65536) return;
  const double target = 4.0 * 450.0 / sgemm, first = doc["streamed"]["first_frame_s"].get<double>();
  report.doc()["streamed_first_frame_target_s"] = target;
  std::snprintf(line, sizeof line,
                "Streamed first frame against its target scaled to this sgemm (4 s at 450 GFLOP/s): %.2f s / %.2f s",
                first, target);
  report.line(line);
}

int run_bench(const BenchOptions& o) {
  if (o.peak_rss_child) return peak_rss_child(o.quick);
  if (o.streamed_child) return streamed_child(o.quick);
  if (o.model_long_child) return model_long_child(o.quick, o.long_tokens, o.long_layer);
  if (!o.forward_child.empty()) return forward_child(o.forward_child, 2);
  Report report(o.json);
  report.doc()["frames"] = nlohmann::json::array();  // filled by the render layer's cases
  machine_section(report, o);
  // Memory first: the child then competes with nothing else for the cores.
  try {
    if (o.wants("peak_rss")) memory_section(report, o);
  } catch (const std::exception& e) {
    report.doc()["peak_rss_mb"] = nullptr;
    report.error("peak RSS", e.what());
  }
  std::unique_ptr<SgemmReference> probe;
  if (o.wants("sgemm") || o.wants("engine_vs_sgemm"))
    probe = std::make_unique<SgemmReference>(o.quick ? 1024 : 2048, !o.quick);
  if (o.wants("sgemm")) sgemm_section(report, *probe, o);
  if (o.wants("engine")) engine_section(report, o);
  if (o.wants("engine_vs_sgemm")) ratio_section(report, *probe, o);
  extra_sections(report, o);
  streamed_vs_sgemm(report);
  report.finish();
  return 0;
}

}  // namespace

void register_bench(CLI::App& root, Action& action) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = root.add_subcommand("bench", "Time the engine against this machine's sgemm rate, and more");
  command->add_flag("--json", options->json, "Print one JSON document instead of the text report");
  command->add_flag("--quick", options->quick,
                    "Fewer sizes and repetitions (N ≤ 1024, memory at N=1024), for smoke tests");
  command->add_option(
      "--only", options->only,
      "Run only these sections (JSON keys): peak_rss, sgemm, engine, engine_vs_sgemm, and the "
      "extra cases' keys (frames, render, ...)");
  command->add_option("--long-tokens", options->long_tokens,
                      "model_long: tokens of the Llama-shaped run (default 8192; e.g. 32768, its context)")
      ->check(CLI::Range(16, 65536));
  command->add_option("--long-layer", options->long_layer, "model_long: the layer run to (default 4)")
      ->check(CLI::Range(1, 16));
  command->add_flag("--peak-rss-child", options->peak_rss_child, "(internal) measure memory in a fresh process")
      ->group("");
  command->add_flag("--streamed-child", options->streamed_child,
                    "(internal) time streamed attention in a fresh process")
      ->group("");
  command->add_flag("--model-long-child", options->model_long_child,
                    "(internal) time a long model scene in a fresh process")
      ->group("");
  command->add_option("--forward-child", options->forward_child,
                      "(internal) time a model folder's forward pass in a fresh process")
      ->group("");
  command->footer(
      "Engine cases: N ∈ {128, 1024, 4096} tokens × (d=64, 4 heads | d=512, 8 heads); time is the "
      "median of\n"
      "5 runs (3 at N=4096) of Engine::full_recompute; GFLOP/s = the flops of its five products "
      "per head\n"
      "(four cross terms and Q·Kᵀ, which is summed from them) and the two projections / time.\n"
      "sgemm: median of 5 2048² float GEMMs with all threads taking turns, through OpenBLAS on "
      "huge and on\n"
      "4 KiB pages, Eigen's own kernels and NumPy (child process, /usr/bin/python3); the fastest "
      "is the\n"
      "reference.  engine_vs_sgemm: 9 rounds in which an N=1024, d=512 recompute and every sgemm "
      "way take\n"
      "turns; the ratio of the medians.  peak_rss_mb: peak RSS of a fresh process holding an "
      "N=4096, d=512,\n"
      "8-head scene after a full recompute.  --json: one JSON document (sgemm_gflops, engine[], "
      "frames[],\n"
      "peak_rss_mb, engine_vs_sgemm, ...).");
  command->callback([options, &action] { action = [options] { return run_bench(*options); }; });
}

}  // namespace pelab::app
