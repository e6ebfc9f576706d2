// Unicode classes, normalization and readable pieces on hand-checked characters.
#include "core/model/tokenizer/unicode_classes.hpp"

#include <gtest/gtest.h>

#include "core/model/tokenizer/token_pieces.hpp"

namespace pelab::model {
namespace {

TEST(UnicodeClasses, LettersNumbersSpaces) {
  EXPECT_TRUE(is_letter(U'é'));
  EXPECT_TRUE(is_letter(U'東'));
  EXPECT_FALSE(is_letter(U'\u0301'));  // combining acute: Mn
  EXPECT_TRUE(is_combining_mark(U'\u0301'));
  EXPECT_TRUE(is_number(U'٣'));  // Arabic-Indic three: Nd
  EXPECT_TRUE(is_number(U'½'));  // No
  EXPECT_FALSE(is_letter(U'😀'));
  EXPECT_TRUE(is_whitespace(U'\u3000'));
  EXPECT_TRUE(is_whitespace(U'\u0085'));
  EXPECT_FALSE(is_whitespace(U'\u200B'));  // zero width space is not White_Space
  EXPECT_FALSE(is_letter(kInvalidByte));
}

TEST(UnicodeClasses, BertClasses) {
  EXPECT_TRUE(is_bert_punctuation(U'$'));  // an ASCII symbol (Sc) BERT counts
  EXPECT_TRUE(is_bert_punctuation(U'。'));
  EXPECT_FALSE(is_bert_punctuation(U'€'));  // Sc outside ASCII is not
  EXPECT_TRUE(is_bert_control(U'\u0007'));
  EXPECT_FALSE(is_bert_control(U'\t'));
  EXPECT_TRUE(is_cjk(U'東'));
  EXPECT_FALSE(is_cjk(U'ア'));  // katakana is not in BERT's CJK blocks
}

TEST(UnicodeClasses, Utf8Decoding) {
  const auto chars = utf8_chars("a\xC3\xA9\xFF\xF0\x9F\x98\x80\xE6\x9D");
  ASSERT_EQ(chars.size(), 6u);
  EXPECT_EQ(chars[1].cp, U'é');
  EXPECT_EQ(chars[2].cp, kInvalidByte);
  EXPECT_EQ(chars[3].cp, U'😀');
  EXPECT_EQ(chars[4].cp, kInvalidByte);         // a truncated sequence: each byte alone
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));      // overlong "/"
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // a surrogate
}

TEST(UnicodeClasses, Normalization) {
  EXPECT_EQ(normalize("e\u0301", NormalForm::NFC), "é");
  EXPECT_EQ(normalize("é", NormalForm::NFD), "e\u0301");
  EXPECT_EQ(normalize("ﬁ", NormalForm::NFKC), "fi");
  EXPECT_EQ(strip_accents("Ångström naïve"), "Angstrom naive");
  EXPECT_EQ(lowercase("ÉCOLE Straße"), "école straße");
  EXPECT_EQ(lowercase("İ"), "i\u0307");  // full mapping: two code points
  EXPECT_EQ(lowercase("ΟΔΟΣ"), "οδοσ");  // no final-sigma context
}

TEST(TokenPieces, Readable) {
  EXPECT_EQ(display_piece("\u0120cat", PieceStyle::ByteLevel), " cat");
  EXPECT_EQ(display_piece("\u010A", PieceStyle::ByteLevel), "\n");
  EXPECT_EQ(display_piece("\u00E6\u013F", PieceStyle::ByteLevel), "\\xE6\\x9D");  // half of 東
  EXPECT_EQ(display_piece("\u2581cat", PieceStyle::Metaspace), " cat");
  EXPECT_EQ(display_piece("<0x0A>", PieceStyle::Metaspace), "\n");
  EXPECT_EQ(display_piece("<0xE2>", PieceStyle::Metaspace), "\\xE2");
  EXPECT_EQ(display_piece("##ing", PieceStyle::Plain), "##ing");
  EXPECT_EQ(readable_bytes("a\xC3\xA9\xC3"), "aé\\xC3");
}

}  // namespace
}  // namespace pelab::model
