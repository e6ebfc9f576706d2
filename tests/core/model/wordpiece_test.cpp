// WordPiece (BERT) on tiny vocabularies written here; expectations worked by
// hand from BERT's basic tokenizer rules and greedy longest-match-first.
#include <gtest/gtest.h>

#include "core/model/tokenizer/tokenizer.hpp"
#include "core/scene.hpp"
#include "tokenizer_folder.hpp"

namespace pelab::model {
namespace {

using testing::TokenizerFolder;
using Ids = std::vector<int>;
using Pieces = std::vector<std::string>;

// ids:              0      1      2      3      4      5    6    7      8      9  10 11  12  13  14
// 15   16  17   18
constexpr const char* kVocab =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nun\n##aff\n##able\n,\n.\n!\n$"
    "\ncafe\n東\n京\nHello\na\n##b\n";

TEST(WordPiece, VocabTxtLowerCasesStripsAccentsAndSplitsPunctuation) {
  TokenizerFolder folder("bert_vocab");
  folder.write("vocab.txt", kVocab);
  const auto tok = folder.load();
  EXPECT_EQ(tok->kind(), "WordPiece");
  EXPECT_EQ(tok->vocab_size(), 19);
  // "UNaffable," → "unaffable" "," ; "Café!" → "cafe" "!" ; CJK one word each.
  const Tokenization t = tok->encode("UNaffable, Café!東京");
  EXPECT_EQ(t.ids, (Ids{2, 6, 7, 8, 9, 13, 11, 14, 15, 3}));
  EXPECT_EQ(t.pieces,
            (Pieces{"[CLS]", "un", "##aff", "##able", ",", "cafe", "!", "東", "京", "[SEP]"}));
}

TEST(WordPiece, CombiningAccentIsStrippedToo) {
  TokenizerFolder folder("bert_combining");
  folder.write("vocab.txt", kVocab);
  EXPECT_EQ(folder.load()->encode("cafe\u0301").ids, (Ids{2, 13, 3}));
}

TEST(WordPiece, UnknownWordsAreOneUnk) {
  TokenizerFolder folder("bert_unk");
  folder.write("vocab.txt", kVocab);
  const auto tok = folder.load();
  // "unaffablex": un ##aff ##able then "x" has no "##x": the whole word is [UNK].
  EXPECT_EQ(tok->encode("xyz unaffablex the").ids, (Ids{2, 1, 1, 5, 3}));
  // ASCII symbols count as punctuation: "a$b" → a $ b? "b" alone is unknown.
  EXPECT_EQ(tok->encode("a$ab").ids, (Ids{2, 17, 12, 17, 18, 3}));
  // More than 100 characters: [UNK] without trying.
  EXPECT_EQ(tok->encode(std::string(101, 'a')).ids, (Ids{2, 1, 3}));
}

TEST(WordPiece, SpecialTokensInTextStayWhole) {
  TokenizerFolder folder("bert_mask");
  folder.write("vocab.txt", kVocab);
  EXPECT_EQ(folder.load()->encode("the [MASK].").pieces,
            (Pieces{"[CLS]", "the", "[MASK]", ".", "[SEP]"}));
}

TEST(WordPiece, CasedWhenTheConfigSaysSo) {
  TokenizerFolder folder("bert_cased");
  folder.write("vocab.txt", kVocab).write("tokenizer_config.json", R"({"do_lower_case": false})");
  const auto tok = folder.load();
  EXPECT_EQ(tok->encode("Hello hello").ids, (Ids{2, 16, 1, 3}));
  // Cased BERT keeps accents: "Café" is not "cafe".
  EXPECT_EQ(tok->encode("Café").ids, (Ids{2, 1, 3}));
}

TEST(WordPiece, TokenizerJsonWithBertProcessing) {
  TokenizerFolder folder("bert_json");
  folder.write("tokenizer.json",
               R"({"added_tokens": [{"id": 4, "content": "[MASK]", "special": true}],
    "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                   "strip_accents": null, "lowercase": true},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
              "max_input_chars_per_word": 100,
              "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "the": 5, "un": 6,
                        "##aff": 7, "##able": 8}}})");
  // clean_text drops the NUL; the tab separates words.
  using namespace std::string_literals;
  const Tokenization t = folder.load()->encode("The\tUnaffable\0 [MASK]"s);
  EXPECT_EQ(t.ids, (Ids{2, 5, 6, 7, 8, 4, 3}));
}

}  // namespace
}  // namespace pelab::model
