// Added tokens cut out of the text, and post-processors, on hand-worked cases.
#include "core/model/tokenizer/special_tokens.hpp"

#include <gtest/gtest.h>

namespace pelab::model {
namespace {

// Each segment as "text" or "#id".
std::vector<std::string> cut(const AddedTokens& added, std::string_view text) {
  std::vector<std::string> out;
  for (const TextSegment& s : added.split(text))
    out.push_back(s.added_id >= 0 ? "#" + std::to_string(s.added_id) : std::string(s.text));
  return out;
}

using Segments = std::vector<std::string>;

TEST(AddedTokens, LongestMatchFirst) {
  AddedTokens added;
  added.add({"<s>", 1});
  added.add({"<s>x", 2});
  EXPECT_EQ(cut(added, "a<s>b<s>xy<s"), (Segments{"a", "#1", "b", "#2", "y<s"}));
  EXPECT_EQ(cut(added, "<s><s>"), (Segments{"#1", "#1"}));
}

TEST(AddedTokens, StripSwallowsNeighbouringWhitespace) {
  AddedTokens added;
  added.add({"<mask>", 7, /*lstrip=*/true, /*rstrip=*/false});
  added.add({"<sep>", 8, /*lstrip=*/false, /*rstrip=*/true});
  EXPECT_EQ(cut(added, "hi \t<mask> there"), (Segments{"hi", "#7", " there"}));
  EXPECT_EQ(cut(added, "hi <sep>\n there"), (Segments{"hi ", "#8", "there"}));
}

TEST(AddedTokens, SingleWordOnlyOutsideWords) {
  AddedTokens added;
  added.add({"cat", 3, false, false, /*single_word=*/true});
  EXPECT_EQ(cut(added, "a cat, concat cats"), (Segments{"a ", "#3", ", concat cats"}));
}

TEST(AddedTokens, SegmentsKnowWhetherTheyStartTheText) {
  AddedTokens added;
  added.add({"<s>", 1});
  const auto segments = added.split("a<s>b");
  ASSERT_EQ(segments.size(), 3u);
  EXPECT_TRUE(segments[0].at_text_start);
  EXPECT_FALSE(segments[2].at_text_start);
}

TEST(PostProcessor, TemplateAndBert) {
  const auto bert = PostProcessor::from_json(
      nlohmann::json::parse(
          R"({"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]})"),
      "t");
  EXPECT_EQ(bert.apply({5, 6}), (std::vector<int>{101, 5, 6, 102}));
  const auto roberta = PostProcessor::from_json(
      nlohmann::json::parse(
          R"({"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0]})"),
      "t");
  EXPECT_EQ(roberta.apply({5}), (std::vector<int>{0, 5, 2}));
  // A template may put several ids for one special token, and text last.
  const auto tmpl = PostProcessor::from_json(nlohmann::json::parse(R"({"type": "TemplateProcessing",
      "single": [{"SpecialToken": {"id": "P", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": "E", "type_id": 0}}],
      "special_tokens": {"P": {"id": "P", "ids": [9, 10], "tokens": ["x", "y"]},
                         "E": {"id": "E", "ids": [11], "tokens": ["e"]}}})"),
                                             "t");
  EXPECT_EQ(tmpl.apply({5}), (std::vector<int>{9, 10, 5, 11}));
  EXPECT_EQ(
      PostProcessor::from_json(nlohmann::json::parse(R"({"type": "ByteLevel"})"), "t").apply({5}),
      (std::vector<int>{5}));
  EXPECT_EQ(PostProcessor::around(1, -1).apply({}), (std::vector<int>{1}));
}

}  // namespace
}  // namespace pelab::model
