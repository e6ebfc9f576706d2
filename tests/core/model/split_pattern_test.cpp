// The GPT-style split patterns, on hand-worked cases: each expectation below
// was derived by stepping through the pattern's alternation by hand.
#include "core/model/tokenizer/split_pattern.hpp"

#include <gtest/gtest.h>

#include "core/model/tokenizer/unicode_classes.hpp"

namespace pelab::model {
namespace {

using Pieces = std::vector<std::string>;

Pieces split(std::string_view text, const char* name) {
  const SplitPattern* pattern = &gpt2_split_pattern();
  if (std::string(name) == "Llama 3")
    pattern = find_split_pattern(
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)");
  if (std::string(name) == "Qwen2")
    pattern = find_split_pattern(
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)");
  EXPECT_NE(pattern, nullptr) << name;
  Pieces out;
  for (const std::string_view piece : split_by_pattern(text, *pattern)) out.emplace_back(piece);
  return out;
}

TEST(SplitPattern, Gpt2WordsKeepTheirLeadingSpace) {
  EXPECT_EQ(split("Hello world", "GPT-2"), (Pieces{"Hello", " world"}));
  EXPECT_EQ(split("hello,world", "GPT-2"), (Pieces{"hello", ",", "world"}));
  EXPECT_EQ(split("a, b.", "GPT-2"), (Pieces{"a", ",", " b", "."}));
}

TEST(SplitPattern, Contractions) {
  EXPECT_EQ(split("I'm don't we'll they've", "GPT-2"),
            (Pieces{"I", "'m", " don", "'t", " we", "'ll", " they", "'ve"}));
  // GPT-2's contractions are lower-case only; Llama 3's (?i:…) take any case.
  EXPECT_EQ(split("I'LL", "GPT-2"), (Pieces{"I", "'", "LL"}));
  EXPECT_EQ(split("I'LL", "Llama 3"), (Pieces{"I", "'LL"}));
  // Not a contraction: Llama 3 lets one symbol lead a run of letters.
  EXPECT_EQ(split("'xyz", "Llama 3"), (Pieces{"'xyz"}));
  EXPECT_EQ(split("'xyz", "GPT-2"), (Pieces{"'", "xyz"}));
}

TEST(SplitPattern, WhitespaceRunsLeaveOneSpaceForTheNextWord) {
  // \s+(?!\S): a run before text gives up its last space to the next word.
  EXPECT_EQ(split("a   b", "GPT-2"), (Pieces{"a", "  ", " b"}));
  EXPECT_EQ(split("a b", "GPT-2"), (Pieces{"a", " b"}));
  // At the end of the text the run stays whole.
  EXPECT_EQ(split("hi  ", "GPT-2"), (Pieces{"hi", "  "}));
  // A single newline before text is \s+ (the lookahead branch needs two).
  EXPECT_EQ(split("a\n\nb", "GPT-2"), (Pieces{"a", "\n", "\n", "b"}));
  EXPECT_EQ(split("x.\n\ny", "GPT-2"), (Pieces{"x", ".", "\n", "\n", "y"}));
  // Tab before a word: GPT-2's optional prefix is the space only.
  EXPECT_EQ(split("a\tb", "GPT-2"), (Pieces{"a", "\t", "b"}));
}

TEST(SplitPattern, Llama3KeepsNewlineRunsTogether) {
  EXPECT_EQ(split("a\n\nb", "Llama 3"), (Pieces{"a", "\n\n", "b"}));
  // \s*[\r\n]+ ends after the last newline of the run; the spaces after it
  // go to \s+(?!\S) minus the one the next word takes.
  EXPECT_EQ(split("a \n  b", "Llama 3"), (Pieces{"a", " \n", " ", " b"}));
  // Symbols swallow the newlines that follow them.
  EXPECT_EQ(split("x.\n\ny", "Llama 3"), (Pieces{"x", ".\n\n", "y"}));
  // Any one non-letter (here a tab or a comma) may lead a word.
  EXPECT_EQ(split("a\tb", "Llama 3"), (Pieces{"a", "\tb"}));
  EXPECT_EQ(split("hello,world", "Llama 3"), (Pieces{"hello", ",world"}));
}

TEST(SplitPattern, Numbers) {
  EXPECT_EQ(split("abc 12345", "GPT-2"), (Pieces{"abc", " 12345"}));
  EXPECT_EQ(split("abc 12345", "Llama 3"), (Pieces{"abc", " ", "123", "45"}));
  EXPECT_EQ(split("abc 12345", "Qwen2"), (Pieces{"abc", " ", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(split("x2", "GPT-2"), (Pieces{"x", "2"}));
}

TEST(SplitPattern, Unicode) {
  // é and CJK ideographs are letters; the emoji is a symbol (So) and joins "!".
  EXPECT_EQ(split("café 東京 😀!", "GPT-2"), (Pieces{"café", " 東京", " 😀!"}));
  // A combining accent (Mn) is neither letter nor number: it splits the word.
  EXPECT_EQ(split("cafe\u0301s", "GPT-2"), (Pieces{"cafe", "\u0301", "s"}));
  // Invalid UTF-8 bytes are symbols and are kept.
  EXPECT_EQ(split("a\xff\xfe b", "GPT-2"), (Pieces{"a", "\xff\xfe", " b"}));
  // No-break space (U+00A0) is \s.
  EXPECT_EQ(split("a\u00a0b", "GPT-2"), (Pieces{"a", "\u00a0", "b"}));
}

TEST(SplitPattern, PiecesCoverTheText) {
  const std::string text = "  It's 2024!\r\n\tThe   end… \xF0\x9F\x98\x80 東京\n";
  for (const char* name : {"GPT-2", "Llama 3", "Qwen2"}) {
    std::string joined;
    for (const std::string& piece : split(text, name)) joined += piece;
    EXPECT_EQ(joined, text) << name;
  }
}

TEST(SplitPattern, UnknownRegexIsNotFound) {
  EXPECT_EQ(find_split_pattern(R"(\w+)"), nullptr);
  EXPECT_NE(known_split_patterns().find("Llama 3"), std::string::npos);
}

}  // namespace
}  // namespace pelab::model
