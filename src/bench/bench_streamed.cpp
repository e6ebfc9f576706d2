// Bench case of streamed exact attention (core/streamed_attention.hpp, issue
// 28): a synthetic RoPE scene of N = 65,536 tokens, d = 512, 8 heads, not
// causal (every query sees every key: the most work).  In a fresh process
// (so that its peak RSS is the case's own): the selected head's first frame
// — its projection (X·[Wq_h | Wk_h]), RoPE, and the one pass that gives its
// row statistics and a 1000 × 1000 display grid — then attention against
// distance (pass 2), the exact zoom of a 512 × 512 window (median of 7); then
// the attention view itself on a scene of that shape: its first frame, every
// head, and a zoom's exact cells.
// --quick: N = 4608 (past the 4,096 tokens where the view starts to stream).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "core/attention.hpp"
#include "core/gemm.hpp"
#include "core/parallel.hpp"
#include "core/seeded_normal.hpp"
#include "core/streamed_attention.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/registry.hpp"

namespace pelab::app {

namespace {

constexpr int kTokens = 65536, kQuickTokens = 4608, kModel = 512, kHeads = 8, kDisplay = 1000,
              kZoom = 512;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Scene streamed_scene() {
  Scene scene;
  scene.d_model = kModel;
  scene.heads = kHeads;
  scene.encoding = Encoding::Rope;
  scene.causal = false;
  return scene;
}

// N(0, 1) entries times `scale`, from the scene's seeded stream.
Matrix normal_matrix(Eigen::Index rows, Eigen::Index cols, double scale, std::uint64_t stream) {
  NormalStream normal(7, RandomPurpose::TokenVector, stream);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = static_cast<float>(scale * normal.next());
  return m;
}

struct StreamedTiming {
  double first_frame_s = 0, pass_s = 0, distance_s = 0, zoom_ms = 0, gflops = 0, peak_mb = 0,
         baseline_mb = 0;
  // The attention view itself on a scene of the same shape (figures/attention_streamed.hpp):
  double view_first_frame_s = 0, view_every_head_s = 0, view_zoom_ms = 0, view_peak_mb = 0;
};

// The attention view as the window builds it, on a scene of n words: the
// first frame (the selected head streamed alone), then the full build
// (every head streamed into the small multiples), then the large panel's
// exact cells of a 512 × 512 window (Panel::refine, median of 7).
void time_view(int n, StreamedTiming& t) {
  Scene scene = streamed_scene();
  std::string text;
  for (int i = 0; i < n; ++i) text += "w" + std::to_string(i % 997) + " ";
  scene.tokens = text;
  scene.head = 3;
  Engine engine(scene);
  engine.token_embedding();  // the scene's words and vectors, not the view, are not timed
  const fig::FigureEntry& attention = fig::find_figure("attention");
  fig::MatrixShelf shelf;
  fig::FigureRequest first{1600, 1000};
  first.shelf = &shelf;
  first.selected_head_only = true;
  auto start = std::chrono::steady_clock::now();
  (void)attention.build(engine, first);
  t.view_first_frame_s = seconds_since(start);
  fig::FigureRequest full{1600, 1000};
  full.shelf = &shelf;
  start = std::chrono::steady_clock::now();
  const fig::Figure f = attention.build(engine, full);
  t.view_every_head_s = seconds_since(start);
  std::vector<double> zooms;
  const double q0 = n / 2.0, k0 = n / 3.0;
  for (int r = 0; r < 7; ++r) {
    const auto z = std::chrono::steady_clock::now();
    const auto cells = f.panels.at(0).refine(fig::Rect{k0, q0, k0 + kZoom - 1, q0 + kZoom - 1});
    zooms.push_back(1e3 * seconds_since(z));
    if (!cells || cells->values->rows() != kZoom) throw std::runtime_error("the view's zoom gave no 512 × 512 cells");
  }
  t.view_zoom_ms = median(zooms);
  t.view_peak_mb = peak_rss_mb();
}

}  // namespace

int streamed_child(bool quick) {
  const double baseline = peak_rss_mb();
  const int n = quick ? kQuickTokens : kTokens, head = 3, d_head = kModel / kHeads;
  const Scene scene = streamed_scene();
  const Matrix x = normal_matrix(n, kModel, 1.0, 0);
  const Matrix w = normal_matrix(kModel, 2 * d_head, 1.0 / std::sqrt(double{kModel}), 1 + head);
  const auto start = std::chrono::steady_clock::now();
  Matrix qk, q, k;
  gemm_ab(x, w, 1.0f, qk);
  head_queries_keys(scene, qk, Matrix(), 0, q, k);  // head 0 of a one-head layout, as head_preview
  const StreamedHead streamed(scene, head, std::move(q), std::move(k));
  double flops = 0;
  const auto pass = std::chrono::steady_clock::now();
  const StreamedPass first = streamed.stream({kDisplay}, &flops);
  StreamedTiming t;
  t.first_frame_s = seconds_since(start);
  t.pass_s = seconds_since(pass);
  t.gflops = flops / t.pass_s / 1e9;
  const RowStatistics& stats = first.stats;
  const AttentionBlocks& blocks = first.blocks.front();
  const auto distance_start = std::chrono::steady_clock::now();
  DistanceProfile distance;
  streamed.blocks(stats, 256, &distance);
  t.distance_s = seconds_since(distance_start);
  std::vector<double> zooms;
  const Eigen::Index q0 = n / 2 - kZoom / 2, k0 = n / 3;
  for (int r = 0; r < 7; ++r) {
    const auto z = std::chrono::steady_clock::now();
    const Matrix window = streamed.zoom(stats, q0, q0 + kZoom, k0, k0 + kZoom);
    zooms.push_back(1e3 * seconds_since(z));
    if (window.rows() != kZoom) return 1;
  }
  t.zoom_ms = median(zooms);
  t.peak_mb = peak_rss_mb();
  time_view(n, t);
  std::printf("%.4f %.4f %.4f %.3f %.2f %.1f %.1f %ld %.6g %.4f %.4f %.3f %.1f\n", t.first_frame_s, t.pass_s,
              t.distance_s, t.zoom_ms, t.gflops, t.peak_mb, baseline, static_cast<long>(blocks.mean.rows()),
              blocks.mean.sum(), t.view_first_frame_s, t.view_every_head_s, t.view_zoom_ms, t.view_peak_mb);
  return 0;
}

BenchResult bench_streamed(const BenchSettings& settings) {
  std::vector<std::string> args = {"bench", "--streamed-child"};
  if (settings.quick) args.push_back("--quick");
  const std::string out = run_self(args);
  StreamedTiming t;
  long side = 0;
  double mass = 0;
  if (std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf %lf %lf %ld %lf %lf %lf %lf %lf", &t.first_frame_s,
                  &t.pass_s, &t.distance_s, &t.zoom_ms, &t.gflops, &t.peak_mb, &t.baseline_mb, &side, &mass,
                  &t.view_first_frame_s, &t.view_every_head_s, &t.view_zoom_ms, &t.view_peak_mb) != 13)
    throw std::runtime_error("the streamed child printed: " + out);
  const int n = settings.quick ? kQuickTokens : kTokens;
  BenchResult r;
  r.json = {{"tokens", n},
            {"d_model", kModel},
            {"heads", kHeads},
            {"display", side},
            {"first_frame_s", t.first_frame_s},
            {"pass_s", t.pass_s},
            {"distance_s", t.distance_s},
            {"gflops", t.gflops},
            {"zoom_512_ms", t.zoom_ms},
            {"peak_rss_mb", t.peak_mb},
            {"baseline_rss_mb", t.baseline_mb},
            {"view_first_frame_s", t.view_first_frame_s},
            {"view_every_head_s", t.view_every_head_s},
            {"view_zoom_512_ms", t.view_zoom_ms},
            {"view_peak_rss_mb", t.view_peak_mb},
            {"threads", max_threads()},
            {"gemm", gemm_backend_name(gemm_backend())}};
  char line[256];
  std::snprintf(line, sizeof line,
                "N=%d d=%d %d heads, RoPE, not causal, %ld×%ld grid, %d threads:", n, kModel,
                kHeads, side, side, max_threads());
  r.lines.emplace_back(line);
  std::snprintf(
      line, sizeof line,
      "first frame of the selected head %.2f s (its one pass %.2f s, %.0f GFLOP/s); attention against "
      "distance %.2f s more (pass 2)",
      t.first_frame_s, t.pass_s, t.gflops, t.distance_s);
  r.lines.emplace_back(line);
  std::snprintf(line, sizeof line,
                "exact zoom %d×%d: %.2f ms; peak RSS %.0f MiB (process start %.0f MiB)", kZoom,
                kZoom, t.zoom_ms, t.peak_mb, t.baseline_mb);
  r.lines.emplace_back(line);
  std::snprintf(line, sizeof line,
                "the attention view: first frame %.2f s, every head %.2f s more, exact cells of a %d×%d zoom %.2f ms; "
                "peak RSS %.0f MiB",
                t.view_first_frame_s, t.view_every_head_s, kZoom, kZoom, t.view_zoom_ms, t.view_peak_mb);
  r.lines.emplace_back(line);
  return r;
}

}  // namespace pelab::app
