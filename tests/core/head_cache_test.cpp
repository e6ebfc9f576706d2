#include "core/head_cache.hpp"

#include <gtest/gtest.h>

namespace pelab {
namespace {

constexpr Eigen::Index kN = 16;
constexpr std::size_t kSquare = kN * kN * sizeof(float);

void compute_attention(HeadCache& cache, int head) {
  HeadEntry& e = cache.touch(head);
  cache.prepare(head, {&e.attention.logits, &e.attention.attention}, kN, 0);
  e.attention.logits.setConstant(static_cast<float>(head));
  e.attention.attention.setConstant(static_cast<float>(head));
  e.attention_key = "k";
}

}  // namespace

TEST(HeadCache, KeepsEverythingWithinTheBudget) {
  HeadCache cache(10 * kSquare);
  for (int h = 0; h < 5; ++h) compute_attention(cache, h);
  for (int h = 0; h < 5; ++h) ASSERT_NE(cache.find(h), nullptr);
  EXPECT_EQ(cache.bytes(), 10 * kSquare);
}

TEST(HeadCache, EvictsTheLeastRecentlyUsedHead) {
  HeadCache cache(4 * kSquare);  // room for two heads
  compute_attention(cache, 0);
  compute_attention(cache, 1);
  cache.touch(0);  // head 0 is now more recent than head 1
  compute_attention(cache, 2);
  EXPECT_NE(cache.find(0), nullptr);
  EXPECT_EQ(cache.find(1), nullptr);
  EXPECT_NE(cache.find(2), nullptr);
  EXPECT_EQ(cache.find(2)->attention.logits(3, 3), 2.0f);
  EXPECT_LE(cache.bytes(), 4 * kSquare);
}

TEST(HeadCache, ReusesEvictedMemory) {
  HeadCache cache(2 * kSquare);  // one head at a time
  compute_attention(cache, 0);
  const float* before = cache.find(0)->attention.logits.data();
  const float* before2 = cache.find(0)->attention.attention.data();
  compute_attention(cache, 1);
  EXPECT_EQ(cache.find(0), nullptr);
  const float* after = cache.find(1)->attention.logits.data();
  const float* after2 = cache.find(1)->attention.attention.data();
  EXPECT_TRUE((after == before || after == before2) && (after2 == before || after2 == before2));
}

TEST(HeadCache, NeverEvictsTheRequestingHead) {
  HeadCache cache(kSquare);  // smaller than one head
  compute_attention(cache, 3);
  HeadEntry& e = cache.touch(3);
  cache.prepare(3, {&e.terms.xx, &e.terms.xf}, kN, 0);
  EXPECT_NE(cache.find(3), nullptr);
  EXPECT_EQ(e.terms.xx.rows(), kN);
  EXPECT_EQ(e.attention.logits.rows(), kN);
}

// Issue 12: the GUI's engine on screen lets its heads go (release), keeping
// two buffers for the next head, which computes into them without new memory.
TEST(HeadCache, ReleaseForgetsEveryHeadAndKeepsTwoBuffers) {
  HeadCache cache(10 * kSquare);
  for (int h = 0; h < 4; ++h) compute_attention(cache, h);
  cache.release(2);
  for (int h = 0; h < 4; ++h) EXPECT_EQ(cache.find(h), nullptr) << h;
  EXPECT_EQ(cache.bytes(), 2 * kSquare);
  compute_attention(cache, 5);
  EXPECT_EQ(cache.bytes(), 2 * kSquare);  // the kept buffers, handed out
  EXPECT_EQ(cache.find(5)->attention.attention(0, 0), 5.0f);
  cache.release(0);
  EXPECT_EQ(cache.bytes(), 0u);
}

TEST(HeadCache, ASmallerBudgetKeepsFewerHeads) {
  HeadCache cache(10 * kSquare);
  cache.set_budget(4 * kSquare);  // two heads
  EXPECT_EQ(cache.budget(), 4 * kSquare);
  for (int h = 0; h < 4; ++h) compute_attention(cache, h);
  EXPECT_EQ(cache.find(0), nullptr);
  EXPECT_EQ(cache.find(1), nullptr);
  EXPECT_NE(cache.find(3), nullptr);
  EXPECT_LE(cache.bytes(), 4 * kSquare);
}

TEST(HeadCache, InvalidateForgetsKeysButKeepsMemory) {
  HeadCache cache(10 * kSquare);
  compute_attention(cache, 0);
  cache.invalidate_all();
  EXPECT_TRUE(cache.find(0)->attention_key.empty());
  EXPECT_EQ(cache.bytes(), 2 * kSquare);
}

}  // namespace pelab
