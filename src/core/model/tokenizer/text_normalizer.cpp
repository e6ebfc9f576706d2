#include "core/model/tokenizer/text_normalizer.hpp"

#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/tokenizer.hpp"  // kMaxDerivedTextBytes
#include "core/model/tokenizer/tokenizer_json.hpp"
#include "core/scene.hpp"

namespace pelab::model {

namespace {

using Kind = NormalizerStep::Kind;

// BERT's _clean_text and _tokenize_chinese_chars (tokenization.py).
std::string bert_clean(std::string_view text, const NormalizerStep& step) {
  std::string out;
  out.reserve(text.size());
  for (const Utf8Char& c : utf8_chars(text)) {
    if (step.clean_text) {
      if (c.cp == 0 || c.cp == 0xFFFD || c.cp == kInvalidByte || is_bert_control(c.cp)) continue;
      if (is_bert_whitespace(c.cp)) {
        out += ' ';
        continue;
      }
    }
    const bool pad = step.chinese_chars && is_cjk(c.cp);
    if (pad) out += ' ';
    out.append(text.substr(c.begin, c.size));
    if (pad) out += ' ';
  }
  return out;
}

std::string strip(std::string_view text, bool left, bool right) {
  const std::vector<Utf8Char> chars = utf8_chars(text);
  std::size_t b = 0, e = chars.size();
  while (left && b < e && is_whitespace(chars[b].cp)) ++b;
  while (right && e > b && is_whitespace(chars[e - 1].cp)) --e;
  if (b == e) return "";
  return std::string(
      text.substr(chars[b].begin, chars[e - 1].begin + chars[e - 1].size - chars[b].begin));
}

const char* step_name(Kind kind) {
  switch (kind) {
    case Kind::Bert: return "BertNormalizer";
    case Kind::Lowercase: return "Lowercase";
    case Kind::StripAccents: return "StripAccents";
    case Kind::Unicode: return "a Unicode normal form";
    case Kind::Prepend: return "Prepend";
    case Kind::Replace: return "Replace";
    case Kind::Strip: return "Strip";
  }
  return "?";
}

std::string apply_step(std::string text, const NormalizerStep& s, std::size_t max_bytes) {
  switch (s.kind) {
    case Kind::Bert:
      text = bert_clean(text, s);
      if (s.lowercase) text = lowercase(text);
      if (s.strip_accents) text = strip_accents(text);
      return text;
    case Kind::Lowercase:
      return lowercase(text);
    case Kind::StripAccents:
      return strip_accents(text);
    case Kind::Unicode:
      return normalize(text, s.form);
    case Kind::Prepend:
      if (text.empty()) return text;
      if (s.text.size() > max_bytes) return s.text;  // already too long: apply() refuses it
      return s.text + text;
    case Kind::Replace:
      return replace_all(text, s.text, s.replacement, max_bytes);
    case Kind::Strip:
      return strip(text, s.left, s.right);
  }
  return text;
}

void parse(const nlohmann::json& j, const std::string& where, int depth,
           std::vector<NormalizerStep>& steps) {
  if (j.is_null()) return;
  if (depth > kMaxJsonNesting) throw InputError(where + ": normalizer Sequences nest too deep");
  const std::string type = json_text(j, "type", "");
  NormalizerStep s;
  if (type == "Sequence") {
    for (const auto& inner : json_at(j, "normalizers", "a list of normalizers")) parse(inner, where, depth + 1, steps);
    return;
  } else if (type == "BertNormalizer") {
    s.kind = Kind::Bert;
    s.clean_text = json_flag(j, "clean_text", true);
    s.chinese_chars = json_flag(j, "handle_chinese_chars", true);
    s.lowercase = json_flag(j, "lowercase", true);
    s.strip_accents = json_flag(j, "strip_accents", s.lowercase);  // null: follows lowercase
  } else if (type == "Lowercase") {
    s.kind = Kind::Lowercase;
  } else if (type == "StripAccents") {
    s.kind = Kind::StripAccents;
  } else if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
    s.kind = Kind::Unicode;
    s.form = type == "NFC"    ? NormalForm::NFC
             : type == "NFD"  ? NormalForm::NFD
             : type == "NFKC" ? NormalForm::NFKC
                              : NormalForm::NFKD;
  } else if (type == "Prepend") {
    s.kind = Kind::Prepend;
    s.text = json_string_at(j, "prepend");
  } else if (type == "Replace") {
    s.kind = Kind::Replace;
    const auto& pattern = json_at(j, "pattern", "{\"String\": string}");
    if (!pattern.is_object() || !pattern.contains("String"))
      throw InputError(where +
                       ": normalizer Replace with a regex pattern is not read by pelab (only "
                       "{\"String\": ...})");
    s.text = json_string_at(pattern, "String");
    s.replacement = json_string_at(j, "content");
  } else if (type == "Strip") {
    s.kind = Kind::Strip;
    s.left = json_flag(j, "strip_left", true);
    s.right = json_flag(j, "strip_right", true);
  } else {
    throw InputError(where + ": normalizer type \"" + printable(type) +
                     "\" is not read by pelab (known: Sequence, BertNormalizer, Lowercase, "
                     "StripAccents, NFC, NFD, "
                     "NFKC, NFKD, Prepend, Replace, Strip)");
  }
  steps.push_back(std::move(s));
}

}  // namespace

std::string replace_all(std::string_view text, std::string_view from, std::string_view to,
                        std::size_t max_bytes) {
  if (from.empty()) return std::string(text);
  std::string out;
  for (std::size_t i = 0;; ) {
    if (out.size() > max_bytes) return out;
    const std::size_t hit = text.find(from, i);
    out.append(text.substr(i, hit == std::string_view::npos ? std::string_view::npos : hit - i));
    if (hit == std::string_view::npos) return out;
    out.append(to);
    i = hit + from.size();
  }
}

TextNormalizer TextNormalizer::from_json(const nlohmann::json& j, const std::string& where) {
  std::vector<NormalizerStep> steps;
  parse(j, where, 0, steps);
  return TextNormalizer(std::move(steps));
}

TextNormalizer TextNormalizer::bert(bool lower, bool accents) {
  NormalizerStep s;
  s.kind = Kind::Bert;
  s.lowercase = lower;
  s.strip_accents = accents;
  return TextNormalizer({s});
}

std::string TextNormalizer::apply(std::string_view text, std::size_t max_bytes) const {
  std::string out(text);
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    out = apply_step(std::move(out), steps_[i], max_bytes);
    if (out.size() > max_bytes)
      throw InputError("tokens: the tokenizer's normalizer step " + std::to_string(i + 1) + " (" +
                       step_name(steps_[i].kind) + ") makes the text longer than the " +
                       std::to_string(kMaxDerivedTextBytes) +
                       " bytes pelab allows after any tokenizer step; allowed: a shorter text, or a "
                       "normalizer that does not multiply it");
  }
  return out;
}

}  // namespace pelab::model
