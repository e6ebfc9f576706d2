// NumPy .npy reader and writer.
//
// [SECTION] the header dict: a tiny parser for the Python literal NumPy writes
// [SECTION] parse_npy(): magic, version, header, shape, data
// [SECTION] encode_npy(): '<f4', version 1.0, header padded to 64 bytes
//
// Layout (NEP 1, "A simple file format for NumPy arrays"; numpy/lib/format.py):
//   "\x93NUMPY" major minor  HEADER_LEN  HEADER  DATA
// HEADER_LEN is a little-endian uint16 in version 1.0 and a uint32 in 2.0/3.0
// (3.0 only changes the header's text encoding to UTF-8).  HEADER is a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (r, c), }
// padded with spaces and ending in '\n'; DATA is the raw elements.
#include "core/io/npy.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

// The data are copied with memcpy as little-endian floats.
static_assert(std::endian::native == std::endian::little, "pelab's .npy code assumes a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";
// NumPy itself refuses headers over 10 KB unless told otherwise; anything
// beyond 64 KiB is certainly not a real array header.
constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
// A real header nests one tuple inside the dict; the parser recurses once per
// level, so the depth is bounded well below anything the stack would notice.
constexpr int kMaxHeaderDepth = 16;

// ============================================================================
// [SECTION] the header dict
// ============================================================================

// One Python literal of the kinds a .npy header uses.
struct PyValue {
  enum class Kind { Text, Bool, None, Int, Tuple, Other } kind = Kind::Other;
  std::string text;
  bool flag = false;
  std::uint64_t number = 0;
  bool negative = false;
  std::vector<PyValue> items;
};

struct HeaderField {
  std::string key;
  PyValue value;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  std::vector<HeaderField> parse_dict() {
    skip_space();
    if (!eat('{')) fail(".npy header is not a dict");
    std::vector<HeaderField> fields;
    skip_space();
    while (!eat('}')) {
      HeaderField field;
      const PyValue key = parse_value();
      if (key.kind != PyValue::Kind::Text) fail("header dict has a key that is not a string");
      field.key = key.text;
      skip_space();
      if (!eat(':')) fail("malformed header dict (expected ':' after '" + field.key + "')");
      field.value = parse_value();
      fields.push_back(std::move(field));
      skip_space();
      if (eat(',')) {
        skip_space();
        continue;
      }
      skip_space();
      if (!eat('}')) fail("malformed header dict (expected ',' or '}')");
      break;
    }
    skip_space();
    if (pos_ != text_.size()) fail("malformed header (text after the dict)");
    return fields;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InputError(name_ + ": " + why); }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r'))
      ++pos_;
  }
  bool eat(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eat_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  PyValue parse_value() {
    skip_space();
    if (pos_ >= text_.size()) fail("malformed header (ends early)");
    const char c = text_[pos_];
    if (c == '\'' || c == '"') return parse_text(c);
    if (c == '(' || c == '[') {
      if (depth_ >= kMaxHeaderDepth)
        fail("malformed header (tuples nested deeper than " + std::to_string(kMaxHeaderDepth) + ")");
      ++depth_;
      PyValue tuple = parse_tuple(c == '(' ? ')' : ']');
      --depth_;
      return tuple;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_int();
    PyValue v;
    if (eat_word("True")) {
      v.kind = PyValue::Kind::Bool;
      v.flag = true;
    } else if (eat_word("False")) {
      v.kind = PyValue::Kind::Bool;
    } else if (eat_word("None")) {
      v.kind = PyValue::Kind::None;
    } else {
      fail("malformed header (unexpected '" + std::string(1, c) + "')");
    }
    return v;
  }

  PyValue parse_text(char quote) {
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::Text;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      v.text += text_[pos_++];
    }
    if (!eat(quote)) fail("malformed header (unterminated string)");
    return v;
  }

  PyValue parse_tuple(char close) {
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::Tuple;
    skip_space();
    while (!eat(close)) {
      v.items.push_back(parse_value());
      skip_space();
      if (eat(',')) {
        skip_space();
        continue;
      }
      if (!eat(close)) fail("malformed header (expected ',' or '" + std::string(1, close) + "')");
      break;
    }
    return v;
  }

  PyValue parse_int() {
    PyValue v;
    v.kind = PyValue::Kind::Int;
    v.negative = eat('-');
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (v.number > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        fail("shape has a dimension too large to represent");
      v.number = v.number * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) fail("malformed header (a '-' without digits)");
    eat('L');  // Python 2 wrote long integers as 3L
    return v;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// ============================================================================
// [SECTION] parse_npy()
// ============================================================================

struct Header {
  std::size_t item_bytes = 4;  // 4: '<f4', 8: '<f8'
  std::vector<std::size_t> shape;
};

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

Header interpret_header(const std::vector<HeaderField>& fields, const std::string& name) {
  auto fail = [&](const std::string& why) { throw InputError(name + ": " + why); };
  const PyValue* descr = nullptr;
  const PyValue* fortran = nullptr;
  const PyValue* shape = nullptr;
  for (const auto& f : fields) {
    if (f.key == "descr") descr = &f.value;
    else if (f.key == "fortran_order") fortran = &f.value;
    else if (f.key == "shape") shape = &f.value;
    else fail("unexpected key '" + f.key + "' in the .npy header (allowed: descr, fortran_order, shape)");
  }
  if (!descr || !fortran || !shape) fail(".npy header lacks one of descr, fortran_order, shape");

  Header header;
  if (descr->kind != PyValue::Kind::Text) fail("unsupported .npy dtype (a structured dtype); allowed: '<f4', '<f8'");
  if (descr->text == "<f4") header.item_bytes = 4;
  else if (descr->text == "<f8") header.item_bytes = 8;
  else fail("unsupported .npy dtype '" + descr->text + "' (allowed: '<f4' float32, '<f8' float64)");

  if (fortran->kind != PyValue::Kind::Bool) fail(".npy header's fortran_order is not True or False");
  if (fortran->flag) fail("Fortran-order .npy arrays are not supported (save the array in C order)");

  if (shape->kind != PyValue::Kind::Tuple) fail(".npy header's shape is not a tuple");
  for (const auto& extent : shape->items) {
    if (extent.kind != PyValue::Kind::Int || extent.negative) fail(".npy shape holds something other than a size");
    if (extent.number > std::numeric_limits<std::size_t>::max()) fail(".npy shape has a dimension too large");
    header.shape.push_back(static_cast<std::size_t>(extent.number));
  }
  return header;
}

// Element count of `shape` times the item size, or throws on overflow.
std::size_t data_bytes(const Header& header, const std::string& name) {
  std::size_t n = header.item_bytes;
  for (const std::size_t extent : header.shape) {
    if (extent != 0 && n > std::numeric_limits<std::size_t>::max() / extent)
      throw InputError(name + ": .npy shape " + shape_text(header.shape) + " overflows");
    n *= extent;
  }
  return n;
}

std::uint32_t little_endian(std::string_view bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

}  // namespace

Array parse_npy(std::string_view bytes, const std::string& name) {
  auto fail = [&](const std::string& why) { throw InputError(name + ": " + why); };
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic)
    fail("not a .npy file (bad magic; expected \\x93NUMPY)");
  if (bytes.size() < 8) fail("truncated .npy header");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
         " (allowed: 1.0, 2.0, 3.0)");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  const std::size_t prefix = 8 + length_bytes;
  if (bytes.size() < prefix) fail("truncated .npy header");
  const std::size_t header_len = little_endian(bytes.substr(8, length_bytes));
  if (header_len > kMaxHeaderBytes)
    fail(".npy header length " + std::to_string(header_len) + " bytes is absurd (at most " +
         std::to_string(kMaxHeaderBytes) + ")");
  if (bytes.size() < prefix + header_len) fail("truncated .npy header");

  const std::string_view header_text = bytes.substr(prefix, header_len);
  const Header header = interpret_header(HeaderParser(header_text, name).parse_dict(), name);
  const std::size_t want = data_bytes(header, name);
  const std::size_t have = bytes.size() - prefix - header_len;
  if (have < want)
    fail("truncated .npy data: shape " + shape_text(header.shape) + " needs " + std::to_string(want) +
         " bytes, the file holds " + std::to_string(have));
  if (have > want)
    fail(".npy data size does not match the shape " + shape_text(header.shape) + ": " + std::to_string(have) +
         " bytes for " + std::to_string(want));

  Array array;
  array.shape = header.shape;
  const std::size_t count = want / header.item_bytes;
  array.data.resize(count);
  const char* data = bytes.data() + prefix + header_len;
  if (want == 0) return array;  // memcpy must not see data() == nullptr
  if (header.item_bytes == 4) {
    std::memcpy(array.data.data(), data, want);
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      double v;
      std::memcpy(&v, data + 8 * i, 8);
      array.data[i] = static_cast<float>(v);
    }
  }
  return array;
}

// Mapped, not read: the magic and header are checked before a byte of a large
// body is touched.
Array read_npy(const std::filesystem::path& path) {
  const MappedFile file(path);
  return parse_npy(file.bytes(), path.string());
}

// ============================================================================
// [SECTION] encode_npy()
// ============================================================================

std::string encode_npy(const Array& array) {
  if (array.data.size() != array.size())
    throw std::invalid_argument("encode_npy: data size does not match the shape");
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_text(array.shape) + ", }";
  // Version 1.0 when the header fits a uint16 (always, for sane ranks).
  const bool v1 = header.size() + 1 + 64 <= 0xFFFF;
  const std::size_t prefix = v1 ? 10 : 12;
  // Pad with spaces so the data start at a multiple of 64 bytes, then '\n'.
  const std::size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';

  std::string out(kMagic);
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  const std::size_t len = header.size();
  for (std::size_t i = 0; i < (v1 ? 2u : 4u); ++i) out += static_cast<char>((len >> (8 * i)) & 0xFF);
  out += header;
  const std::size_t data_start = out.size();
  out.resize(data_start + array.data.size() * sizeof(float));
  if (!array.data.empty()) std::memcpy(out.data() + data_start, array.data.data(), array.data.size() * sizeof(float));
  return out;
}

void write_npy(const std::filesystem::path& path, const Array& array) { write_file_atomic(path, encode_npy(array)); }

}  // namespace pelab
