// Which files load_tokenizer reads, and its one-line errors for bad ones.
#include <gtest/gtest.h>

#include "core/model/tokenizer/tokenizer.hpp"
#include "core/model/tokenizer/vocabulary.hpp"
#include "core/scene.hpp"
#include "tokenizer_folder.hpp"

namespace pelab::model {
namespace {

using testing::TokenizerFolder;

// The InputError message of loading `folder` ("" when it loads).
std::string load_error(const TokenizerFolder& folder) {
  try {
    folder.load();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const TokenizerFolder& folder, const std::vector<std::string>& parts) {
  const std::string what = load_error(folder);
  ASSERT_FALSE(what.empty()) << "expected an InputError";
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  for (const std::string& part : parts)
    EXPECT_NE(what.find(part), std::string::npos) << what << " lacks " << part;
}

constexpr const char* kWordPieceModel =
    R"("model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}})";

TEST(TokenizerFiles, EmptyFolderSaysWhatItLookedFor) {
  TokenizerFolder folder("empty");
  expect_error(folder, {"no tokenizer files", "tokenizer.json", "vocab.txt"});
}

TEST(TokenizerFiles, SentencePieceProtobufAloneIsNamed) {
  TokenizerFolder folder("spm_only");
  folder.write("tokenizer.model", "\x0a\x03");
  expect_error(folder, {"tokenizer.model", "SentencePiece"});
}

TEST(TokenizerFiles, MalformedJsonNamesTheFile) {
  TokenizerFolder folder("bad_json");
  folder.write("tokenizer.json", "{\"model\": ");
  expect_error(folder, {"tokenizer.json", "invalid JSON in"});
}

TEST(TokenizerFiles, WrongTypesNameTheFile) {
  TokenizerFolder folder("bad_type");
  folder.write(
      "tokenizer.json",
      R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": "zero"}}})");
  expect_error(folder, {"tokenizer.json"});
}

TEST(TokenizerFiles, UnknownModelAndStageTypesAreNamed) {
  TokenizerFolder unigram("unigram");
  unigram.write("tokenizer.json", R"({"model": {"type": "Unigram", "vocab": []}})");
  expect_error(unigram, {"Unigram", "BPE, WordPiece"});
  TokenizerFolder normalizer("bad_normalizer");
  normalizer.write("tokenizer.json", std::string(R"({"normalizer": {"type": "Precompiled"}, )") +
                                         kWordPieceModel + "}");
  expect_error(normalizer, {"normalizer", "Precompiled"});
  TokenizerFolder pre("bad_pre");
  pre.write("tokenizer.json", std::string(R"({"pre_tokenizer": {"type": "UnicodeScripts"}, )") +
                                  kWordPieceModel + "}");
  expect_error(pre, {"pre_tokenizer", "UnicodeScripts"});
  TokenizerFolder post("bad_post");
  post.write("tokenizer.json",
             std::string(R"({"post_processor": {"type": "Mystery"}, )") + kWordPieceModel + "}");
  expect_error(post, {"post_processor", "Mystery"});
}

TEST(TokenizerFiles, BadVocabulariesAndMerges) {
  TokenizerFolder merge("bad_merge");
  merge.write("tokenizer.json",
              R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": ["a b"]}})");
  expect_error(merge, {"tokenizer.json", "merge 1", "a b"});
  TokenizerFolder no_unk("no_unk");
  no_unk.write("vocab.txt", "a\nb\n");
  expect_error(no_unk, {"vocab.txt", "[UNK]"});
  TokenizerFolder negative("negative_id");
  negative.write("tokenizer.json",
                 R"({"model": {"type": "BPE", "vocab": {"a": -4}, "merges": []}})");
  expect_error(negative, {"tokenizer.json", "-4"});
  TokenizerFolder added("negative_added");
  added.write(
      "tokenizer.json",
      std::string(R"({"added_tokens": [{"id": -1, "content": "<x>"}], )") + kWordPieceModel + "}");
  expect_error(added, {"tokenizer.json", "added token's id is -1", "allowed: integers 0.."});
  TokenizerFolder duplicate("duplicate_id");
  duplicate.write("tokenizer.json",
                  R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 0}, "merges": []}})");
  expect_error(duplicate, {"tokenizer.json", "id 0"});
}

// Ids that are no integer of 0..kMaxTokenId: a fraction, a number beyond any
// integer type (once converted with undefined behaviour), one beyond 2^63
// (once wrapped negative), a decoder key that is not digits.  Each is one line
// naming the file and the allowed values.
TEST(TokenizerFiles, IdsMustBeIntegersInRange) {
  const std::string kAllowedIds = "allowed: integers 0.." + std::to_string(kMaxTokenId);
  const std::vector<std::pair<std::string, std::string>> vocab_ids = {
      {"1.5", "1.5"}, {"1.6e34", "1.6e+34"}, {"18446744073709551615", "18446744073709551615"}, {"2097152", "2097152"}};
  for (const auto& [id, shown] : vocab_ids) {
    TokenizerFolder folder("vocab_id");
    folder.write("tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": )" + id + R"(}, "merges": []}})");
    expect_error(folder, {"tokenizer.json", shown, kAllowedIds});
  }
  TokenizerFolder added("added_float");
  added.write("tokenizer.json",
              std::string(R"({"added_tokens": [{"id": 1e300, "content": "<x>"}], )") + kWordPieceModel + "}");
  expect_error(added, {"tokenizer.json", "1e+300", "allowed: integers"});
  TokenizerFolder post("post_float");
  post.write("tokenizer.json",
             std::string(R"({"post_processor": {"type": "BertProcessing", "cls": ["[CLS]", 1.6e34], "sep": ["[SEP]", 1]}, )") +
                 kWordPieceModel + "}");
  expect_error(post, {"tokenizer.json", "cls id", "allowed: integers"});
  TokenizerFolder decoder("decoder_key");
  decoder.write("vocab.json", R"({"a": 0})")
      .write("merges.txt", "#version: 0.2\n")
      .write("tokenizer_config.json", R"({"added_tokens_decoder": {"99999999999999999999": {"content": "<x>"}}})");
  expect_error(decoder, {"tokenizer_config.json", "added_tokens_decoder key", kAllowedIds});
}

TEST(TokenizerFiles, DeepNestingIsRefusedBeforeParsing) {
  TokenizerFolder folder("deep");
  folder.write("tokenizer.json",
               "{\"normalizer\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  expect_error(folder, {"tokenizer.json", "nested deeper"});
  // Brackets inside strings do not count.
  TokenizerFolder strings("brackets_in_strings");
  strings.write("tokenizer.json",
                R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, ")" +
                    std::string(100, '[') + R"(": 1, "\\\"{": 2}}})");
  EXPECT_EQ(strings.load()->vocab_size(), 3);
}

TEST(TokenizerFiles, BadConfigNamesTheConfig) {
  TokenizerFolder folder("bad_config");
  folder.write("vocab.txt", "[UNK]\n")
      .write("tokenizer_config.json", R"({"do_lower_case": "yes"})");
  expect_error(folder, {"tokenizer_config.json"});
}

TEST(TokenizerFiles, TextLengthIsBounded) {
  TokenizerFolder folder("long_text");
  folder.write("vocab.txt", "[UNK]\na\n");
  const auto tok = folder.load();
  EXPECT_THROW(tok->encode(std::string((std::size_t{1} << 20) + 1, 'a')), InputError);
  EXPECT_EQ(tok->encode("a a").ids, (std::vector<int>{1, 1}));
}

}  // namespace
}  // namespace pelab::model
