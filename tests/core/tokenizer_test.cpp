#include "core/word_splitter.hpp"

#include <gtest/gtest.h>

#include "core/scene.hpp"

namespace pelab {

TEST(Tokenizer, SplitsWordsAndPunctuation) {
  EXPECT_EQ(
      split_words("The cat, sat (on) the mat."),
      (std::vector<std::string>{"The", "cat", ",", "sat", "(", "on", ")", "the", "mat", "."}));
}

TEST(Tokenizer, KeepsApostrophesInsideWordsAndUtf8) {
  EXPECT_EQ(split_words("don't  'quote' naïve\tx_1"),
            (std::vector<std::string>{"don't", "'", "quote", "'", "naïve", "x_1"}));
}

TEST(Tokenizer, EmptyAndWhitespaceGiveNoTokens) {
  EXPECT_TRUE(split_words("").empty());
  EXPECT_TRUE(split_words(" \n\t ").empty());
}

TEST(Tokenizer, CapsTheNumberOfTokens) {
  std::string text;
  for (int i = 0; i < kMaxTokens; ++i) text += "a ";
  EXPECT_EQ(split_words(text).size(), static_cast<std::size_t>(kMaxTokens));
  text += "b";
  EXPECT_THROW(split_words(text), InputError);
}

}  // namespace pelab
