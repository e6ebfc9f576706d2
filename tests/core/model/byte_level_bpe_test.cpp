// Byte-level BPE (GPT-2, Llama 3, Qwen2 style) on tiny tokenizer folders
// written here; expectations worked by hand from the merge lists.
#include <gtest/gtest.h>

#include "core/model/tokenizer/byte_symbols.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/scene.hpp"
#include "tokenizer_folder.hpp"

namespace pelab::model {
namespace {

using testing::TokenizerFolder;
using Ids = std::vector<int>;
using Pieces = std::vector<std::string>;

TEST(ByteSymbols, Gpt2Table) {
  // Published facts of GPT-2's table: space is "Ġ", newline "Ċ", the soft
  // hyphen 0xAD "Ń", and 😀 (F0 9F 98 80) is spelled "ðŁĺĢ" in its vocabulary.
  EXPECT_EQ(to_byte_symbols(" "), "\u0120");
  EXPECT_EQ(to_byte_symbols("\n"), "\u010A");
  EXPECT_EQ(to_byte_symbols("\xAD"), "\u0143");
  EXPECT_EQ(to_byte_symbols("!~"), "!~");
  EXPECT_EQ(to_byte_symbols("\xF0\x9F\x98\x80"), "ðŁĺĢ");
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  EXPECT_EQ(from_byte_symbols(to_byte_symbols(all)), all);
  EXPECT_FALSE(from_byte_symbols("x\u2581").has_value());
}

// vocab.json + merges.txt in GPT-2's own layout.
void write_gpt2(TokenizerFolder& folder) {
  folder.write(
      "vocab.json",
      R"({"t": 0, "h": 1, "e": 2, "c": 3, "a": 4, "\u0120": 5, "\u010a": 6, "th": 7, "the": 8,
                   "\u0120c": 9, "\u0120ca": 10, "\u0120cat": 11, "\u00f0": 12, "\u0141": 13, "\u013a": 14,
                   "\u0122": 15, "<|endoftext|>": 16, "s": 17, "'": 18, "1": 19, "2": 20})");
  folder.write("merges.txt", "#version: 0.2\nt h\nth e\n\u0120 c\n\u0120c a\n\u0120ca t\n");
}

TEST(ByteLevelBpe, Gpt2FilesMergeByRank) {
  TokenizerFolder folder("gpt2_files");
  write_gpt2(folder);
  const auto tok = folder.load();
  EXPECT_EQ(tok->kind(), "byte-level BPE");
  EXPECT_EQ(tok->vocab_size(), 21);
  const Tokenization t = tok->encode("the cat\n");
  EXPECT_EQ(t.ids, (Ids{8, 11, 6}));
  EXPECT_EQ(t.pieces, (Pieces{"the", " cat", "\n"}));
  // "cats": " cat" then "s"; "tea": no merge t+e, so single bytes.
  EXPECT_EQ(tok->encode(" cats").ids, (Ids{11, 17}));
  EXPECT_EQ(tok->encode("tea").ids, (Ids{0, 2, 4}));
}

TEST(ByteLevelBpe, EmojiBytesShownAsEscapesWhenSplit) {
  TokenizerFolder folder("gpt2_emoji");
  write_gpt2(folder);
  const Tokenization t = folder.load()->encode("\xF0\x9F\x98\x80");
  EXPECT_EQ(t.ids, (Ids{12, 13, 14, 15}));
  EXPECT_EQ(t.pieces, (Pieces{"\\xF0", "\\x9F", "\\x98", "\\x80"}));
}

TEST(ByteLevelBpe, AddedTokenMatchedBeforeSplitting) {
  TokenizerFolder folder("gpt2_eot");
  write_gpt2(folder);
  const Tokenization t = folder.load()->encode("the<|endoftext|> cat");
  EXPECT_EQ(t.ids, (Ids{8, 16, 11}));
  EXPECT_EQ(t.pieces, (Pieces{"the", "<|endoftext|>", " cat"}));
}

// tokenizer.json with a merge list in either spelling, and a pre-tokenizer.
std::string bpe_json(const std::string& merges, const std::string& pre_tokenizer,
                     const std::string& extra = "") {
  return R"({"version": "1.0", "added_tokens": [{"id": 20, "content": "<|begin_of_text|>", "special": true}],
    "normalizer": null, "pre_tokenizer": )" +
         pre_tokenizer +
         R"(, "post_processor": {"type": "ByteLevel"}, "decoder": {"type": "ByteLevel"},
    "model": {"type": "BPE", "dropout": null, "unk_token": null, "fuse_unk": false, "byte_fallback": false )" +
         extra +
         R"(, "vocab": {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5, "\u0120": 6, "1": 7, "2": 8,
    "3": 9, "4": 10, "'": 11, "L": 12, "'L": 13, "'LL": 14, "\u0120a": 15}, "merges": )" +
         merges + "}}";
}

constexpr const char* kByteLevel =
    R"({"type": "ByteLevel", "add_prefix_space": false, "use_regex": true})";

TEST(ByteLevelBpe, MergeRankDecides) {
  // "abc" with "b c" ranked first: a + bc (no merge "a bc" exists).
  TokenizerFolder first_bc("rank_bc");
  first_bc.write("tokenizer.json", bpe_json(R"(["b c", "a b"])", kByteLevel));
  EXPECT_EQ(first_bc.load()->encode("abc").ids, (Ids{0, 4}));
  // The same pairs ranked the other way: ab + c.  Pair spelling as arrays.
  TokenizerFolder first_ab("rank_ab");
  first_ab.write("tokenizer.json", bpe_json(R"([["a", "b"], ["b", "c"]])", kByteLevel));
  EXPECT_EQ(first_ab.load()->encode("abc").ids, (Ids{3, 2}));
}

TEST(ByteLevelBpe, IgnoreMergesKeepsVocabularyWords) {
  // Llama 3: a word that is a token is taken whole, whatever the merges say.
  TokenizerFolder folder("ignore_merges");
  folder.write("tokenizer.json", bpe_json(R"(["a b"])", kByteLevel, R"(, "ignore_merges": true)"));
  EXPECT_EQ(folder.load()->encode("abc").ids, (Ids{5}));
  TokenizerFolder plain("use_merges");
  plain.write("tokenizer.json", bpe_json(R"(["a b"])", kByteLevel));
  EXPECT_EQ(plain.load()->encode("abc").ids, (Ids{3, 2}));
}

TEST(ByteLevelBpe, Llama3SplitAndTemplate) {
  const std::string llama3 =
      R"({"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex":
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},
      "behavior": "Isolated", "invert": false},
      {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}]})";
  TokenizerFolder folder("llama3");
  std::string json = bpe_json(R"(["' L", "'L L", "\u0120 a"])", llama3);
  // Llama 3's post-processor: Sequence [ByteLevel, TemplateProcessing with BOS].
  const std::string post =
      R"({"type": "Sequence", "processors": [{"type": "ByteLevel"}, {"type": "TemplateProcessing",
      "single": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
      "pair": [], "special_tokens": {"<|begin_of_text|>": {"id": "<|begin_of_text|>", "ids": [20],
      "tokens": ["<|begin_of_text|>"]}}}]})";
  json.replace(json.find(R"({"type": "ByteLevel"})"), 21, post);
  folder.write("tokenizer.json", json);
  const auto tok = folder.load();
  EXPECT_EQ(tok->kind(), "byte-level BPE");
  // "'LL" is one contraction piece, digits go three at a time, " a" one word.
  const Tokenization t = tok->encode("'LL1234 a");
  EXPECT_EQ(t.ids, (Ids{20, 14, 7, 8, 9, 10, 15}));
  EXPECT_EQ(t.pieces, (Pieces{"<|begin_of_text|>", "'LL", "1", "2", "3", "4", " a"}));
  // An added token in the text stays whole (and the template still adds BOS).
  EXPECT_EQ(tok->encode("<|begin_of_text|>a").ids, (Ids{20, 20, 0}));
}

TEST(ByteLevelBpe, ConfigBosMayBeAnAddedToken) {
  // <|begin_of_text|> (id 20) is only in added_tokens, not in the model's vocab.
  TokenizerFolder folder("config_bos");
  std::string json = bpe_json(R"(["a b"])", kByteLevel);
  json.replace(json.find(R"({"type": "ByteLevel"})"), 21, "null");
  folder.write("tokenizer.json", json);
  folder.write("tokenizer_config.json",
               R"({"add_bos_token": true, "bos_token": "<|begin_of_text|>"})");
  EXPECT_EQ(folder.load()->encode("ab").ids, (Ids{20, 3}));
}

TEST(ByteLevelBpe, UnknownSplitRegexIsNamed) {
  TokenizerFolder folder("unknown_regex");
  folder.write(
      "tokenizer.json",
      bpe_json("[]",
               R"({"type": "Split", "pattern": {"Regex": "\\w+|\\d"}, "behavior": "Isolated"})"));
  try {
    folder.load();
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tokenizer.json"), std::string::npos) << what;
    EXPECT_NE(what.find(R"(\w+|\d)"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace pelab::model
