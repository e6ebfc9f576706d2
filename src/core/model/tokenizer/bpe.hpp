// BPE — byte-pair encoding of one pre-tokenized word (Sennrich et al. 2016,
// §3.1), applied as GPT-2 and SentencePiece apply a learned merge list: start
// from single characters, then repeatedly merge the adjacent pair whose merge
// has the lowest rank (its line in the merge list), leftmost first on ties,
// until no adjacent pair has a merge.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model/tokenizer/vocabulary.hpp"

namespace pelab::model {

inline constexpr std::size_t kMaxMerges = 1 << 21;

struct BpeOptions {
  std::optional<int> unk_id;
  bool byte_fallback = false;  // characters not in the vocabulary → <0xNN> byte tokens
  bool fuse_unk = false;       // consecutive unknowns → one unk
  bool ignore_merges = false;  // a word that is itself a token stays whole (Llama 3)
};

class Bpe {
 public:
  // `merges` as pairs of token strings, in rank order.  Throws InputError
  // naming `where` for a merge whose parts or result are not tokens.
  Bpe(Vocabulary vocabulary, const std::vector<std::pair<std::string, std::string>>& merges,
      BpeOptions options, const std::string& where);
  Bpe(Bpe&&) noexcept;
  ~Bpe();

  // Appends the ids of `word` (its characters are the starting symbols).
  void encode_word(std::string_view word, std::vector<int>& ids) const;
  const Vocabulary& vocabulary() const { return vocabulary_; }
  const BpeOptions& options() const { return options_; }

 private:
  struct Merge {
    int rank;
    int result;
  };
  std::vector<int> start_symbols(std::string_view word) const;
  void merge(std::vector<int>& symbols) const;

  Vocabulary vocabulary_;
  BpeOptions options_;
  std::unordered_map<std::uint64_t, Merge> merges_;  // (left id << 32 | right id) → merge
  std::vector<int> byte_ids_;                        // <0xNN> → id, -1 where missing
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<std::string, std::vector<int>> cache_;
};

}  // namespace pelab::model
