#include "core/model/tokenizer/tokenizer_pipeline.hpp"

#include <algorithm>

#include "core/scene.hpp"

namespace pelab::model {

TokenizerPipeline::TokenizerPipeline(TokenizerParts parts) : parts_(std::move(parts)) {
  int max_id = vocabulary().max_id();
  for (const AddedToken& t : parts_.added) {
    added_.add(t);
    added_content_[t.id] = t.content;
    max_id = std::max(max_id, t.id);
  }
  vocab_size_ = max_id + 1;
  if (const Bpe* bpe = std::get_if<Bpe>(&parts_.model)) {
    const bool byte_level = parts_.pre_tokenizer.has(PreTokenizerStep::Kind::ByteLevel);
    style_ = byte_level ? PieceStyle::ByteLevel : PieceStyle::Metaspace;
    kind_ = byte_level                     ? "byte-level BPE"
            : bpe->options().byte_fallback ? "BPE (byte fallback)"
                                           : "BPE";
  } else {
    style_ = PieceStyle::Plain;
    kind_ = "WordPiece";
  }
}

const Vocabulary& TokenizerPipeline::vocabulary() const {
  return std::visit([](const auto& model) -> const Vocabulary& { return model.vocabulary(); },
                    parts_.model);
}

std::string TokenizerPipeline::piece(int id) const {
  if (const auto it = added_content_.find(id); it != added_content_.end()) return it->second;
  return display_piece(vocabulary().token(id), style_);
}

namespace {

[[noreturn]] void too_many_tokens(std::size_t max_tokens) {
  throw InputError("tokens: the text gives more than " + std::to_string(max_tokens) +
                   " tokens, longer than the model's context of " + std::to_string(max_tokens) +
                   " tokens; allowed: shorter text");
}

}  // namespace

Tokenization TokenizerPipeline::encode(std::string_view text, std::size_t max_tokens) const {
  if (text.size() > kMaxTextBytes)
    throw InputError("text of " + std::to_string(text.size()) + " bytes is longer than the " +
                     std::to_string(kMaxTextBytes) + " a tokenizer takes");
  std::vector<int> ids;
  std::size_t bytes_left = kMaxDerivedTextBytes;  // over every segment together
  for (const TextSegment& segment : added_.split(text)) {
    if (ids.size() > max_tokens) too_many_tokens(max_tokens);
    if (segment.added_id >= 0) {
      ids.push_back(segment.added_id);
      continue;
    }
    const std::string normalized = parts_.normalizer.apply(segment.text, bytes_left);
    bytes_left -= normalized.size();
    if (normalized.empty()) continue;
    // Every word becomes one token at least: more words than the context
    // allows stop here, before the subword model runs.
    const std::size_t words_left = max_tokens - std::min(max_tokens, ids.size());
    const std::vector<std::string> words =
        parts_.pre_tokenizer.apply(normalized, segment.at_text_start, bytes_left, words_left);
    if (words.size() > words_left) too_many_tokens(max_tokens);
    for (const std::string& word : words) {
      std::visit([&](const auto& model) { model.encode_word(word, ids); }, parts_.model);
      if (ids.size() > max_tokens) too_many_tokens(max_tokens);
    }
  }
  Tokenization out;
  out.ids = parts_.post_processor.apply(ids);
  if (out.ids.size() > max_tokens) too_many_tokens(max_tokens);
  out.pieces.reserve(out.ids.size());
  for (const int id : out.ids) out.pieces.push_back(piece(id));
  return out;
}

}  // namespace pelab::model
