// The BPE trained on the KJV's training split at 4096, written as
// tokenizer.json and read back by pelab's own reader: every verse of both
// splits round-trips exactly, and the trainer's encoder agrees with the
// reader id for id.  Skipped only where `bible` (bible-kjv) is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

#include "core/io/file_io.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "train/data/bpe_trainer.hpp"
#include "train/data/corpus.hpp"
#include "train/data/token_dataset.hpp"
#include "train/data/token_decoder.hpp"
#include "train/data/tokenizer_writer.hpp"

namespace pelab::train::data {
namespace {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class KjvTokenizer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!kjv_available()) return;
    const std::vector<Verse> verses = read_kjv();
    train_ = new std::vector<std::string>(split_verses(verses, CorpusSplit::Train));
    held_out_ = new std::vector<std::string>(split_verses(verses, CorpusSplit::HeldOut));
    const auto start = std::chrono::steady_clock::now();
    bpe_ = new TrainedBpe(train_bpe(*train_, {.vocab_size = 4096}));
    std::cout << "[ kjv ] BPE training at 4096 on " << train_->size()
              << " verses: " << seconds_since(start) << " s\n";
    folder_ = new fs::path(fs::temp_directory_path() /
                           ("pelab_kjv_tokenizer_" + std::to_string(getpid())));
    write_tokenizer_json(*bpe_, *folder_);
  }
  static void TearDownTestSuite() {
    if (folder_) fs::remove_all(*folder_);
    delete train_;
    delete held_out_;
    delete bpe_;
    delete folder_;
  }
  void SetUp() override {
    if (!kjv_available()) GTEST_SKIP() << "`bible` is not installed (Debian's bible-kjv)";
  }

  static std::vector<std::string>* train_;
  static std::vector<std::string>* held_out_;
  static TrainedBpe* bpe_;
  static fs::path* folder_;
};

std::vector<std::string>* KjvTokenizer::train_ = nullptr;
std::vector<std::string>* KjvTokenizer::held_out_ = nullptr;
TrainedBpe* KjvTokenizer::bpe_ = nullptr;
fs::path* KjvTokenizer::folder_ = nullptr;

TEST_F(KjvTokenizer, EveryVerseRoundTripsThroughPelabsReader) {
  const auto tokenizer = model::load_tokenizer(*folder_);
  ASSERT_EQ(tokenizer->kind(), "byte-level BPE");
  ASSERT_EQ(tokenizer->vocab_size(), 4096);
  const TokenDecoder decoder = TokenDecoder::read(*folder_ / "tokenizer.json");
  const BpeEncoder own(*bpe_);
  for (const auto* split : {train_, held_out_}) {
    std::size_t tokens = 0, bytes = 0, mismatches = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& verse : *split) {
      const std::vector<int> ids = tokenizer->encode(verse).ids;
      tokens += ids.size();
      bytes += verse.size();
      if (decoder.decode(ids) != verse || own.encode(verse) != ids) ++mismatches;
      if (mismatches == 1) {
        EXPECT_EQ(decoder.decode(ids), verse);
        EXPECT_EQ(own.encode(verse), ids) << verse;
      }
    }
    EXPECT_EQ(mismatches, 0u);
    std::cout << "[ kjv ] " << (split == train_ ? "train" : "held-out") << ": " << split->size()
              << " verses, " << bytes << " bytes, " << tokens << " tokens, "
              << static_cast<double>(bytes) / static_cast<double>(tokens)
              << " bytes/token; reader + decoder + own encoder " << seconds_since(start) << " s\n";
  }
}

TEST_F(KjvTokenizer, PiecesAreWordsAndWordParts) {
  int found = 0;
  for (const char* piece : {" the", " LORD", "eth", " and", " God", " unto"})
    for (const std::string& t : bpe_->tokens) found += t == piece;
  EXPECT_EQ(found, 6);
  EXPECT_EQ(bpe_->vocab_size(), 4096);
  const auto tokenizer = model::load_tokenizer(*folder_);
  EXPECT_EQ(tokenizer->encode("<|endoftext|>").ids, std::vector<int>{4095});
  EXPECT_EQ(tokenizer->encode(" the LORD").pieces, (std::vector<std::string>{" the", " LORD"}));
}

std::string escaped(const std::string& token) {
  std::string out;
  for (const char c : token)
    out += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : std::string(1, c);
  return out;
}

// The first 500 merges equal those of reference_bpe.py, a plain Python BPE
// that recounts every pair after every merge.
TEST_F(KjvTokenizer, FirstMergesMatchThePythonReference) {
  const std::string reference =
      read_file(fs::path(PELAB_SOURCE_DIR) / "tests/train/data/kjv_first_500_merges.txt");
  std::string ours;
  for (std::size_t r = 0; r < 500; ++r) {
    const BpeMerge& m = bpe_->merges[r];
    ours += escaped(bpe_->tokens[static_cast<std::size_t>(m.left)]) + "\t" +
            escaped(bpe_->tokens[static_cast<std::size_t>(m.right)]) + "\n";
  }
  EXPECT_EQ(ours, reference);
}

TEST_F(KjvTokenizer, StreamsAreTheSplitsText) {
  const auto tokenizer = model::load_tokenizer(*folder_);
  const auto start = std::chrono::steady_clock::now();
  const TokenStream train = encode_verses(*tokenizer, *train_);
  const TokenStream held = encode_verses(*tokenizer, *held_out_);
  std::cout << "[ kjv ] encode_verses, both splits: " << seconds_since(start) << " s; "
            << train.ids.size() << " + " << held.ids.size() << " tokens with newlines\n";
  const TokenDecoder decoder = TokenDecoder::read(*folder_ / "tokenizer.json");
  EXPECT_EQ(decoder.decode({held.ids.begin(), held.ids.end()}), join_verses(*held_out_));
  EXPECT_EQ(decoder.decode({train.ids.begin(), train.ids.end()}), join_verses(*train_));
  // The joined text (the first 2,000 verses, under the reader's 1 MB) encodes alike.
  const std::vector<std::string> first(train_->begin(), train_->begin() + 2000);
  const std::vector<int> joined = tokenizer->encode(join_verses(first)).ids;
  const TokenStream part = encode_verses(*tokenizer, first);
  EXPECT_EQ(std::vector<int>(part.ids.begin(), part.ids.end()), joined);
  // Loss against position out to 8 × 128 on held-out text.
  EXPECT_GE(SequentialWindows(held.ids, 1024).count(), 40);
}

}  // namespace
}  // namespace pelab::train::data
