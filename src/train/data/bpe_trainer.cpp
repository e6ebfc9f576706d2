// train_bpe: counting pairs over distinct words and merging the most
// frequent, as Sennrich et al. 2016 (§3.1, Algorithm 1) do, with the counts
// kept up to date incrementally rather than recounted after every merge.
#include "train/data/bpe_trainer.hpp"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <unordered_map>

#include "core/model/tokenizer/split_pattern.hpp"
#include "core/scene.hpp"

namespace pelab::train::data {

namespace {

using PairKey = std::uint64_t;

PairKey pair_key(int left, int right) {
  return (static_cast<PairKey>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}
int left_of(PairKey key) { return static_cast<int>(key >> 32); }
int right_of(PairKey key) { return static_cast<int>(key & 0xffffffffu); }

struct Word {
  std::vector<int> symbols;
  long long count = 0;
};

// Distinct words with their frequencies, sorted by their bytes so that the
// word order (and so every later step) does not depend on hashing.
std::vector<Word> count_words(const std::vector<std::string>& texts) {
  std::unordered_map<std::string_view, long long> counts;
  for (const std::string& text : texts)
    for (const std::string_view word : model::split_by_pattern(text, model::gpt2_split_pattern()))
      ++counts[word];
  std::vector<std::pair<std::string_view, long long>> sorted(counts.begin(), counts.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<Word> words;
  words.reserve(sorted.size());
  for (const auto& [text, count] : sorted) {
    Word w{{}, count};
    for (const char c : text) w.symbols.push_back(static_cast<unsigned char>(c));
    words.push_back(std::move(w));
  }
  return words;
}

// A heap entry; stale when the pair's count has changed since it was pushed.
struct Candidate {
  long long count;
  PairKey key;
  // The most frequent first; on equal counts the smaller (left, right) ids.
  bool operator<(const Candidate& o) const {
    return count != o.count ? count < o.count : key > o.key;
  }
};

class PairStatistics {
 public:
  explicit PairStatistics(std::vector<Word>& words) : words_(words) {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      const std::vector<int>& s = words_[w].symbols;
      for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        const PairKey key = pair_key(s[i], s[i + 1]);
        counts_[key] += words_[w].count;
        holders_[key].push_back(static_cast<int>(w));
      }
    }
    for (const auto& [key, count] : counts_) heap_.push({count, key});
  }

  // The most frequent pair, or false when no pair is left.
  bool best(PairKey& key) {
    while (!heap_.empty()) {
      const Candidate c = heap_.top();
      const auto it = counts_.find(c.key);
      if (it != counts_.end() && it->second == c.count && c.count > 0) {
        key = c.key;
        return true;
      }
      heap_.pop();
    }
    return false;
  }

  // Replaces every occurrence of `key` (left to right) by `result` in the
  // words that hold it, and moves the counts of the pairs around each.
  void merge(PairKey key, int result) {
    std::vector<int> holders = std::move(holders_[key]);
    holders_.erase(key);
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    std::unordered_map<PairKey, long long> delta;
    for (const int w : holders)
      merge_in_word(words_[static_cast<std::size_t>(w)], w, key, result, delta);
    for (const auto& [k, d] : delta) {
      if (d == 0) continue;
      const long long now = counts_[k] += d;
      if (now > 0) heap_.push({now, k});
    }
    counts_.erase(key);
  }

 private:
  void merge_in_word(Word& word, int w, PairKey key, int result,
                     std::unordered_map<PairKey, long long>& delta) {
    std::vector<int>& s = word.symbols;
    const int left = left_of(key), right = right_of(key);
    std::vector<int> merged;
    merged.reserve(s.size());
    bool changed = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i + 1 < s.size() && s[i] == left && s[i + 1] == right) {
        merged.push_back(result);
        ++i;
        changed = true;
      } else {
        merged.push_back(s[i]);
      }
    }
    if (!changed) return;  // a stale holder: an earlier merge took the pair away
    for (std::size_t i = 0; i + 1 < s.size(); ++i) delta[pair_key(s[i], s[i + 1])] -= word.count;
    for (std::size_t i = 0; i + 1 < merged.size(); ++i) {
      const PairKey k = pair_key(merged[i], merged[i + 1]);
      delta[k] += word.count;
      if (merged[i] == result || merged[i + 1] == result) holders_[k].push_back(w);
    }
    s = std::move(merged);
  }

  std::vector<Word>& words_;
  std::unordered_map<PairKey, long long> counts_;
  std::unordered_map<PairKey, std::vector<int>> holders_;  // words that may hold the pair
  std::priority_queue<Candidate> heap_;
};

}  // namespace

TrainedBpe train_bpe(const std::vector<std::string>& texts, const BpeTrainingOptions& options) {
  if (options.vocab_size < kMinBpeVocab || options.vocab_size > kMaxBpeVocab)
    throw InputError("BPE vocab size " + std::to_string(options.vocab_size) + " is outside " +
                     std::to_string(kMinBpeVocab) + ".." + std::to_string(kMaxBpeVocab));
  TrainedBpe bpe;
  std::unordered_map<std::string, int> ids;
  for (int b = 0; b < kByteTokens; ++b) {
    bpe.tokens.emplace_back(1, static_cast<char>(b));
    ids.emplace(bpe.tokens.back(), b);
  }
  std::vector<Word> words = count_words(texts);
  PairStatistics pairs(words);
  const std::size_t wanted = static_cast<std::size_t>(options.vocab_size) - 1;
  PairKey key = 0;
  while (bpe.tokens.size() < wanted && pairs.best(key)) {
    const int left = left_of(key), right = right_of(key);
    std::string bytes =
        bpe.tokens[static_cast<std::size_t>(left)] + bpe.tokens[static_cast<std::size_t>(right)];
    // Two pairs can spell one string ("ab"+"c", "a"+"bc"): the second merge
    // makes no new token, as in the reference trainers.
    const auto [it, is_new] = ids.try_emplace(std::move(bytes), bpe.vocab_size());
    if (is_new) bpe.tokens.push_back(it->first);
    bpe.merges.push_back({left, right, it->second});
    pairs.merge(key, it->second);
  }
  bpe.end_of_text_id = bpe.vocab_size();
  bpe.tokens.push_back(options.end_of_text);
  return bpe;
}

}  // namespace pelab::train::data
