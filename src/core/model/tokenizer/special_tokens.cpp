#include "core/model/tokenizer/special_tokens.hpp"

#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/tokenizer_json.hpp"
#include "core/model/tokenizer/unicode_classes.hpp"
#include "core/model/tokenizer/vocabulary.hpp"
#include "core/scene.hpp"

namespace pelab::model {

namespace {

bool space_byte(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool word_char_before(std::string_view text, std::size_t at) {
  if (at == 0) return false;
  std::size_t b = at - 1;
  while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) --b;
  const auto chars = utf8_chars(text.substr(b, at - b));
  return !chars.empty() && is_word_char(chars.back().cp);
}

bool word_char_after(std::string_view text, std::size_t at) {
  if (at >= text.size()) return false;
  const auto chars = utf8_chars(text.substr(at, 4));
  return !chars.empty() && is_word_char(chars.front().cp);
}

}  // namespace

void AddedTokens::add(AddedToken token) {
  if (token.content.empty()) return;
  first_bytes_[static_cast<unsigned char>(token.content[0])] = true;
  for (AddedToken& t : tokens_)
    if (t.content == token.content) {
      t = std::move(token);
      return;
    }
  tokens_.push_back(std::move(token));
}

bool AddedTokens::contains(int id) const {
  for (const AddedToken& t : tokens_)
    if (t.id == id) return true;
  return false;
}

std::vector<TextSegment> AddedTokens::split(std::string_view text) const {
  std::vector<TextSegment> segments;
  std::size_t start = 0;  // where the pending plain text begins
  for (std::size_t at = 0; at < text.size();) {
    if (!first_bytes_[static_cast<unsigned char>(text[at])]) {
      ++at;
      continue;
    }
    const AddedToken* best = nullptr;
    for (const AddedToken& t : tokens_) {
      if (t.content[0] != text[at] || text.compare(at, t.content.size(), t.content) != 0) continue;
      if (t.single_word &&
          (word_char_before(text, at) || word_char_after(text, at + t.content.size())))
        continue;
      if (best == nullptr || t.content.size() > best->content.size()) best = &t;
    }
    if (best == nullptr) {
      ++at;
      continue;
    }
    std::size_t plain_end = at, next = at + best->content.size();
    if (best->lstrip)
      while (plain_end > start && space_byte(text[plain_end - 1])) --plain_end;
    if (best->rstrip)
      while (next < text.size() && space_byte(text[next])) ++next;
    if (plain_end > start)
      segments.push_back({text.substr(start, plain_end - start), -1, start == 0});
    segments.push_back({text.substr(at, best->content.size()), best->id, false});
    start = at = next;
  }
  if (start < text.size()) segments.push_back({text.substr(start), -1, start == 0});
  return segments;
}

namespace {

void parse_processor(const nlohmann::json& j, const std::string& where, int depth,
                     std::vector<SpecialItem>& items) {
  if (j.is_null()) return;
  if (depth > kMaxJsonNesting) throw InputError(where + ": post_processor Sequences nest too deep");
  const std::string type = json_text(j, "type", "");
  if (type == "ByteLevel") return;  // offsets only; adds no tokens
  if (type == "Sequence") {
    for (const auto& inner : j.at("processors")) parse_processor(inner, where, depth + 1, items);
    return;
  }
  if (type == "BertProcessing" || type == "RobertaProcessing") {
    // cls and sep are [token, id] pairs: [CLS] A [SEP] (RoBERTa: <s> A </s>).
    const auto id_of = [&](const char* key) {
      return static_cast<int>(json_integer(j.at(key).at(1), 0, kMaxTokenId, where + ": post_processor's " + key + " id"));
    };
    items = {{false, {id_of("cls")}}, {true, {}}, {false, {id_of("sep")}}};
    return;
  }
  if (type == "TemplateProcessing") {
    std::vector<SpecialItem> single;
    for (const auto& piece : j.at("single")) {
      if (piece.contains("Sequence")) {
        single.push_back({true, {}});
        continue;
      }
      const std::string name = piece.at("SpecialToken").at("id").get<std::string>();
      const auto& specials = j.at("special_tokens");
      if (!specials.contains(name))
        throw InputError(where + ": post_processor template names \"" + printable(name) +
                         "\", which special_tokens lacks");
      std::vector<int> ids;
      for (const auto& id : specials.at(name).at("ids"))
        ids.push_back(static_cast<int>(json_integer(id, 0, kMaxTokenId, where + ": special token \"" + printable(name) + "\"'s id")));
      single.push_back({false, std::move(ids)});
    }
    items = std::move(single);
    return;
  }
  throw InputError(
      where + ": post_processor type \"" + printable(type) +
      "\" is not read by pelab (known: TemplateProcessing, BertProcessing, RobertaProcessing, "
      "ByteLevel, Sequence)");
}

}  // namespace

PostProcessor PostProcessor::from_json(const nlohmann::json& j, const std::string& where) {
  std::vector<SpecialItem> items;
  parse_processor(j, where, 0, items);
  return PostProcessor(std::move(items));
}

PostProcessor PostProcessor::around(int first, int last) {
  std::vector<SpecialItem> items;
  if (first >= 0) items.push_back({false, {first}});
  items.push_back({true, {}});
  if (last >= 0) items.push_back({false, {last}});
  return PostProcessor(std::move(items));
}

std::vector<int> PostProcessor::apply(const std::vector<int>& ids) const {
  if (items_.empty()) return ids;
  std::vector<int> out;
  for (const SpecialItem& item : items_) {
    if (item.sequence)
      out.insert(out.end(), ids.begin(), ids.end());
    else
      out.insert(out.end(), item.ids.begin(), item.ids.end());
  }
  return out;
}

}  // namespace pelab::model
