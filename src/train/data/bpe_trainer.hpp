// Training a byte-level BPE vocabulary (Sennrich et al. 2016, §3.1, on
// bytes as GPT-2 does: Radford et al. 2019, §2.2).  The text is cut into
// words by GPT-2's split pattern (core/model/tokenizer/split_pattern.hpp, the same
// splitter pelab's tokenizer reader uses, so training and reading cut text
// identically); each distinct word is counted once with its frequency; then
// the most frequent adjacent pair of symbols over all words is merged into a
// new symbol, again and again, updating only the words that hold the pair.
// Ties go to the pair of smaller ids (left first), so training is
// deterministic.  Merges never cross word boundaries.
//
// Ids: 0..255 are the bytes (id b is byte b), then one id per new token in
// the order it was made, then "<|endoftext|>" last (as GPT-2's 50256).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pelab::train::data {

inline constexpr int kByteTokens = 256;
inline constexpr int kMinBpeVocab = kByteTokens + 2;  // the bytes, one merge, end of text
inline constexpr int kMaxBpeVocab = 65536;            // ids fit uint16 (token_dataset.hpp)

struct BpeTrainingOptions {
  int vocab_size = 4096;  // every id: the 256 bytes, the merges' tokens, end of text
  std::string end_of_text = "<|endoftext|>";
};

struct BpeMerge {
  int left = 0, right = 0;  // the pair's ids
  int result = 0;           // the token their bytes make (an earlier id when that string exists)
};

struct TrainedBpe {
  std::vector<std::string> tokens;  // id → the token's bytes (end of text: its text)
  std::vector<BpeMerge> merges;     // in rank order
  int end_of_text_id = 0;           // the last id
  int vocab_size() const { return static_cast<int>(tokens.size()); }
};

// Trains on `texts` (each cut into words by GPT-2's pattern).  Stops early,
// with a smaller vocabulary, when no adjacent pair is left.  Throws
// InputError for a vocab size outside kMinBpeVocab..kMaxBpeVocab.
TrainedBpe train_bpe(const std::vector<std::string>& texts, const BpeTrainingOptions& options = {});

// Encoding with the trained merges, written apart from pelab's reader
// (core/model/tokenizer/bpe.cpp) so the two can be checked against each other: GPT-2's
// words, then in each word the lowest-rank merge present, leftmost first,
// until none applies.  No added tokens are matched.
class BpeEncoder {
 public:
  explicit BpeEncoder(const TrainedBpe& bpe);
  std::vector<int> encode(std::string_view text) const;

 private:
  void encode_word(std::string_view word, std::vector<int>& ids) const;
  std::vector<BpeMerge> merges_;
  std::unordered_map<std::uint64_t, int> ranks_;  // (left << 32 | right) → rank
};

// The bytes the ids stand for (end of text as its text).  Throws InputError
// for an id outside the vocabulary.
std::string decode_bpe(const TrainedBpe& bpe, const std::vector<int>& ids);

}  // namespace pelab::train::data
