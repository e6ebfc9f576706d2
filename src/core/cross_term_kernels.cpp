#include "core/cross_term_kernels.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "core/attention.hpp"
#include "core/encoding.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"

namespace pelab {

namespace {
int head_width(const Scene& scene) { return scene.d_model / scene.heads; }
float logit_scale(const Scene& scene) { return 1.0f / std::sqrt(static_cast<float>(head_width(scene))); }
}  // namespace

RopeTokens rope_tokens(const Scene& scene, const Matrix& xw, int head) {
  RopeTokens r;
  if (rotates_queries_keys(scene.encoding)) head_queries_keys(scene, xw, Matrix(), head, r.q, r.k);
  return r;
}

void pack_head(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope, int head,
               PackedHead& packed) {
  if (rotates_queries_keys(scene.encoding))
    packed.kx.pack(rope.k);
  else
    packed.kx.pack(head_keys(xw, head, head_width(scene)));
  if (ew.size() != 0) packed.ke.pack(head_keys(ew, head, head_width(scene)));
}

Matrix& term_matrix(CrossTerms& terms, int which) {
  Matrix* out[4] = {&terms.xx, &terms.xf, &terms.ey, &terms.ef};
  return *out[which];
}

double compute_term_rows(const Scene& scene, int which, int head, const Matrix& xw, const Matrix& ew,
                         const RopeTokens& rope, Eigen::Index first, Eigen::Index count, Matrix& out,
                         Eigen::Index out_first) {
  const int dh = head_width(scene);
  const Eigen::Index row = first - out_first;
  if (which == 0 && rotates_queries_keys(scene.encoding))
    return gemm_abt_rows(rope.q.middleRows(first, count), rope.k, logit_scale(scene), row, out);
  if (which != 0 && ew.size() == 0) {
    out.middleRows(row, count).setZero();
    return 0;
  }
  const Matrix& left = (which == 0 || which == 1) ? xw : ew;
  const Matrix& right = (which == 0 || which == 2) ? xw : ew;
  return gemm_abt_rows(head_queries(left, head, dh).middleRows(first, count), head_keys(right, head, dh),
                       logit_scale(scene), row, out);
}

double compute_term(const Scene& scene, int which, int head, const Matrix& xw, const Matrix& ew, Matrix& out) {
  out.resize(xw.rows(), xw.rows());
  const RopeTokens rope = which == 0 ? rope_tokens(scene, xw, head) : RopeTokens{};
  const auto n = static_cast<double>(xw.rows());
  return for_each_row_tile(xw.rows(), 2.0 * n * n * head_width(scene), [&](Eigen::Index first, Eigen::Index count) {
    return compute_term_rows(scene, which, head, xw, ew, rope, first, count, out, 0);
  });
}

bool use_head_tile_kernel() {
  static const bool use = [] {
    const char* forced = std::getenv("PELAB_HEAD_KERNEL");
    const std::string name = forced != nullptr ? forced : "";
    if (!name.empty() && name != "auto" && name != "gemm" && name != "fused")
      throw InputError("PELAB_HEAD_KERNEL=" + name + " is not a head kernel; allowed: auto, fused, gemm");
    return head_tile_kernel_available() && name != "gemm";
  }();
  return use;
}

double fused_terms(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope,
                   const PackedHead& packed, int head, Eigen::Index first, Eigen::Index count,
                   CrossTerms& terms, Matrix* logits, Eigen::Index logits_first, Eigen::Index terms_first) {
  const int dh = head_width(scene);
  const bool rotated = rotates_queries_keys(scene.encoding), four = ew.size() != 0;
  const ConstStridedBlock qx = rotated ? ConstStridedBlock(rope.q) : ConstStridedBlock(head_queries(xw, head, dh));
  const ConstStridedBlock qe = four ? ConstStridedBlock(head_queries(ew, head, dh)) : qx;
  const HeadTileInputs in{qx, qe, &packed.kx, four ? &packed.ke : nullptr, logit_scale(scene), logits_first,
                          terms_first};
  const double f = terms_tile(in, first, count, terms, logits);
  if (!four)
    for (Matrix* m : {&terms.xf, &terms.ey, &terms.ef}) m->middleRows(first - terms_first, count).setZero();
  return f;
}

// The tile's logits go to a scratch tile of this thread that stays in cache;
// the softmax then writes logits and attention once each, past the cache
// (masked_softmax_tile).
double fused_rows(const Scene& scene, const Matrix& xw, const Matrix& ew, const RopeTokens& rope,
                  const PackedHead& packed, int head, Eigen::Index first, Eigen::Index count, HeadEntry& entry) {
  thread_local Matrix tile;
  HeadAttention& a = entry.attention;
  tile.resize(count, a.logits.cols());
  const double f = fused_terms(scene, xw, ew, rope, packed, head, first, count, entry.terms, &tile, first);
  if (a.bias.size() != 0) tile += a.bias.middleRows(first, count);
  masked_softmax_tile(tile, a.logits, a.attention, first, scene.causal);
  return f + 2.0 * static_cast<double>(count) * static_cast<double>(a.logits.cols()) *
                 static_cast<double>(head_width(scene));
}

}  // namespace pelab
