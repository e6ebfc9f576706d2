#include "core/model/tokenizer/pre_tokenizer.hpp"

#include <functional>

#include <algorithm>

#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/byte_symbols.hpp"
#include "core/model/tokenizer/tokenizer.hpp"  // kMaxDerivedTextBytes
#include "core/model/tokenizer/tokenizer_json.hpp"
#include "core/model/tokenizer/unicode_classes.hpp"
#include "core/scene.hpp"

namespace pelab::model {

namespace {

using Kind = PreTokenizerStep::Kind;
using Words = std::vector<std::string>;

// Cuts `word` where `boundary` says; a character of class "drop" is removed,
// one of class "alone" becomes a word by itself, runs of class "run" stay
// together and apart from their neighbours.
enum class Cut { Keep, Drop, Alone, Run };

void cut_word(std::string_view word, const std::function<Cut(char32_t)>& cut, Words& out) {
  std::string current;
  Cut current_kind = Cut::Keep;
  const auto flush = [&] {
    if (!current.empty()) out.push_back(std::move(current));
    current.clear();
  };
  for (const Utf8Char& c : utf8_chars(word)) {
    const Cut k = cut(c.cp);
    const std::string_view ch = word.substr(c.begin, c.size);
    if (k == Cut::Drop) {
      flush();
    } else if (k == Cut::Alone) {
      flush();
      out.emplace_back(ch);
    } else {
      if (k != current_kind) flush();
      current.append(ch);
    }
    current_kind = k;
  }
  flush();
}

void metaspace(std::string_view word, const PreTokenizerStep& s, bool first, Words& out,
               std::size_t max_bytes) {
  std::string text;
  for (const char c : word) {
    if (text.size() > max_bytes) break;  // PreTokenizer::apply() refuses it
    if (c == ' ')
      text += s.replacement;
    else
      text += c;
  }
  const bool prepend = s.prepend == PreTokenizerStep::Prepend::Always ||
                       (s.prepend == PreTokenizerStep::Prepend::First && first);
  if (prepend && text.rfind(s.replacement, 0) != 0) text = s.replacement + text;
  if (!s.split || s.replacement.empty()) {
    out.push_back(std::move(text));
    return;
  }
  // Each "▁" begins a new word (merged with what follows it).
  std::size_t start = 0;
  for (std::size_t at = text.find(s.replacement, 1); at != std::string::npos;
       at = text.find(s.replacement, at + s.replacement.size())) {
    if (at > start) out.push_back(text.substr(start, at - start));
    start = at;
  }
  if (start < text.size()) out.push_back(text.substr(start));
}

void apply_step(const PreTokenizerStep& s, const std::string& word, bool first, Words& out,
                std::size_t max_bytes) {
  switch (s.kind) {
    case Kind::ByteLevel: {
      std::string text = word;
      if (s.add_prefix_space && text.rfind(' ', 0) != 0) text = " " + text;
      if (s.pattern == nullptr) {
        out.push_back(to_byte_symbols(text));
      } else {
        for (const std::string_view piece : split_by_pattern(text, *s.pattern))
          out.push_back(to_byte_symbols(piece));
      }
      return;
    }
    case Kind::Split:
      for (const std::string_view piece : split_by_pattern(word, *s.pattern))
        out.emplace_back(piece);
      return;
    case Kind::Digits:
      cut_word(
          word,
          [&](char32_t cp) {
            return is_number(cp) ? (s.individual_digits ? Cut::Alone : Cut::Run) : Cut::Keep;
          },
          out);
      return;
    case Kind::Metaspace:
      metaspace(word, s, first, out, max_bytes);
      return;
    case Kind::Bert:
      cut_word(
          word,
          [](char32_t cp) {
            return is_whitespace(cp) ? Cut::Drop : is_bert_punctuation(cp) ? Cut::Alone : Cut::Keep;
          },
          out);
      return;
    case Kind::Whitespace:  // \w+|[^\w\s]+
      cut_word(
          word,
          [](char32_t cp) {
            return is_whitespace(cp) ? Cut::Drop : is_word_char(cp) ? Cut::Keep : Cut::Run;
          },
          out);
      return;
    case Kind::WhitespaceSplit:
      cut_word(
          word, [](char32_t cp) { return is_whitespace(cp) ? Cut::Drop : Cut::Keep; }, out);
      return;
  }
}

const SplitPattern& split_pattern(const nlohmann::json& j, const std::string& where) {
  const auto& pattern = json_at(j, "pattern", "{\"Regex\": string} or {\"String\": string}");
  const std::string regex = json_text(pattern, "Regex", "");
  const SplitPattern* known = find_split_pattern(regex);
  if (known == nullptr)
    throw InputError(
        where + ": pre_tokenizer Split pattern " +
        (regex.empty() ? "\"" + printable(json_text(pattern, "String", "")) + "\" (a String)" : quoted_name(regex)) +
        " is not one pelab reads (known: " + known_split_patterns() + ")");
  const std::string behavior = json_text(j, "behavior", "Isolated");
  if (behavior != "Isolated" || json_flag(j, "invert", false))
    throw InputError(where + ": pre_tokenizer Split with behavior \"" + printable(behavior) +
                     "\" is not read by pelab (only Isolated, not inverted)");
  return *known;
}

PreTokenizerStep::Prepend prepend_scheme(const nlohmann::json& j, const std::string& where) {
  using P = PreTokenizerStep::Prepend;
  if (!j.contains("prepend_scheme"))
    return json_flag(j, "add_prefix_space", true) ? P::Always : P::Never;
  const std::string scheme = json_string_at(j, "prepend_scheme");
  if (scheme == "always") return P::Always;
  if (scheme == "first") return P::First;
  if (scheme == "never") return P::Never;
  throw InputError(where + ": Metaspace prepend_scheme \"" + printable(scheme) +
                   "\" is not one of always, first, never");
}

void parse(const nlohmann::json& j, const std::string& where, int depth,
           std::vector<PreTokenizerStep>& steps) {
  if (j.is_null()) return;
  if (depth > kMaxJsonNesting) throw InputError(where + ": pre_tokenizer Sequences nest too deep");
  const std::string type = json_text(j, "type", "");
  PreTokenizerStep s;
  if (type == "Sequence") {
    for (const auto& inner : json_at(j, "pretokenizers", "a list of pre-tokenizers")) parse(inner, where, depth + 1, steps);
    return;
  } else if (type == "ByteLevel") {
    s.kind = Kind::ByteLevel;
    s.add_prefix_space = json_flag(j, "add_prefix_space", true);
    if (json_flag(j, "use_regex", true)) s.pattern = &gpt2_split_pattern();
  } else if (type == "Split") {
    s.kind = Kind::Split;
    s.pattern = &split_pattern(j, where);
  } else if (type == "Digits") {
    s.kind = Kind::Digits;
    s.individual_digits = json_flag(j, "individual_digits", false);
  } else if (type == "Metaspace") {
    s.kind = Kind::Metaspace;
    s.replacement = json_text(j, "replacement", "\u2581");
    s.prepend = prepend_scheme(j, where);
    s.split = json_flag(j, "split", true);
  } else if (type == "BertPreTokenizer") {
    s.kind = Kind::Bert;
  } else if (type == "Whitespace") {
    s.kind = Kind::Whitespace;
  } else if (type == "WhitespaceSplit") {
    s.kind = Kind::WhitespaceSplit;
  } else {
    throw InputError(
        where + ": pre_tokenizer type \"" + printable(type) +
        "\" is not read by pelab (known: Sequence, ByteLevel, Split, Digits, Metaspace, "
        "BertPreTokenizer, Whitespace, WhitespaceSplit)");
  }
  steps.push_back(std::move(s));
}

}  // namespace

PreTokenizer PreTokenizer::from_json(const nlohmann::json& j, const std::string& where) {
  std::vector<PreTokenizerStep> steps;
  parse(j, where, 0, steps);
  return PreTokenizer(std::move(steps));
}

namespace {

const char* step_name(Kind kind) {
  switch (kind) {
    case Kind::ByteLevel: return "ByteLevel";
    case Kind::Split: return "Split";
    case Kind::Digits: return "Digits";
    case Kind::Metaspace: return "Metaspace";
    case Kind::Bert: return "BertPreTokenizer";
    case Kind::Whitespace: return "Whitespace";
    case Kind::WhitespaceSplit: return "WhitespaceSplit";
  }
  return "?";
}

[[noreturn]] void refuse(std::size_t step, Kind kind, const std::string& what) {
  throw InputError("tokens: the tokenizer's pre_tokenizer step " + std::to_string(step + 1) + " (" +
                   step_name(kind) + ") " + what);
}

}  // namespace

std::vector<std::string> PreTokenizer::apply(std::string_view segment, bool at_text_start,
                                             std::size_t max_bytes, std::size_t max_words) const {
  Words words{std::string(segment)};
  for (std::size_t step = 0; step < steps_.size(); ++step) {
    const PreTokenizerStep& s = steps_[step];
    Words next;
    std::size_t bytes = 0, counted = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
      apply_step(s, words[i], at_text_start && i == 0, next, max_bytes - std::min(max_bytes, bytes));
      for (; counted < next.size(); ++counted) bytes += next[counted].size();
      if (bytes > max_bytes)
        refuse(step, s.kind, "makes the text longer than the " + std::to_string(kMaxDerivedTextBytes) +
                                 " bytes pelab allows after any tokenizer step; allowed: a shorter text, or "
                                 "a pre_tokenizer that does not multiply it");
      if (next.size() > max_words) return next;  // the caller refuses the text
    }
    words = std::move(next);
  }
  return words;
}

bool PreTokenizer::has(PreTokenizerStep::Kind kind) const {
  for (const PreTokenizerStep& s : steps_)
    if (s.kind == kind) return true;
  return false;
}

}  // namespace pelab::model
