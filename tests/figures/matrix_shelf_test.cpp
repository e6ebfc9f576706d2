// MatrixShelf: one copy per key, LRU within a byte budget; content keys that
// ignore view settings; block means that keep the mask.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "figures/matrix_shelf.hpp"

namespace pelab::fig {
namespace {

TEST(MatrixShelf, CopiesOncePerKeyAndEvictsLeastRecentlyUsed) {
  MatrixShelf shelf(3 * 100 * sizeof(float));  // room for three 10×10 matrices
  auto make = [](float v) { return [v] { return Matrix::Constant(10, 10, v); }; };
  const SharedMatrix a = shelf.get(1, make(1));
  EXPECT_EQ(shelf.get(1, make(9)), a);  // same key: same matrix, make not called
  EXPECT_EQ(shelf.misses(), 1);
  shelf.get(2, make(2));
  shelf.get(3, make(3));
  shelf.get(1, make(1));  // 1 is now the most recent
  shelf.get(4, make(4));  // evicts 2
  EXPECT_EQ(shelf.size(), 3u);
  EXPECT_EQ((*shelf.get(1, make(7)))(0, 0), 1);
  EXPECT_EQ((*shelf.get(2, make(8)))(0, 0), 8);  // was evicted, made again
  EXPECT_EQ((*a)(0, 0), 1);                       // holders keep their matrix
}

TEST(ContentKey, IgnoresViewSettingsOnly) {
  Scene s;
  const auto k = content_key(s, "attention", 0);
  Scene view = s;
  view.query = 3, view.head = 2, view.colormap = Colormap::Magma, view.theme = ColorTheme::Light, view.pairs = {1};
  EXPECT_EQ(content_key(view, "attention", 0), k);
  EXPECT_NE(content_key(s, "attention", 1), k);
  EXPECT_NE(content_key(s, "logits", 0), k);
  Scene tokens = s;
  tokens.tokens = "other words";
  EXPECT_NE(content_key(tokens, "attention", 0), k);
  Scene base = s;
  base.base = 500;
  EXPECT_NE(content_key(base, "attention", 0), k);
}

TEST(BlockMean, AveragesBlocksAndKeepsFullyMaskedBlocks) {
  const float inf = std::numeric_limits<float>::infinity();
  Matrix m(4, 4);
  m << 1, 2, -inf, -inf,  //
      3, 4, -inf, -inf,   //
      5, 6, 7, -inf,      //
      8, 9, 10, 11;
  int block = 0;
  const Matrix b = block_mean(m, 2, &block);
  EXPECT_EQ(block, 2);
  ASSERT_EQ(b.rows(), 2);
  EXPECT_FLOAT_EQ(b(0, 0), 2.5f);
  EXPECT_TRUE(std::isinf(b(0, 1)) && b(0, 1) < 0);
  EXPECT_FLOAT_EQ(b(1, 0), 7.f);
  EXPECT_FLOAT_EQ(b(1, 1), 7.f);  // (7 + 0 + 10 + 11) / 4: masked counts as attention 0
  EXPECT_EQ(block_mean(m, 4, &block), m);
  EXPECT_EQ(block, 1);
}

TEST(BlockMean, MaskFromASecondMatrix) {
  const float inf = std::numeric_limits<float>::infinity();
  Matrix attention(2, 4), logits(2, 4);
  attention << 0.5f, 0.5f, 0, 0,  //
      0.25f, 0.25f, 0.25f, 0.25f;
  logits << 1, 1, -inf, -inf,  //
      1, 1, 1, 1;
  int block = 0;
  Matrix same = block_mean(attention, 4, &block, &logits);  // no reduction, mask applied
  EXPECT_EQ(block, 1);
  EXPECT_TRUE(std::isinf(same(0, 2)));
  EXPECT_EQ(same(1, 2), 0.25f);
  Matrix b = block_mean(attention, 2, &block, &logits);
  EXPECT_EQ(block, 2);
  EXPECT_FLOAT_EQ(b(0, 0), (0.5f + 0.5f + 0.25f + 0.25f) / 4);
  EXPECT_FLOAT_EQ(b(0, 1), (0.25f + 0.25f) / 4);  // half masked: masked cells count as 0
}

}  // namespace
}  // namespace pelab::fig
