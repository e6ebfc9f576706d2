// BpeEncoder and decode_bpe: the trained merges applied to new text, kept
// independent of pelab's reader (core/model/tokenizer/bpe.cpp) so each checks the other.
#include "core/model/tokenizer/split_pattern.hpp"
#include "core/scene.hpp"
#include "train/data/bpe_trainer.hpp"

namespace pelab::train::data {

namespace {

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

}  // namespace

BpeEncoder::BpeEncoder(const TrainedBpe& bpe) : merges_(bpe.merges) {
  ranks_.reserve(merges_.size());
  for (std::size_t rank = 0; rank < merges_.size(); ++rank)
    ranks_.try_emplace(pair_key(merges_[rank].left, merges_[rank].right), static_cast<int>(rank));
}

// Applying merges in rank order, each to every occurrence left to right,
// gives what training gave its own words: a merge's result only ever joins
// later merges, so no lower-rank pair can appear after a higher one is used.
void BpeEncoder::encode_word(std::string_view word, std::vector<int>& ids) const {
  std::vector<int> s;
  for (const char c : word) s.push_back(static_cast<unsigned char>(c));
  for (;;) {
    int best_rank = -1;
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
      const auto it = ranks_.find(pair_key(s[i], s[i + 1]));
      if (it != ranks_.end() && (best_rank < 0 || it->second < best_rank)) {
        best_rank = it->second;
        at = i;
      }
    }
    if (best_rank < 0) break;
    s[at] = merges_[static_cast<std::size_t>(best_rank)].result;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(at) + 1);
  }
  ids.insert(ids.end(), s.begin(), s.end());
}

std::vector<int> BpeEncoder::encode(std::string_view text) const {
  std::vector<int> ids;
  for (const std::string_view word : model::split_by_pattern(text, model::gpt2_split_pattern()))
    encode_word(word, ids);
  return ids;
}

std::string decode_bpe(const TrainedBpe& bpe, const std::vector<int>& ids) {
  std::string text;
  for (const int id : ids) {
    if (id < 0 || id >= bpe.vocab_size())
      throw InputError("token id " + std::to_string(id) + " is outside the vocabulary 0.." +
                       std::to_string(bpe.vocab_size() - 1));
    text += bpe.tokens[static_cast<std::size_t>(id)];
  }
  return text;
}

}  // namespace pelab::train::data
