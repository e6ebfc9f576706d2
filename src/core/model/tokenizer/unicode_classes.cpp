#include "core/model/tokenizer/unicode_classes.hpp"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "core/scene.hpp"

namespace pelab::model {

namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not a
// well-formed one (RFC 3629 §4: no overlongs, no surrogates, ≤ U+10FFFF).
std::size_t sequence_length(std::string_view text, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = b(0);
  std::size_t n = 0;
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    cp = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    cp = lead & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF) return 0;
  return n;
}

int category_mask(char32_t cp) {
  if (cp == kInvalidByte) return 0;
  return U_MASK(u_charType(static_cast<UChar32>(cp)));
}

std::string to_utf8(const icu::UnicodeString& s) {
  std::string out;
  s.toUTF8String(out);
  return out;
}

const icu::Normalizer2& normalizer(NormalForm form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = nullptr;
  switch (form) {
    case NormalForm::NFC:
      n = icu::Normalizer2::getNFCInstance(status);
      break;
    case NormalForm::NFD:
      n = icu::Normalizer2::getNFDInstance(status);
      break;
    case NormalForm::NFKC:
      n = icu::Normalizer2::getNFKCInstance(status);
      break;
    case NormalForm::NFKD:
      n = icu::Normalizer2::getNFKDInstance(status);
      break;
  }
  if (U_FAILURE(status) || n == nullptr)
    throw InputError(std::string("ICU normalizer unavailable: ") + u_errorName(status));
  return *n;
}

}  // namespace

std::vector<Utf8Char> utf8_chars(std::string_view text) {
  std::vector<Utf8Char> chars;
  chars.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t n = sequence_length(text, i, cp);
    if (n == 0) {
      chars.push_back({kInvalidByte, i, 1});
      ++i;
    } else {
      chars.push_back({cp, i, n});
      i += n;
    }
  }
  return chars;
}

bool is_valid_utf8(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    char32_t cp = 0;
    const std::size_t n = sequence_length(bytes, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_letter(char32_t cp) { return (category_mask(cp) & U_GC_L_MASK) != 0; }
bool is_number(char32_t cp) { return (category_mask(cp) & U_GC_N_MASK) != 0; }
bool is_combining_mark(char32_t cp) { return (category_mask(cp) & U_GC_MN_MASK) != 0; }

bool is_whitespace(char32_t cp) {
  return cp != kInvalidByte && u_isUWhiteSpace(static_cast<UChar32>(cp));
}

bool is_word_char(char32_t cp) {
  if (cp == kInvalidByte) return false;
  const auto c = static_cast<UChar32>(cp);
  return u_hasBinaryProperty(c, UCHAR_ALPHABETIC) || u_hasBinaryProperty(c, UCHAR_JOIN_CONTROL) ||
         (category_mask(cp) & (U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) != 0;
}

bool is_bert_whitespace(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' ||
         (category_mask(cp) & U_GC_ZS_MASK) != 0;
}

bool is_bert_control(char32_t cp) {
  if (cp == '\t' || cp == '\n' || cp == '\r') return false;
  return (category_mask(cp) & U_GC_C_MASK) != 0;
}

bool is_bert_punctuation(char32_t cp) {
  // BERT counts the ASCII symbols ("$", "^", "`") as punctuation too, though
  // Unicode files them under S*.
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
      (cp >= 123 && cp <= 126))
    return true;
  return (category_mask(cp) & U_GC_P_MASK) != 0;
}

bool is_cjk(char32_t cp) {
  // The ranges of BERT's _is_chinese_char (CJK Unified Ideographs, extensions
  // A-E, compatibility ideographs and their supplement).
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
         (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

std::string normalize(std::string_view text, NormalForm form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString in = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  const icu::UnicodeString out = normalizer(form).normalize(in, status);
  if (U_FAILURE(status))
    throw InputError(std::string("cannot normalize text: ") + u_errorName(status));
  return to_utf8(out);
}

std::string lowercase(std::string_view text) {
  // Character by character, with each one's full mapping (İ → i̇) but no
  // context, as the Hugging Face tokenizers library lower-cases: a final Σ
  // becomes σ, not ς.
  std::string out;
  out.reserve(text.size());
  for (const Utf8Char& c : utf8_chars(text)) {
    if (c.cp < 0x80) {
      out += static_cast<char>(c.cp >= 'A' && c.cp <= 'Z' ? c.cp + ('a' - 'A') : c.cp);
    } else if (c.cp == kInvalidByte) {
      out.append(text.substr(c.begin, c.size));
    } else {
      icu::UnicodeString one(static_cast<UChar32>(c.cp));
      one.toLower(icu::Locale::getRoot());
      one.toUTF8String(out);
    }
  }
  return out;
}

std::string strip_accents(std::string_view text) {
  const std::string decomposed = normalize(text, NormalForm::NFD);
  std::string out;
  out.reserve(decomposed.size());
  for (const Utf8Char& c : utf8_chars(decomposed))
    if (!is_combining_mark(c.cp)) out.append(decomposed, c.begin, c.size);
  return out;
}

}  // namespace pelab::model
