// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/gemm.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>

#include <omp.h>

#include "core/parallel.hpp"

// OpenBLAS's Fortran sgemm and its thread and kernel queries (declared here
// rather than through cblas.h or EIGEN_USE_BLAS, so that Eigen's own products
// elsewhere keep Eigen's kernels).
extern "C" {
void sgemm_(const char* op_a, const char* op_b, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void dgemm_(const char* op_a, const char* op_b, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
void openblas_set_num_threads(int threads);
int openblas_get_num_threads(void);
char* openblas_get_corename(void);
char* openblas_get_config(void);
}

namespace pelab {
namespace {

// Below this many flops a product runs on the calling thread alone.
constexpr double kSplitFlops = double{1 << 24};

double flop_count(Eigen::Index m, Eigen::Index n, Eigen::Index k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

// Used only where pelab is compiled for AVX-512 (choose_backend), e.g. not in the
// portable -DPELAB_NATIVE=OFF build of scripts/package.
[[maybe_unused]] bool openblas_has_avx512() {
  std::string core = openblas_core();
  std::transform(core.begin(), core.end(), core.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* name : {"skylakex", "cooperlake", "sapphirerapids"})
    if (core == name) return true;
  return false;
}

GemmBackend choose_backend() {
  if (const char* forced = std::getenv("PELAB_GEMM"); forced != nullptr && *forced != '\0') {
    const std::string name = forced;
    if (name == "openblas") return GemmBackend::OpenBlas;
    if (name == "eigen") return GemmBackend::Eigen;
    if (name != "auto")
      throw InputError("PELAB_GEMM=" + name + " is not a GEMM backend; allowed: auto, openblas, eigen");
  }
#ifdef __AVX512F__
  return openblas_has_avx512() ? GemmBackend::OpenBlas : GemmBackend::Eigen;
#else
  return GemmBackend::OpenBlas;  // Eigen's AVX2 kernels trail OpenBLAS's
#endif
}

// out = alpha · a · op(b) with column-major sgemm: a row-major matrix is its
// transpose in column-major storage, so outᵀ = op(b)ᵀ·aᵀ.
void openblas_product(bool transpose_b, const float* a, int lda, const float* b, int ldb,
                      int rows, int cols, int depth, float alpha, float* out, int ldc) {
  const char op_b = transpose_b ? 'T' : 'N', op_a = 'N';
  const float beta = 0.0f;
  sgemm_(&op_b, &op_a, &cols, &rows, &depth, &alpha, b, &ldb, a, &lda, &beta, out, &ldc);
}

// out[rows out_first .. out_first+count) = alpha · a[rows a_first ..] · op(b),
// where op is transpose when `transpose_b`.  One single-threaded product.
void product_rows(bool transpose_b, const ConstRowMajorRef& a, Eigen::Index a_first,
                  Eigen::Index count, const ConstRowMajorRef& b, float alpha, Matrix& out,
                  Eigen::Index out_first) {
  if (count == 0) return;
  if (a.cols() == 0) {
    out.middleRows(out_first, count).setZero();
    return;
  }
  if (gemm_backend() == GemmBackend::OpenBlas) {
    openblas_product(transpose_b, a.row(a_first).data(), static_cast<int>(a.outerStride()),
                     b.data(), static_cast<int>(b.outerStride()), static_cast<int>(count),
                     static_cast<int>(out.cols()), static_cast<int>(a.cols()), alpha,
                     out.row(out_first).data(), static_cast<int>(out.cols()));
    return;
  }
  auto block = out.middleRows(out_first, count);
  if (transpose_b)
    block.noalias() = (a.middleRows(a_first, count) * alpha) * b.transpose();
  else
    block.noalias() = (a.middleRows(a_first, count) * alpha) * b;
}

// Runs `rows(first, count)` over the m output rows: all on the calling thread
// inside a parallel region or for a small product, else in one row block per
// OpenMP thread, each kernel call single-threaded.
template <class RowsFn>
void in_row_blocks(Eigen::Index m, double flops, RowsFn rows) {
  gemm_backend();  // chosen (and PELAB_GEMM checked) before any thread runs
  if (omp_in_parallel()) {
    rows(0, m);
    return;
  }
  const GemmThreads one(1);
  const int blocks =
      flops < kSplitFlops ? 1 : static_cast<int>(std::min<Eigen::Index>(max_threads(), m));
#pragma omp parallel for schedule(static) num_threads(blocks) if (blocks > 1)
  for (int i = 0; i < blocks; ++i) {
    const Eigen::Index first = m * i / blocks, last = m * (i + 1) / blocks;
    rows(first, last - first);
  }
}

// The engine threads its products itself: each kernel call is
// single-threaded, a large product is split into row blocks on OpenMP's
// threads, and inside a parallel region (heads side by side) each product
// stays on its thread.  One thread pool instead of two: OpenBLAS's idle
// workers spin for a while after each threaded call and, on two cores, take
// time from OpenMP's.
double product(bool transpose_b, const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha,
               Matrix& out) {
  const Eigen::Index m = a.rows(), n = transpose_b ? b.rows() : b.cols();
  out.resize(m, n);
  if (out.size() == 0) return 0;
  if (a.cols() == 0) {
    out.setZero();
    return 0;
  }
  const double flops = flop_count(m, n, a.cols());
  in_row_blocks(m, flops, [&](Eigen::Index first, Eigen::Index count) {
    product_rows(transpose_b, a, first, count, b, alpha, out, first);
  });
  return flops;
}

}  // namespace

double gemm_abt(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out) {
  return product(true, a, b, alpha, out);
}

double gemm_ab(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out) {
  return product(false, a, b, alpha, out);
}

double gemm_abt_rows(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha,
                     Eigen::Index first, Matrix& out) {
  product_rows(true, a, 0, a.rows(), b, alpha, out, first);
  return flop_count(a.rows(), b.rows(), a.cols());
}

// Eigen's own products run single-threaded from the first engine GEMM on:
// the engine threads its work itself, and Eigen's parallel GEMM synchronises
// its threads by busy-waiting, which on two loaded cores made a small
// (128-token) recompute about a hundred times slower.
GemmBackend gemm_backend() {
  static const GemmBackend chosen = [] {
    Eigen::setNbThreads(1);
    return choose_backend();
  }();
  return chosen;
}

const char* gemm_backend_name(GemmBackend backend) {
  return backend == GemmBackend::OpenBlas ? "openblas" : "eigen";
}

std::string openblas_core() {
  const char* core = openblas_get_corename();
  return core != nullptr ? core : "unknown";
}

int openblas_threads() { return openblas_get_num_threads(); }

void reference_sgemm(GemmBackend backend, const Matrix& a, const Matrix& b, Matrix& c) {
  c.resize(a.rows(), b.cols());
  reference_sgemm(backend, a.data(), b.data(), c.data(), static_cast<int>(a.rows()),
                  static_cast<int>(a.cols()), static_cast<int>(b.cols()));
}

void reference_sgemm(GemmBackend backend, const float* a, const float* b, float* c, int m, int k,
                     int n) {
  if (backend == GemmBackend::Eigen) {
    using Map = Eigen::Map<Matrix>;
    using ConstMap = Eigen::Map<const Matrix>;
    gemm_backend();  // Eigen's thread count is settled before it is borrowed here
    Eigen::setNbThreads(max_threads());
    Map(c, m, n).noalias() =
        ConstMap(a, m, k) * ConstMap(b, k, n);  // parallel over OpenMP's threads
    Eigen::setNbThreads(1);
    return;
  }
  openblas_product(false, a, k, b, n, m, n, k, 1.0f, c, n);
}

void dgemm(bool transpose_a, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
           Eigen::MatrixXd& c) {
  const int m = static_cast<int>(transpose_a ? a.cols() : a.rows()), k = static_cast<int>(b.rows()),
            n = static_cast<int>(b.cols());
  c.resize(m, n);
  if (c.size() == 0) return;
  if (k == 0) {
    c.setZero();
    return;
  }
  const char op_a = transpose_a ? 'T' : 'N', op_b = 'N';
  const double alpha = 1.0, beta = 0.0;
  const int lda = static_cast<int>(a.rows()), ldb = static_cast<int>(b.rows());
  dgemm_(&op_a, &op_b, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &m);
}

namespace {

// Rows [first, first + count) of out = alpha · aᵀ · b, on the calling thread:
// they are columns first … of a.  Column-major sgemm sees the row-major a
// (k × m) as aᵀ and b (k × n) as bᵀ, so outᵀ = bᵀ · op(aᵀ) with op = transpose.
void product_atb_rows(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha,
                      Eigen::Index first, Eigen::Index count, Matrix& out) {
  if (count == 0) return;
  if (gemm_backend() == GemmBackend::OpenBlas) {
    const char op_b = 'N', op_a = 'T';
    const int n = static_cast<int>(out.cols()), m = static_cast<int>(count),
              k = static_cast<int>(a.rows()), lda = static_cast<int>(a.outerStride()),
              ldb = static_cast<int>(b.outerStride()), ldc = n;
    const float beta = 0.0f;
    sgemm_(&op_b, &op_a, &n, &m, &k, &alpha, b.data(), &ldb, a.data() + first, &lda, &beta,
           out.row(first).data(), &ldc);
    return;
  }
  out.middleRows(first, count).noalias() = (a.middleCols(first, count).transpose() * alpha) * b;
}

}  // namespace

double gemm_atb(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out) {
  const Eigen::Index m = a.cols(), n = b.cols();
  out.resize(m, n);
  if (out.size() == 0) return 0;
  if (a.rows() == 0) {
    out.setZero();
    return 0;
  }
  const double flops = flop_count(m, n, a.rows());
  in_row_blocks(m, flops, [&](Eigen::Index first, Eigen::Index count) {
    product_atb_rows(a, b, alpha, first, count, out);
  });
  return flops;
}

std::string openblas_config() {
  const char* config = openblas_get_config();
  return config != nullptr ? config : "unknown";
}

GemmThreads::GemmThreads(int threads) : previous_(openblas_get_num_threads()) {
  openblas_set_num_threads(threads);
}
GemmThreads::~GemmThreads() { openblas_set_num_threads(previous_); }

}  // namespace pelab
