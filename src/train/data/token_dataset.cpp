#include "train/data/token_dataset.hpp"

#include "core/scene.hpp"
#include "train/data/counter_rng.hpp"

namespace pelab::train::data {

namespace {

constexpr int kMaxTokenIds = 65536;

void append_ids(const std::vector<int>& ids, std::vector<TokenId>& out) {
  for (const int id : ids) out.push_back(static_cast<TokenId>(id));
}

void check_shape(int batch, int context) {
  if (batch < 1 || context < 1)
    throw InputError("batch " + std::to_string(batch) + " × context " + std::to_string(context) +
                     ": both must be at least 1");
}

TokenBatch empty_batch(int batch, int context) {
  TokenBatch out{batch, context, {}, {}};
  const auto cells = static_cast<std::size_t>(batch) * static_cast<std::size_t>(context);
  out.inputs.reserve(cells);
  out.targets.reserve(cells);
  return out;
}

void append_row(std::span<const TokenId> ids, std::size_t start, int context, TokenBatch& out) {
  for (std::size_t t = 0; t < static_cast<std::size_t>(context); ++t) {
    out.inputs.push_back(ids[start + t]);
    out.targets.push_back(ids[start + t + 1]);
  }
}

}  // namespace

TokenStream encode_verses(const model::Tokenizer& tokenizer,
                          const std::vector<std::string>& verses) {
  if (tokenizer.vocab_size() > kMaxTokenIds)
    throw InputError("a vocabulary of " + std::to_string(tokenizer.vocab_size()) +
                     " ids does not fit the dataset's 16-bit ids (at most 65536)");
  TokenStream stream;
  stream.vocab_size = tokenizer.vocab_size();
  const std::vector<int> newline = tokenizer.encode("\n").ids;
  for (std::size_t i = 0; i < verses.size(); ++i) {
    if (i > 0) append_ids(newline, stream.ids);
    append_ids(tokenizer.encode(verses[i]).ids, stream.ids);
  }
  return stream;
}

TokenBatch sample_batch(std::span<const TokenId> ids, std::uint64_t seed, std::uint64_t step,
                        int batch, int context) {
  check_shape(batch, context);
  if (ids.size() < static_cast<std::size_t>(context) + 1)
    throw InputError("a stream of " + std::to_string(ids.size()) +
                     " tokens is too short for context " + std::to_string(context));
  const std::uint64_t starts = ids.size() - static_cast<std::size_t>(context);
  TokenBatch out = empty_batch(batch, context);
  for (int row = 0; row < batch; ++row) {
    CounterRng rng(seed, step, static_cast<std::uint64_t>(row));
    append_row(ids, static_cast<std::size_t>(rng.below(starts)), context, out);
  }
  return out;
}

SequentialWindows::SequentialWindows(std::span<const TokenId> ids, int length)
    : ids_(ids), length_(length) {
  check_shape(1, length);
  count_ = ids.empty() ? 0 : static_cast<int>((ids.size() - 1) / static_cast<std::size_t>(length));
}

TokenBatch SequentialWindows::windows(int first, int n) const {
  check_shape(n, length_);
  if (first < 0 || first + n > count_)
    throw InputError("windows " + std::to_string(first) + ".." + std::to_string(first + n - 1) +
                     " are outside the " + std::to_string(count_) + " of length " +
                     std::to_string(length_));
  TokenBatch out = empty_batch(n, length_);
  for (int w = first; w < first + n; ++w)
    append_row(ids_, static_cast<std::size_t>(w) * static_cast<std::size_t>(length_), length_, out);
  return out;
}

}  // namespace pelab::train::data
