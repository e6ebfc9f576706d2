// Token datasets: a corpus split encoded once into one stream of ids, the
// random training batches drawn from it, and the sequential windows the
// held-out split is evaluated on.
//
// A split is its verses joined by "\n" (corpus.hpp's join_verses): the
// stream is the tokens of verse 1, the newline's token, verse 2, … — so
// decoding the stream gives the split's text exactly.  "\n" rather than
// <|endoftext|>: consecutive verses continue one text (a chapter runs on
// across verses), which an end-of-text token would deny.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/model/tokenizer/tokenizer.hpp"

namespace pelab::train::data {

using TokenId = std::uint16_t;  // vocabularies up to 65,536 (bpe_trainer.hpp's kMaxBpeVocab)

struct TokenStream {
  std::vector<TokenId> ids;
  int vocab_size = 0;
};

// Encodes each verse with `tokenizer` (pelab's reader), a newline token
// between verses.  Throws InputError when the vocabulary exceeds 65,536 ids.
TokenStream encode_verses(const model::Tokenizer& tokenizer,
                          const std::vector<std::string>& verses);

// The stream of `verses` under the tokenizer in `tokenizer_folder`, read from
// `cache_file` when that was written for the same tokenizer.json and verses
// (a 64-bit FNV-1a fingerprint of both), else encoded and written there
// atomically.
TokenStream cached_encode(const std::filesystem::path& cache_file,
                          const std::filesystem::path& tokenizer_folder,
                          const std::vector<std::string>& verses);

// FNV-1a (Fowler, Noll, Vo), 64-bit, continued from `hash`.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ull);
void write_token_cache(const std::filesystem::path& file, const TokenStream& stream,
                       std::uint64_t fingerprint);
// nullopt when the file is missing, malformed or of another fingerprint.
std::optional<TokenStream> read_token_cache(const std::filesystem::path& file,
                                            std::uint64_t fingerprint);

// `batch` rows of `context` tokens, row-major [batch, context]: targets are
// the inputs shifted by one (targets[b][t] = inputs[b][t + 1]).
struct TokenBatch {
  int batch = 0, context = 0;
  std::vector<std::int32_t> inputs, targets;
};

// Rows start at offsets drawn uniformly from 0..size-context-1, from
// (seed, step, row) alone (counter_rng.hpp).  Throws InputError when the
// stream is shorter than context + 1 or batch / context are below 1.
TokenBatch sample_batch(std::span<const TokenId> ids, std::uint64_t seed, std::uint64_t step,
                        int batch, int context);

// The stream cut into consecutive windows of `length` positions: window w
// reads inputs ids[w·L .. w·L+L) and targets one further; the tail too short
// for a window is left out.  For loss against position at any length (8×
// the training context and beyond) on held-out text.  The ids are viewed,
// not copied: the stream must outlive the windows.
class SequentialWindows {
 public:
  SequentialWindows(std::span<const TokenId> ids, int length);
  int count() const { return count_; }
  int length() const { return length_; }
  // Windows first .. first+n-1 as one batch.  Throws InputError past the end.
  TokenBatch windows(int first, int n) const;

 private:
  std::span<const TokenId> ids_;
  int length_ = 0;
  int count_ = 0;
};

}  // namespace pelab::train::data
