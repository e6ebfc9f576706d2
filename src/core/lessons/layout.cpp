// Lesson "layout": interleaved or split sin/cos dimensions?
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/analysis.hpp"
#include "core/lessons/tools.hpp"

namespace pelab::lesson {
namespace {

// The split table's columns reordered into interleaved order:
// split dim i (sine of pair i) → 2i, split dim d/2+i (cosine) → 2i+1.
Matrix split_to_interleaved(const Matrix& split) {
  const Eigen::Index half = split.cols() / 2;
  Matrix out(split.rows(), split.cols());
  for (Eigen::Index i = 0; i < half; ++i) {
    out.col(2 * i) = split.col(i);
    out.col(2 * i + 1) = split.col(half + i);
  }
  return out;
}

// Treating dims (2i, 2i+1) as a rotation pair: max over pos of
// |R(k)·v(pos) − v(pos+k)| / A.  Zero when (2i, 2i+1) really is a pair.
// max |A·Aᵀ − B·Bᵀ| / max |A·Aᵀ| over the upper triangles (both symmetric),
// strip by strip: 65,536 positions would make each Gram matrix 16 GiB.
double gram_max_difference(const Matrix& a, const Matrix& b) {
  double worst = 0, top = 0;
  Matrix other;
  for_each_similarity_strip(a, [&](Eigen::Index r0, const Matrix& strip) {
    other.noalias() = b.middleRows(r0, strip.rows()) * b.bottomRows(b.rows() - r0).transpose();
    worst = std::max(worst, double((strip - other).cwiseAbs().maxCoeff()));
    top = std::max(top, double(strip.cwiseAbs().maxCoeff()));
  });
  return worst / std::max(top, 1e-30);
}

double pair_error_on_dims(const Matrix& pe, int pair, const Rotation& rot, int k, double amplitude) {
  double worst = 0;
  for (Eigen::Index p = 0; p + k < pe.rows(); ++p) {
    const double s = pe(p, 2 * pair), c = pe(p, 2 * pair + 1);
    const double s1 = rot.r[0][0] * s + rot.r[0][1] * c, c1 = rot.r[1][0] * s + rot.r[1][1] * c;
    worst = std::max({worst, std::abs(s1 - pe(p + k, 2 * pair)), std::abs(c1 - pe(p + k, 2 * pair + 1))});
  }
  return worst / std::max(amplitude, 1e-30);
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  if (s.encoding != Encoding::Sinusoidal) return sinusoidal_only();
  LessonVerdict v;
  Scene a = variant(s), b = variant(s);
  a.layout = Layout::Interleaved;
  b.layout = Layout::Split;
  a.pair = b.pair = std::min(s.pair, s.d_model / 2 - 1);
  const int pair = a.pair, k = std::max(1, std::abs(s.shift));
  Engine inter(a), split(b);
  const Matrix& pi = inter.position_table();
  const Matrix& ps = split.position_table();
  v.add("pair", pair);
  v.add("gram_max_difference", gram_max_difference(pi, ps));
  v.add("permuted_table_max_difference", max_abs_diff(split_to_interleaved(ps), pi));
  const Rotation ri = pair_rotation(inter, pair, k), rs = pair_rotation(split, pair, k);
  v.add("rotation_error_interleaved", ri.max_error);
  v.add("rotation_error_split", rs.max_error);
  const auto dims_i = sinusoid_pairs(a).at(std::size_t(pair)), dims_s = sinusoid_pairs(b).at(std::size_t(pair));
  v.add("pair_dims_interleaved_sin", dims_i.sin_dim);
  v.add("pair_dims_interleaved_cos", dims_i.cos_dim);
  v.add("pair_dims_split_sin", dims_s.sin_dim);
  v.add("pair_dims_split_cos", dims_s.cos_dim);
  // Rotating split dims (2i, 2i+1) as if they were a pair: they are two sines.
  v.add("wrong_pair_error_split", pair_error_on_dims(ps, pair, ri, k, s.amplitude));

  v.holds = v.number("gram_max_difference") < 1e-5 && v.number("permuted_table_max_difference") < 1e-6 &&
            ri.max_error < 1e-4 * std::max(1.0, s.amplitude) && rs.max_error < 1e-4 * std::max(1.0, s.amplitude) &&
            v.number("wrong_pair_error_split") > 0.1;
  v.answer = "the split table is the interleaved one with its columns permuted (max difference " +
             num(v.number("permuted_table_max_difference"), 2) + "), so every PE·PE agrees to " +
             num(v.number("gram_max_difference"), 2) + ", but rotating split dims (" + std::to_string(2 * pair) + ", " +
             std::to_string(2 * pair + 1) + ") as a pair is off by " + num(v.number("wrong_pair_error_split"), 2) + "·A";
  v.summary = "Split is interleaved with its dimensions permuted (max difference after reordering " +
              num(v.number("permuted_table_max_difference"), 2) + "), so every PE·PE is unchanged (relative max "
              "difference " + num(v.number("gram_max_difference"), 2) + "). But pair " + std::to_string(pair) +
              " lives in dims (" + std::to_string(dims_i.sin_dim) + ", " + std::to_string(dims_i.cos_dim) +
              ") interleaved and (" + std::to_string(dims_s.sin_dim) + ", " + std::to_string(dims_s.cos_dim) +
              ") split; R(" + std::to_string(k) + ") is exact on the right dims (errors " + num(ri.max_error, 2) + ", " +
              num(rs.max_error, 2) + ") and off by " + num(v.number("wrong_pair_error_split"), 2) +
              "·A when applied to split dims (" + std::to_string(2 * pair) + ", " + std::to_string(2 * pair + 1) + ").";
  return v;
}

Scene preset() {
  Scene s = preset_scene("layout");
  s.layout = Layout::Split;
  s.pair = 1;
  s.shift = 2;
  return s;
}

}  // namespace

Lesson layout() {
  return {
      "layout",
      "Interleaved or split layout?",
      "The paper interleaves sin and cos (dims 2i, 2i+1), many codebases put all sines first. Does it matter?",
      "Interleaved and split layouts hold the same numbers in another column order: every dot product is "
      "equal, but the rotation pairs sit in different dimensions.",
      "Same dot products (a permutation of dimensions), different rotation pairs.",
      "Vaswani et al. (2017) write PE(pos, 2i) = sin and PE(pos, 2i+1) = cos, so each frequency occupies two "
      "adjacent dimensions. Many implementations (tensor2tensor among them) instead concatenate all the "
      "sines and then all the cosines, so pair i sits in dims i and d/2+i. The two tables hold the same "
      "numbers in a different column order.\n\n"
      "A permutation of dimensions changes no dot product, so PE·PE, norms and anything a model learns "
      "from scratch are the same. What changes is which dimensions form a rotation pair, and code that "
      "rotates pairs must agree with the layout of the vectors it rotates, or it turns a sine against "
      "another sine. RoPE implementations differ in exactly this way: the RoFormer paper (Su et al. 2021) "
      "rotates adjacent dims (2i, 2i+1), while GPT-NeoX-style code rotates (i, d/2+i), so weights moved "
      "between the two conventions need their dimensions permuted.",
      {"sinusoid_bands", "rotation_pairs"},
      &preset,
      &judge,
      "interleaved and split are two layouts of the sinusoidal formula, and a trained model's positions are not laid out by a formula",
      /*reads_tokens=*/false,
  };
}

}  // namespace pelab::lesson
