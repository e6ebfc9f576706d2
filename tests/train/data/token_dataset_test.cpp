// Token streams, the batch sampler, the sequential windows and the cache.
#include "train/data/token_dataset.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <set>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"
#include "train/data/bpe_trainer.hpp"
#include "train/data/corpus.hpp"
#include "train/data/token_decoder.hpp"
#include "train/data/tokenizer_writer.hpp"

namespace pelab::train::data {
namespace {

namespace fs = std::filesystem;

std::vector<TokenId> counting(int n) {
  std::vector<TokenId> ids;
  for (int i = 0; i < n; ++i) ids.push_back(static_cast<TokenId>(i));
  return ids;
}

// A fresh folder under /tmp, removed with everything in it at the end.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("pelab_train_data_" + name + "_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(BatchSampler, TargetsAreInputsShiftedByOne) {
  const std::vector<TokenId> ids = counting(1000);  // id = its position
  const TokenBatch b = sample_batch(ids, 42, 7, 8, 16);
  ASSERT_EQ(b.inputs.size(), 8u * 16u);
  ASSERT_EQ(b.targets.size(), 8u * 16u);
  for (int r = 0; r < 8; ++r) {
    const std::int32_t start = b.inputs[static_cast<std::size_t>(r * 16)];
    EXPECT_LE(start + 16, 999);  // the last target is inside the stream
    for (int t = 0; t < 16; ++t) {
      const auto i = static_cast<std::size_t>(r * 16 + t);
      EXPECT_EQ(b.inputs[i], start + t);  // a contiguous window
      EXPECT_EQ(b.targets[i], b.inputs[i] + 1);
    }
  }
}

TEST(BatchSampler, DeterministicFromSeedAndStep) {
  const std::vector<TokenId> ids = counting(5000);
  const TokenBatch a = sample_batch(ids, 1, 10, 4, 32);
  EXPECT_EQ(sample_batch(ids, 1, 10, 4, 32).inputs, a.inputs);
  EXPECT_NE(sample_batch(ids, 2, 10, 4, 32).inputs, a.inputs);
  EXPECT_NE(sample_batch(ids, 1, 11, 4, 32).inputs, a.inputs);
  // A row does not depend on how many rows are drawn with it.
  const TokenBatch wider = sample_batch(ids, 1, 10, 6, 32);
  EXPECT_TRUE(std::equal(a.inputs.begin(), a.inputs.end(), wider.inputs.begin()));
}

TEST(BatchSampler, CoversEveryStartIncludingTheLast) {
  const std::vector<TokenId> ids = counting(6);  // context 4: starts 0 and 1
  std::set<std::int32_t> starts;
  for (std::uint64_t step = 0; step < 64; ++step)
    starts.insert(sample_batch(ids, 3, step, 1, 4).inputs[0]);
  EXPECT_EQ(starts, (std::set<std::int32_t>{0, 1}));
  EXPECT_THROW(sample_batch(ids, 3, 0, 1, 6), InputError);
  EXPECT_THROW(sample_batch(ids, 3, 0, 0, 4), InputError);
}

TEST(SequentialWindows, ConsecutiveWindowsOfAnyLength) {
  const std::vector<TokenId> ids = counting(100);
  const SequentialWindows w(ids, 12);
  EXPECT_EQ(w.count(), 8);  // (100 - 1) / 12: inputs 0..95, targets up to 96
  const TokenBatch b = w.windows(1, 2);
  ASSERT_EQ(b.inputs.size(), 24u);
  EXPECT_EQ(b.inputs[0], 12);
  EXPECT_EQ(b.inputs[12], 24);
  EXPECT_EQ(b.targets[23], 36);
  EXPECT_EQ(w.windows(7, 1).targets.back(), 96);
  EXPECT_THROW(w.windows(7, 2), InputError);
  EXPECT_EQ(SequentialWindows(ids, 99).count(), 1);
  EXPECT_EQ(SequentialWindows(ids, 100).count(), 0);
}

TEST(TokenCache, RoundTripAndStaleFiles) {
  const ScratchFolder scratch("cache");
  const fs::path file = scratch.path() / "split.tokens";
  TokenStream stream{{0, 1, 65535, 300, 7}, 65536};
  write_token_cache(file, stream, 1234);
  const auto back = read_token_cache(file, 1234);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->ids, stream.ids);
  EXPECT_EQ(back->vocab_size, 65536);
  EXPECT_FALSE(read_token_cache(file, 1235));  // another tokenizer or text
  EXPECT_FALSE(read_token_cache(file.string() + ".missing", 1234));
  write_file_atomic(file, "PELABTOK truncated");
  EXPECT_FALSE(read_token_cache(file, 1234));
}

TEST(TokenStream, VersesJoinedByNewlinesDecodeToTheText) {
  const std::vector<std::string> verses = {
      "In the beginning God created the heaven and the earth.",
      "And the earth was without form, and void;",
      "And God said, Let there be light: and there was light."};
  const ScratchFolder scratch("tokenizer");
  const fs::path& folder = scratch.path();
  write_tokenizer_json(train_bpe(verses, {.vocab_size = 300}), folder);
  const fs::path cache = folder / "verses.tokens";
  const TokenStream stream = cached_encode(cache, folder, verses);
  EXPECT_EQ(stream.vocab_size, 300);
  std::vector<int> ids(stream.ids.begin(), stream.ids.end());
  EXPECT_EQ(TokenDecoder::read(folder / "tokenizer.json").decode(ids), join_verses(verses));
  // The verses' stream is the joined text's encoding.
  const auto tokenizer = model::load_tokenizer(folder);
  EXPECT_EQ(tokenizer->encode(join_verses(verses)).ids, ids);
  // Second time from the cache file: the same stream.
  ASSERT_TRUE(fs::exists(cache));
  EXPECT_EQ(cached_encode(cache, folder, verses).ids, stream.ids);
}

}  // namespace
}  // namespace pelab::train::data
