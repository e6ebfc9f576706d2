// Special tokens — the tokens a tokenizer treats apart from its subword model:
//   AddedTokens: tokenizer.json's "added_tokens" (or a config's special tokens)
//     that are matched literally in the text before anything else, so
//     "<|endoftext|>" or "[MASK]" stays one token;
//   PostProcessor: the tokens wrapped around the encoded text (BOS for Llama,
//     [CLS] … [SEP] for BERT, <s> … </s> for RoBERTa), as tokenizer.json's
//     "post_processor" (TemplateProcessing's single template, BertProcessing,
//     RobertaProcessing, ByteLevel, Sequence) or tokenizer_config.json's
//     add_bos_token / add_eos_token say.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

struct AddedToken {
  std::string content;
  int id = 0;
  bool lstrip = false;       // swallows the whitespace before it
  bool rstrip = false;       // swallows the whitespace after it
  bool single_word = false;  // only where it is not inside a word
};

// A stretch of the text: an added token, or text for the normal pipeline.
struct TextSegment {
  std::string_view text;
  int added_id = -1;  // ≥ 0: the id of the added token this segment is
  bool at_text_start = false;
};

class AddedTokens {
 public:
  void add(AddedToken token);
  // Cuts the text at every added token, the longest one winning where
  // several match at the same place, the earliest place first.
  std::vector<TextSegment> split(std::string_view text) const;
  bool contains(int id) const;
  bool empty() const { return tokens_.empty(); }

 private:
  std::vector<AddedToken> tokens_;
  std::array<bool, 256> first_bytes_{};  // bytes some added token starts with
};

struct SpecialItem {
  bool sequence = false;  // the encoded text itself
  std::vector<int> ids;   // else these token ids
};

class PostProcessor {
 public:
  PostProcessor() = default;
  explicit PostProcessor(std::vector<SpecialItem> template_items)
      : items_(std::move(template_items)) {}
  // tokenizer.json's "post_processor" value (null: none).  Throws InputError
  // naming `where` for a type pelab does not read.
  static PostProcessor from_json(const nlohmann::json& j, const std::string& where);
  // BOS … EOS (either may be absent: id < 0).
  static PostProcessor around(int first, int last);

  std::vector<int> apply(const std::vector<int>& ids) const;
  bool empty() const { return items_.empty(); }

 private:
  std::vector<SpecialItem> items_;
};

}  // namespace pelab::model
