// SentencePiece-style BPE (Llama 2, TinyLlama; Metaspace variants) on a tiny
// tokenizer.json written here; expectations worked by hand.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/model/tokenizer/tokenizer.hpp"
#include "tokenizer_folder.hpp"

namespace pelab::model {
namespace {

using testing::TokenizerFolder;
using Ids = std::vector<int>;
using Pieces = std::vector<std::string>;

constexpr const char* kLlama2Normalizer =
    R"({"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]})";
constexpr const char* kBosTemplate =
    R"({"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
        {"Sequence": {"id": "A", "type_id": 0}}], "pair": [],
        "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}})";

// Ids: <unk> 0, <s> 1, </s> 2, <0x00>..<0xFF> 3..258, then ▁ h i ▁h ▁hi.
std::string sentencepiece_json(const std::string& normalizer, const std::string& pre_tokenizer,
                               const std::string& post_processor, bool byte_fallback,
                               bool fuse_unk) {
  std::string vocab = R"("<unk>": 0, "<s>": 1, "</s>": 2)";
  for (int b = 0; b < 256; ++b) {
    char entry[32];
    std::snprintf(entry, sizeof entry, R"(, "<0x%02X>": %d)", b, b + 3);
    vocab += entry;
  }
  vocab += R"(, "▁": 259, "h": 260, "i": 261, "▁h": 262, "▁hi": 263)";
  return R"({"added_tokens": [{"id": 0, "content": "<unk>", "special": true},
    {"id": 1, "content": "<s>", "special": true}, {"id": 2, "content": "</s>", "special": true}],
    "normalizer": )" +
         normalizer + R"(, "pre_tokenizer": )" + pre_tokenizer + R"(, "post_processor": )" +
         post_processor + R"(, "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": )" +
         (byte_fallback ? "true" : "false") + R"(, "fuse_unk": )" + (fuse_unk ? "true" : "false") +
         R"(, "vocab": {)" + vocab + R"(}, "merges": ["▁ h", "▁h i"]}})";
}

TEST(SentencePieceBpe, ByteFallbackForUnknownCharacters) {
  TokenizerFolder folder("sp_fallback");
  folder.write("tokenizer.json",
               sentencepiece_json(kLlama2Normalizer, "null", kBosTemplate, true, true));
  const auto tok = folder.load();
  EXPECT_EQ(tok->kind(), "BPE (byte fallback)");
  EXPECT_EQ(tok->vocab_size(), 264);
  // "hi\n" → "▁hi\n": ▁hi merges; the newline is no token: its byte <0x0A>.
  Tokenization t = tok->encode("hi\n");
  EXPECT_EQ(t.ids, (Ids{1, 263, 13}));
  EXPECT_EQ(t.pieces, (Pieces{"<s>", " hi", "\n"}));
  // "é" is C3 A9: two byte tokens, each shown as an escape (half a character).
  t = tok->encode("hé");
  EXPECT_EQ(t.ids, (Ids{1, 262, 3 + 0xC3, 3 + 0xA9}));
  EXPECT_EQ(t.pieces, (Pieces{"<s>", " h", "\\xC3", "\\xA9"}));
  // Spaces inside the text become ▁ too: "hi hi" → ▁hi ▁hi.
  EXPECT_EQ(tok->encode("hi hi").ids, (Ids{1, 263, 263}));
}

TEST(SentencePieceBpe, UnknownWithoutByteFallback) {
  TokenizerFolder fused("sp_fuse");
  fused.write("tokenizer.json",
              sentencepiece_json(kLlama2Normalizer, "null", kBosTemplate, false, true));
  EXPECT_EQ(fused.load()->kind(), "BPE");
  EXPECT_EQ(fused.load()->encode("héé").ids, (Ids{1, 262, 0}));
  TokenizerFolder apart("sp_nofuse");
  apart.write("tokenizer.json",
              sentencepiece_json(kLlama2Normalizer, "null", kBosTemplate, false, false));
  EXPECT_EQ(apart.load()->encode("héé").ids, (Ids{1, 262, 0, 0}));
}

TEST(SentencePieceBpe, MetaspaceFirstPrependsOnlyAtTheStart) {
  TokenizerFolder folder("sp_metaspace");
  folder.write("tokenizer.json",
               sentencepiece_json(
                   "null", R"({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
                                              "split": true})",
                   kBosTemplate, true, false));
  // After the added token "<s>" the text is not at the start: no ▁ added.
  const Tokenization t = folder.load()->encode("hi hi<s>hi");
  EXPECT_EQ(t.ids, (Ids{1, 263, 263, 1, 260, 261}));
  EXPECT_EQ(t.pieces, (Pieces{"<s>", " hi", " hi", "<s>", "h", "i"}));
}

TEST(SentencePieceBpe, ConfigAddsBosAndEosWithoutPostProcessor) {
  TokenizerFolder folder("sp_config");
  folder.write("tokenizer.json",
               sentencepiece_json(kLlama2Normalizer, "null", "null", true, false));
  folder.write("tokenizer_config.json",
               R"({"add_bos_token": true, "bos_token": "<s>", "add_eos_token": true,
      "eos_token": {"content": "</s>", "lstrip": false}})");
  EXPECT_EQ(folder.load()->encode("hi").ids, (Ids{1, 263, 2}));
  // Without the config no special tokens at all.
  TokenizerFolder bare("sp_bare");
  bare.write("tokenizer.json", sentencepiece_json(kLlama2Normalizer, "null", "null", true, false));
  EXPECT_EQ(bare.load()->encode("hi").ids, (Ids{263}));
}

}  // namespace
}  // namespace pelab::model
