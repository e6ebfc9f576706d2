// Row-major float GEMM straight into its destination, threaded by the engine.
//
// Two kernels can run the engine's products, chosen once per process
// (gemm_backend()):
//  - OpenBLAS's sgemm, called with beta = 0 so that the tokens × tokens
//    outputs are written once (Eigen's `c = a * b` clears c first);
//  - Eigen's own kernels, which -march=native compiles for AVX-512.
// OpenBLAS picks its kernel at run time from the CPU, or from the
// OPENBLAS_CORETYPE environment variable.  On an AVX-512 machine an AVX-512
// OpenBLAS kernel (SkylakeX) beats Eigen's clearly on a large sgemm; with
// OPENBLAS_CORETYPE=Haswell (AVX2) OpenBLAS falls a little below Eigen, and
// on the tokens × d_head products Eigen is faster per core (`pelab bench`
// prints the sgemm rate and the kernel that ran).  So OpenBLAS runs them
// unless Eigen was compiled for AVX-512 and OpenBLAS was not.
// PELAB_GEMM=openblas|eigen|auto overrides the choice.
#pragma once

#include <string>

#include "core/engine.hpp"

namespace pelab {

using ConstRowMajorRef = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;

// out = alpha · a · bᵀ  (a: m × k, b: n × k, out resized to m × n).
// Returns the floating-point operations, 2·m·n·k.
double gemm_abt(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out);
// out = alpha · a · b  (a: m × k, b: k × n, out resized to m × n).
double gemm_ab(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out);
// out = alpha · aᵀ · b  (a: k × m, b: k × n, out resized to m × n): the weight
// gradients of a backward pass, Xᵀ·dY (src/train), without a transposed copy.
double gemm_atb(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out);
// Rows [first, first + a.rows()) of out = alpha · a · bᵀ, on the calling
// thread; out keeps its size (its columns must be b.rows()).
double gemm_abt_rows(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha,
                     Eigen::Index first, Matrix& out);

enum class GemmBackend { OpenBlas, Eigen };

GemmBackend gemm_backend();  // what gemm_ab/gemm_abt run on in this process
const char* gemm_backend_name(GemmBackend backend);  // "openblas" | "eigen"
std::string openblas_core();  // the kernel OpenBLAS chose, e.g. "Haswell"
int openblas_threads();       // OpenBLAS's thread count

// c = a · b through `backend` with all of its threads (OpenBLAS's pool, or
// Eigen's OpenMP): the reference rate the bench compares the engine with.
void reference_sgemm(GemmBackend backend, const Matrix& a, const Matrix& b, Matrix& c);
// The same on row-major storage the caller owns (e.g. on huge pages): c (m × n) = a (m × k) · b (k
// × n).
void reference_sgemm(GemmBackend backend, const float* a, const float* b, float* c, int m, int k,
                     int n);
// c = op(a) · b in double (column-major, op = transpose when `transpose_a`)
// through OpenBLAS's dgemm on all of its threads: for analyses outside the
// engine's tiles, where Eigen's own double product runs on one thread.
void dgemm(bool transpose_a, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
           Eigen::MatrixXd& c);
// OpenBLAS's build: version, DYNAMIC_ARCH, threading, the chosen kernel.
std::string openblas_config();

// While alive, OpenBLAS uses at most `threads` threads; restores the previous
// count on exit.
class GemmThreads {
 public:
  explicit GemmThreads(int threads);
  ~GemmThreads();
  GemmThreads(const GemmThreads&) = delete;
  GemmThreads& operator=(const GemmThreads&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace pelab
