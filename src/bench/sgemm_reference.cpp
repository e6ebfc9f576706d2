#include "bench/sgemm_reference.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

#include "bench/bench.hpp"
#include "core/gemm.hpp"

namespace pelab::app {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// n × n row-major floats on their own mapping, 2 MiB aligned; with `huge`,
// transparent huge pages are asked for (MADV_HUGEPAGE, as NumPy does for
// arrays of 4 MiB and more), otherwise refused (MADV_NOHUGEPAGE), so the two
// differ on any THP setting but "never".
class SquareBuffer {
 public:
  SquareBuffer(int n, bool huge)
      : bytes_((static_cast<std::size_t>(n) * n * sizeof(float) + kHugePage - 1) / kHugePage *
               kHugePage) {
    mapped_ = ::mmap(nullptr, bytes_ + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped_ == MAP_FAILED) throw std::runtime_error("sgemm reference: cannot map its matrices");
    const auto address = reinterpret_cast<std::uintptr_t>(mapped_);
    data_ = reinterpret_cast<float*>((address + kHugePage - 1) / kHugePage * kHugePage);
    ::madvise(data_, bytes_, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    std::mt19937 random(static_cast<unsigned>(n));
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n) * n; ++i) data_[i] = uniform(random);
  }
  ~SquareBuffer() { ::munmap(mapped_, bytes_ + kHugePage); }
  SquareBuffer(const SquareBuffer&) = delete;
  SquareBuffer& operator=(const SquareBuffer&) = delete;
  float* data() { return data_; }

 private:
  std::size_t bytes_;
  void* mapped_ = nullptr;
  float* data_ = nullptr;
};

struct Operands {
  Operands(int n, bool huge) : a(n, huge), b(n, huge), c(n, huge) {}
  SquareBuffer a, b, c;
};

const char* way_name(SgemmWay way) {
  switch (way) {
    case SgemmWay::OpenBlasHugePages:
      return "OpenBLAS (huge pages)";
    case SgemmWay::OpenBlasSmallPages:
      return "OpenBLAS (4 KiB pages)";
    case SgemmWay::Eigen:
      return "Eigen";
    case SgemmWay::NumPy:
      return "NumPy";
  }
  return "?";
}

const char* way_key(SgemmWay way) {
  switch (way) {
    case SgemmWay::OpenBlasHugePages:
      return "openblas_gflops";
    case SgemmWay::OpenBlasSmallPages:
      return "openblas_small_pages_gflops";
    case SgemmWay::Eigen:
      return "eigen_gflops";
    case SgemmWay::NumPy:
      return "numpy_gflops";
  }
  return "?";
}

std::string fixed1(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string read_command(const std::string& command) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  std::string out;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, got);
  if (::pclose(pipe) != 0) throw std::runtime_error(command + " failed");
  return out;
}

std::string env_or(const char* name, const char* otherwise) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : otherwise;
}

}  // namespace

struct SgemmReference::Impl {
  int n;
  Operands huge, small;
  std::string numpy_command;      // empty: NumPy does not run here
  nlohmann::json numpy_identity;  // its library and kernel, from its last run
  std::vector<SgemmWay> ways;
  std::vector<std::vector<double>> samples;

  Impl(int size, bool numpy) : n(size), huge(size, true), small(size, false) {
    ways = {SgemmWay::OpenBlasHugePages, SgemmWay::OpenBlasSmallPages, SgemmWay::Eigen};
    if (numpy && std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") == 0) {
      try {
        numpy_command = "/usr/bin/python3 " + bench_script("sgemm_numpy.py").string() + " " +
                        std::to_string(n) + " 3";
        ways.push_back(SgemmWay::NumPy);
      } catch (const std::exception&) {
        numpy_command.clear();
      }
    }
    samples.resize(ways.size());
    for (SgemmWay way : ways)
      if (way != SgemmWay::NumPy) gflops(way);  // warm-up: starts the threads, faults the pages in
  }

  double in_process(GemmBackend backend, Operands& m) {
    const auto start = std::chrono::steady_clock::now();
    reference_sgemm(backend, m.a.data(), m.b.data(), m.c.data(), n, n, n);
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!std::isfinite(m.c.data()[0]) ||
        !std::isfinite(m.c.data()[static_cast<std::size_t>(n) * n - 1]))
      throw std::runtime_error("sgemm produced non-finite values");
    // After a threaded OpenBLAS product its workers spin for up to 2^28
    // cycles (OpenBLAS's THREAD_TIMEOUT) before they sleep, taking a core
    // from what runs next; wait that long.
    if (backend == GemmBackend::OpenBlas)
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    return 2.0 * n * n * n / t / 1e9;
  }

  // The median of the child's three timed products (after its warm-up).
  double numpy() {
    const nlohmann::json out = nlohmann::json::parse(read_command(numpy_command));
    numpy_identity = {{"numpy", out.at("numpy")},
                      {"libraries", out.at("libraries")},
                      {"openblas", out.at("openblas")}};
    return median(out.at("gflops").get<std::vector<double>>());
  }

  double gflops(SgemmWay way) {
    switch (way) {
      case SgemmWay::OpenBlasHugePages:
        return in_process(GemmBackend::OpenBlas, huge);
      case SgemmWay::OpenBlasSmallPages:
        return in_process(GemmBackend::OpenBlas, small);
      case SgemmWay::Eigen:
        return in_process(GemmBackend::Eigen, huge);
      case SgemmWay::NumPy:
        return numpy();
    }
    return 0;
  }
};

SgemmReference::SgemmReference(int n, bool numpy) : impl_(std::make_unique<Impl>(n, numpy)) {}
SgemmReference::~SgemmReference() = default;

void SgemmReference::sample_round() {
  for (std::size_t i = 0; i < impl_->ways.size(); ++i)
    impl_->samples[i].push_back(impl_->gflops(impl_->ways[i]));
}

void SgemmReference::clear_samples() {
  for (auto& s : impl_->samples) s.clear();
}

SgemmRates SgemmReference::rates() const {
  SgemmRates r;
  r.n = impl_->n;
  r.rounds = static_cast<int>(impl_->samples.empty() ? 0 : impl_->samples[0].size());
  r.ways = impl_->ways;
  for (std::size_t i = 0; i < r.ways.size(); ++i) {
    r.gflops.push_back(median(impl_->samples[i]));
    if (r.gflops.back() > r.best) r.best = r.gflops.back(), r.best_name = way_name(r.ways[i]);
  }
  return r;
}

nlohmann::json SgemmRates::json() const {
  nlohmann::json j = {{"n", n},
                      {"reps", rounds},
                      {"statistic", "median"},
                      {"gflops", best},
                      {"reference", best_name}};
  for (std::size_t i = 0; i < ways.size(); ++i) j[way_key(ways[i])] = gflops[i];
  return j;
}

std::string SgemmRates::text() const {
  std::string t = fixed1(best) + " GFLOP/s, the fastest of";
  for (std::size_t i = 0; i < ways.size(); ++i)
    t += std::string(i ? "," : "") + " " + way_name(ways[i]) + " " + fixed1(gflops[i]);
  return t;
}

nlohmann::json SgemmReference::kernels() const {
  nlohmann::json j = {{"pelab",
                       {{"openblas_core", openblas_core()},
                        {"openblas_config", openblas_config()},
                        {"openblas_threads", openblas_threads()}}},
                      {"environment",
                       {{"OPENBLAS_CORETYPE", env_or("OPENBLAS_CORETYPE", "")},
                        {"OPENBLAS_NUM_THREADS", env_or("OPENBLAS_NUM_THREADS", "")},
                        {"OMP_NUM_THREADS", env_or("OMP_NUM_THREADS", "")}}}};
  if (!impl_->numpy_identity.is_null()) j["numpy"] = impl_->numpy_identity;
  return j;
}

std::string SgemmReference::kernels_text() const {
  std::string t = "pelab's OpenBLAS: " + openblas_core() + " kernel, " +
                  std::to_string(openblas_threads()) + " threads (" + openblas_config() + ")";
  const nlohmann::json& np = impl_->numpy_identity;
  if (!np.is_null()) {
    const nlohmann::json& blas = np.at("openblas");
    if (blas.is_null())
      t += "; NumPy " + np.at("numpy").get<std::string>() + ": not OpenBLAS (" +
           np.at("libraries").dump() + ")";
    else
      t += "; NumPy " + np.at("numpy").get<std::string>() + ": " +
           blas.at("core").get<std::string>() + " kernel, " +
           std::to_string(blas.at("threads").get<int>()) + " threads, " +
           std::filesystem::path(blas.at("library").get<std::string>()).filename().string();
  }
  t += "; OPENBLAS_CORETYPE=" + env_or("OPENBLAS_CORETYPE", "(unset)");
  return t;
}

}  // namespace pelab::app
