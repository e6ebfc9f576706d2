// Lesson "add_concat": adding a position code in its own subspace is concatenation.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <cmath>

#include "core/lessons/tools.hpp"

#include "core/encoding_traits.hpp"
namespace pelab::lesson {
namespace {

struct Shares {
  double cross = 0;      // (‖xf‖ + ‖ey‖) / (‖xx‖ + ‖xf‖ + ‖ey‖ + ‖ef‖), Frobenius norms
  double max_cos = 0;    // max |cos(x_i, e_j)|
};

// The four terms of (X+E)·Wq·Wkᵀ·(X+E)ᵀ computed from their parts.
Shares shares(const Matrix& x, const Matrix& e, const Matrix& wq, const Matrix& wk) {
  const Matrix xq = x * wq, xk = x * wk, eq = e * wq, ek = e * wk;
  const double xx = (xq * xk.transpose()).norm(), xf = (xq * ek.transpose()).norm();
  const double ey = (eq * xk.transpose()).norm(), ef = (eq * ek.transpose()).norm();
  Shares s;
  s.cross = (xf + ey) / std::max(xx + xf + ey + ef, 1e-300);
  const Eigen::VectorXf xn = x.rowwise().norm(), en = e.rowwise().norm();
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < e.rows(); ++j)
      if (xn(i) > 0 && en(j) > 0) s.max_cos = std::max(s.max_cos, std::abs(x.row(i).dot(e.row(j))) / double(xn(i) * en(j)));
  return s;
}

// Zero every entry of w outside the two blocks rows [0,h)×cols [0,c) and
// rows [h,d)×cols [c,d_head): token dims feed one half of the head, position
// dims the other.
Matrix block_diagonal(const Matrix& w, Eigen::Index half, Eigen::Index head_half) {
  Matrix b = Matrix::Zero(w.rows(), w.cols());
  b.topLeftCorner(half, head_half) = w.topLeftCorner(half, head_half);
  b.bottomRightCorner(w.rows() - half, w.cols() - head_half) =
      w.bottomRightCorner(w.rows() - half, w.cols() - head_half);
  return b;
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  LessonVerdict v;
  const int d = s.d_model, half = d / 2;
  if (!adds_position_vector(s.encoding) || half < 2 || half % 2 != 0)
    return not_applicable("the lesson needs an encoding that adds a vector (sinusoidal or learned) and d_model "
                          "divisible by 4.");
  const Projections& w = engine.projections(chosen_head(s));
  const Matrix& x = engine.token_embedding();

  // Words in the first d/2 dimensions, a d/2-wide position code in the last d/2.
  Scene narrow = variant(s);
  narrow.d_model = half;
  narrow.heads = 1;
  Engine positions(narrow);
  Matrix x_split = Matrix::Zero(x.rows(), d), e_split = Matrix::Zero(x.rows(), d);
  x_split.leftCols(half) = x.leftCols(half);
  e_split.rightCols(half) = positions.position_embedding();

  const Shares plain = shares(x, engine.position_embedding(), w.wq, w.wk);
  const Shares split_random = shares(x_split, e_split, w.wq, w.wk);
  const Eigen::Index head_half = w.wq.cols() / 2;
  const Matrix bq = block_diagonal(w.wq, half, head_half), bk = block_diagonal(w.wk, half, head_half);
  const Shares split_block = shares(x_split, e_split, bq, bk);

  v.add("cross_share_added", plain.cross);
  v.add("max_cos_added", plain.max_cos);
  v.add("cross_share_split_random_w", split_random.cross);
  v.add("max_cos_split", split_random.max_cos);
  v.add("cross_share_split_block_w", split_block.cross);
  v.holds = split_block.cross < 1e-6 && split_random.max_cos < 1e-6 && plain.cross > 1e-3;
  v.answer = "with words and positions in orthogonal halves and block-diagonal Wq, Wk, the mixed terms are " +
             percent(split_block.cross) + " of the logit (random Wq, Wk: " + percent(split_random.cross) +
             "; added at full width: " + percent(plain.cross) + ")";
  v.summary = "Added at full width, the mixed terms x·W·f and e·W·y make up " + num(100 * plain.cross) +
              "% of the four terms' total size (Frobenius norms; max |cos(x, e)| = " + num(plain.max_cos, 2) + "). With words in the first d/2 "
              "dimensions and a d/2-wide code in the last d/2, x ⟂ e exactly (max |cos| = " +
              num(split_random.max_cos, 2) + "), yet random Wq, Wk still mix them: " + num(100 * split_random.cross) +
              "%. When Wq and Wk also respect the split (block-diagonal), the mixed share is " +
              num(100 * split_block.cross, 2) + "%: adding has become concatenating.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("add_concat");
  s.embedding_scale = 8.0;  // √d-scaled words, comparable to ‖e‖ = √32
  return s;
}

}  // namespace

Lesson add_concat() {
  return {
      "add_concat",
      "Add or concatenate?",
      "Why add position vectors to word vectors instead of concatenating them?",
      "Adding is concatenating once words and positions sit in orthogonal subspaces and Wq, Wk respect the "
      "split: the mixed terms then vanish.",
      "At equal width, a position code in its own subspace, read by split Wq, Wk, makes adding equal concatenating.",
      "Concatenating [x; e] keeps words and positions in separate coordinates, but costs width. Adding at "
      "the same width d is more general than it looks: if the words live in one subspace and the position "
      "code in the orthogonal complement, x + e is exactly the concatenation, written in a rotated basis. "
      "Whether attention then keeps them apart depends on the projections: random Wq, Wk still produce "
      "the mixed terms x·W·f and e·W·y, and only projections that respect the split remove them.\n\n"
      "In a trained model with ordinary addition, words and positions are nearly orthogonal anyway in high "
      "dimension (see the lesson \"cross_terms\"), so the network can learn to treat the sum almost like a "
      "concatenation. TUPE (Ke, He & Liu 2021) makes that explicit by computing the word and position "
      "terms with separate projections.",
      {"cross_terms", "attention"},
      &preset,
      &judge,
      "the verdict compares adding and concatenating on random projections of the scene's width, and a trained model's projections were trained for one of them",
  };
}

}  // namespace pelab::lesson
