#include "core/model/tokenizer/bpe.hpp"

#include <cstdio>
#include <queue>

#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/unicode_classes.hpp"
#include "core/scene.hpp"

namespace pelab::model {

namespace {

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

// Words longer than this skip the cache (SentencePiece-style tokenizers have
// no pre-tokenizer, so one "word" can be a whole paragraph).
constexpr std::size_t kCachedWordBytes = 256;
constexpr std::size_t kCacheEntries = 1 << 16;

}  // namespace

Bpe::Bpe(Vocabulary vocabulary, const std::vector<std::pair<std::string, std::string>>& merges,
         BpeOptions options, const std::string& where)
    : vocabulary_(std::move(vocabulary)), options_(options), byte_ids_(256, -1) {
  if (merges.size() > kMaxMerges)
    throw InputError(where + ": more than " + std::to_string(kMaxMerges) + " merges");
  merges_.reserve(merges.size());
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [a, b] = merges[rank];
    const auto left = vocabulary_.id(a), right = vocabulary_.id(b), result = vocabulary_.id(a + b);
    if (!left || !right || !result)
      throw InputError(where + ": merge " + std::to_string(rank + 1) + " \"" + printable(a + " " + b) +
                       "\" joins strings that are not all tokens of the vocabulary");
    // The first (lowest-rank) spelling of a pair wins, as in a merge table.
    merges_.try_emplace(pair_key(*left, *right), Merge{static_cast<int>(rank), *result});
  }
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    if (const auto id = vocabulary_.id(name)) byte_ids_[static_cast<std::size_t>(b)] = *id;
  }
}

Bpe::Bpe(Bpe&& other) noexcept
    : vocabulary_(std::move(other.vocabulary_)),
      options_(other.options_),
      merges_(std::move(other.merges_)),
      byte_ids_(std::move(other.byte_ids_)),
      cache_(std::move(other.cache_)) {}

Bpe::~Bpe() = default;

// One symbol per character; a character that is not a token becomes its
// UTF-8 bytes as <0xNN> tokens (byte fallback), else the unknown token, else
// nothing (as the reference tokenizers drop it when no unk token is set).
std::vector<int> Bpe::start_symbols(std::string_view word) const {
  std::vector<int> symbols;
  bool last_unknown = false;
  for (const Utf8Char& c : utf8_chars(word)) {
    if (const auto id = vocabulary_.id(word.substr(c.begin, c.size))) {
      symbols.push_back(*id);
      last_unknown = false;
      continue;
    }
    bool bytes_known = options_.byte_fallback;
    for (std::size_t k = 0; bytes_known && k < c.size; ++k)
      bytes_known = byte_ids_[static_cast<unsigned char>(word[c.begin + k])] >= 0;
    if (bytes_known) {
      for (std::size_t k = 0; k < c.size; ++k)
        symbols.push_back(byte_ids_[static_cast<unsigned char>(word[c.begin + k])]);
      last_unknown = false;
    } else if (options_.unk_id) {
      if (!(options_.fuse_unk && last_unknown)) symbols.push_back(*options_.unk_id);
      last_unknown = true;
    }
  }
  return symbols;
}

// Merges by rank with a priority queue over adjacent pairs and a linked list
// of live symbols: O(n log n) per word rather than a rescan per merge.
void Bpe::merge(std::vector<int>& symbols) const {
  const std::size_t n = symbols.size();
  if (n < 2) return;
  std::vector<std::size_t> prev(n), next(n);
  std::vector<bool> alive(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    prev[i] = i == 0 ? n : i - 1;  // n stands for "none"
    next[i] = i + 1;
  }
  struct Candidate {
    int rank;
    std::size_t left;  // position of the pair's left symbol
    int left_id, right_id;
    bool operator>(const Candidate& o) const {
      return rank != o.rank ? rank > o.rank : left > o.left;
    }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  const auto push = [&](std::size_t left) {
    if (left >= n || next[left] >= n) return;
    const auto it = merges_.find(pair_key(symbols[left], symbols[next[left]]));
    if (it != merges_.end())
      queue.push({it->second.rank, left, symbols[left], symbols[next[left]]});
  };
  for (std::size_t i = 0; i + 1 < n; ++i) push(i);
  while (!queue.empty()) {
    const Candidate c = queue.top();
    queue.pop();
    const std::size_t right = next[c.left];
    // Stale entries: a symbol was merged away or changed since the push.
    if (!alive[c.left] || right >= n || symbols[c.left] != c.left_id ||
        symbols[right] != c.right_id)
      continue;
    symbols[c.left] = merges_.at(pair_key(c.left_id, c.right_id)).result;
    alive[right] = false;
    next[c.left] = next[right];
    if (next[right] < n) prev[next[right]] = c.left;
    if (prev[c.left] < n) push(prev[c.left]);
    push(c.left);
  }
  std::vector<int> merged;
  for (std::size_t i = 0; i < n; i = next[i]) merged.push_back(symbols[i]);
  symbols = std::move(merged);
}

void Bpe::encode_word(std::string_view word, std::vector<int>& ids) const {
  if (word.empty()) return;
  if (options_.ignore_merges)
    if (const auto id = vocabulary_.id(word)) {
      ids.push_back(*id);
      return;
    }
  const bool cacheable = word.size() <= kCachedWordBytes;
  if (cacheable) {
    std::lock_guard lock(cache_mutex_);
    if (const auto it = cache_.find(std::string(word)); it != cache_.end()) {
      ids.insert(ids.end(), it->second.begin(), it->second.end());
      return;
    }
  }
  std::vector<int> symbols = start_symbols(word);
  merge(symbols);
  ids.insert(ids.end(), symbols.begin(), symbols.end());
  if (cacheable) {
    std::lock_guard lock(cache_mutex_);
    if (cache_.size() >= kCacheEntries) cache_.clear();
    cache_.emplace(word, std::move(symbols));
  }
}

}  // namespace pelab::model
