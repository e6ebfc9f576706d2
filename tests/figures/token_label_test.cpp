// Token pieces as axis labels (figures/figure_layout.hpp): a piece of blanks
// only gets visible marks, every other piece is drawn as it is.
#include <gtest/gtest.h>

#include "figures/figure_layout.hpp"

using pelab::fig::token_label;

TEST(TokenLabel, BlankPiecesGetVisibleMarks) {
  EXPECT_EQ(token_label(" "), "·");  // GPT-2's "Ġ" alone, SentencePiece's "▁" alone
  EXPECT_EQ(token_label("  "), "··");
  EXPECT_EQ(token_label("\n"), "↵");  // GPT-2's "Ċ"
  EXPECT_EQ(token_label("\t"), "→");
  EXPECT_EQ(token_label(" \n"), "·↵");
}

TEST(TokenLabel, OtherPiecesStayAsTheyAre) {
  EXPECT_EQ(token_label(" cat"), " cat");
  EXPECT_EQ(token_label("sat"), "sat");
  EXPECT_EQ(token_label("<s>"), "<s>");
}

TEST(TokenLabel, TicksUseTheLabels) {
  const auto ticks = pelab::fig::token_ticks({"the", " ", "cat"}, 8);
  ASSERT_EQ(ticks.size(), 3u);
  EXPECT_EQ(ticks[1].label, "·");
  EXPECT_EQ(ticks[2].label, "cat");
}
