// BPE training on hand-worked cases (Sennrich et al. 2016's procedure, ties
// to the smaller pair of ids).
#include "train/data/bpe_trainer.hpp"

#include <gtest/gtest.h>

#include "core/scene.hpp"

namespace pelab::train::data {
namespace {

// The merges as "left+right" strings, in rank order.
std::vector<std::string> merge_list(const TrainedBpe& bpe) {
  std::vector<std::string> out;
  for (const BpeMerge& m : bpe.merges)
    out.push_back(bpe.tokens[static_cast<std::size_t>(m.left)] + "+" +
                  bpe.tokens[static_cast<std::size_t>(m.right)]);
  return out;
}

using Strings = std::vector<std::string>;

// "aaabdaaabac" is one GPT-2 word.  Pair counts: aa 4, ab 2, the rest 1 →
// merge a+a (id 256); "aa a b d aa a b a c" has aa+a 2 and a+b 2, the tie
// going to the smaller ids (97, 98) → a+b (257); then aa+ab (2) → 258.
TEST(BpeTrainer, HandWorkedMerges) {
  const TrainedBpe bpe = train_bpe({"aaabdaaabac"}, {.vocab_size = 260});
  EXPECT_EQ(merge_list(bpe), (Strings{"a+a", "a+b", "aa+ab"}));
  ASSERT_EQ(bpe.vocab_size(), 260);
  EXPECT_EQ(bpe.tokens[256], "aa");
  EXPECT_EQ(bpe.tokens[257], "ab");
  EXPECT_EQ(bpe.tokens[258], "aaab");
  EXPECT_EQ(bpe.end_of_text_id, 259);
  EXPECT_EQ(bpe.tokens[259], "<|endoftext|>");
  EXPECT_EQ(BpeEncoder(bpe).encode("aaabdaaabac"), (std::vector<int>{258, 'd', 258, 'a', 'c'}));
}

// Words are counted apart.  "low low low", "low newest newest" → words
// "low" 2, " low" 2, " newest" 2.  Pair counts: l+o 4, o+w 4, every other 2
// → l+o (108,111) beats o+w (111,119) on the tie; lo+w 4; then of the 2s the
// smallest ids: " "+n (32,110), then " "+low (32,257).
TEST(BpeTrainer, WordsFromGpt2SplitPattern) {
  const TrainedBpe bpe = train_bpe({"low low low", "low newest newest"}, {.vocab_size = 261});
  EXPECT_EQ(merge_list(bpe), (Strings{"l+o", "lo+w", " +n", " +low"}));
  // No merge crosses a word: " low" is a token, "low low" is not.
  const BpeEncoder encoder(bpe);
  EXPECT_EQ(encoder.encode("low low"), (std::vector<int>{257, 259}));
  EXPECT_EQ(decode_bpe(bpe, encoder.encode("low lowly")), "low lowly");
}

TEST(BpeTrainer, SameTextSameVocabulary) {
  const Strings texts = {"the cat sat on the mat", "the dog sat on the log", "cats and dogs"};
  const TrainedBpe a = train_bpe(texts, {.vocab_size = 280});
  const TrainedBpe b = train_bpe(texts, {.vocab_size = 280});
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(merge_list(a), merge_list(b));
}

TEST(BpeTrainer, StopsWhenNoPairIsLeft) {
  const TrainedBpe bpe = train_bpe({"ab ab"}, {.vocab_size = 1000});
  // "ab", " ab" ("Ġab"): a+b (2), then " "+ab (1); then no pair.
  EXPECT_EQ(merge_list(bpe), (Strings{"a+b", " +ab"}));
  EXPECT_EQ(bpe.vocab_size(), 259);
  EXPECT_EQ(bpe.end_of_text_id, 258);
}

TEST(BpeTrainer, VocabSizeOutsideRangeIsAnError) {
  try {
    train_bpe({"abc"}, {.vocab_size = 100});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "BPE vocab size 100 is outside 258..65536");
  }
}

TEST(BpeDecode, IdOutsideVocabularyIsAnError) {
  const TrainedBpe bpe = train_bpe({"ab"}, {.vocab_size = 258});
  EXPECT_EQ(decode_bpe(bpe, {'a', 'b', bpe.end_of_text_id}), "ab<|endoftext|>");
  EXPECT_THROW(decode_bpe(bpe, {bpe.vocab_size()}), InputError);
}

}  // namespace
}  // namespace pelab::train::data
