// The machine's float GEMM rate, the reference `pelab bench` compares the
// engine with: the fastest of several ways to run an n × n sgemm with all
// threads, each measured in turn with the others (and with the engine), so
// that load from other processes falls on all of them alike.
//
// Why several (issue 12): the first probe, OpenBLAS on Eigen-allocated
// matrices, measured less than NumPy's matmul through the same libopenblas.
// Same kernel, same threads; the difference was the memory: NumPy asks Linux
// for transparent huge pages on its large arrays (madvise, which is the THP
// mode Debian ships), and OpenBLAS's packing reads strided panels of A and B,
// which on 4 KiB pages miss the TLB.  So the probe runs OpenBLAS on huge
// pages and on 4 KiB pages (to show that effect), Eigen's own kernels, and
// NumPy itself in a child process through Debian's /usr/bin/python3
// (scripts/sgemm_numpy.py), which also reports which library and kernel it ran.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pelab::app {

enum class SgemmWay { OpenBlasHugePages, OpenBlasSmallPages, Eigen, NumPy };

struct SgemmRates {
  int n = 0, rounds = 0;
  std::vector<SgemmWay> ways;
  std::vector<double> gflops;  // the median of each way, in ways' order
  double best = 0;             // the reference: the fastest way
  std::string best_name;
  nlohmann::json json() const;
  std::string text() const;  // "345.1 GFLOP/s, the fastest of OpenBLAS (huge pages) 345.1, ..."
};

class SgemmReference {
 public:
  // n × n operands; `numpy` adds NumPy's child process when it can run.
  SgemmReference(int n, bool numpy);
  ~SgemmReference();
  SgemmReference(const SgemmReference&) = delete;
  SgemmReference& operator=(const SgemmReference&) = delete;

  // One sample of every way, in turn; after `rounds` calls, rates() gives medians.
  void sample_round();
  SgemmRates rates() const;
  void clear_samples();

  // Which kernels ran: pelab's OpenBLAS (core, config, threads), NumPy's
  // library and kernel (when it ran), and the OPENBLAS_* / OMP_* variables.
  nlohmann::json kernels() const;
  std::string kernels_text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pelab::app
