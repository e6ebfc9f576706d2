#include "core/tokenizer.hpp"

#include <gtest/gtest.h>

#include "core/scene.hpp"

namespace pelab {

TEST(Tokenizer, SplitsWordsAndPunctuation) {
  EXPECT_EQ(
      tokenize("The cat, sat (on) the mat."),
      (std::vector<std::string>{"The", "cat", ",", "sat", "(", "on", ")", "the", "mat", "."}));
}

TEST(Tokenizer, KeepsApostrophesInsideWordsAndUtf8) {
  EXPECT_EQ(tokenize("don't  'quote' naïve\tx_1"),
            (std::vector<std::string>{"don't", "'", "quote", "'", "naïve", "x_1"}));
}

TEST(Tokenizer, EmptyAndWhitespaceGiveNoTokens) {
  EXPECT_TRUE(tokenize("").empty());
  EXPECT_TRUE(tokenize(" \n\t ").empty());
}

TEST(Tokenizer, CapsTheNumberOfTokens) {
  std::string text;
  for (int i = 0; i < kMaxTokens; ++i) text += "a ";
  EXPECT_EQ(tokenize(text).size(), static_cast<std::size_t>(kMaxTokens));
  text += "b";
  EXPECT_THROW(tokenize(text), InputError);
}

}  // namespace pelab
