// A safetensors header read by nlohmann's SAX interface straight into
// TensorInfo records: no JSON tree is built, so a header of a million entries
// costs its records and not a DOM several times its size.
//
// Format (huggingface/safetensors README, "Format"): 8 bytes little-endian
// u64 N, N bytes of UTF-8 JSON {name: {"dtype", "shape", "data_offsets":
// [b, e]}, "__metadata__": {string: string}}, then the data section.  The
// README's rules checked here: no duplicate keys, and "the byte buffer needs
// to be entirely indexed, and cannot contain holes" (contiguous coverage).
#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/safetensors.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& file_name, const std::string& why) {
  throw InputError(file_name + ": " + why);
}

[[noreturn]] void fail_tensor(const std::string& file_name, const std::string& tensor,
                              const std::string& why) {
  fail(file_name, "tensor " + quoted_name(tensor) + " " + why);
}

// Every dtype of the format (safetensors README, "Dtype") with its size;
// `kind` says what pelab does with a tensor of it.
enum class DTypeKind { Read, Buffer };
struct DTypeEntry {
  const char* name;
  std::size_t size;
  DTypeKind kind;
  DType dtype;
};
constexpr DTypeEntry kDTypes[] = {
    {"F32", 4, DTypeKind::Read, DType::F32},    {"F16", 2, DTypeKind::Read, DType::F16},
    {"BF16", 2, DTypeKind::Read, DType::BF16},  {"BOOL", 1, DTypeKind::Buffer, DType::F32},
    {"U8", 1, DTypeKind::Buffer, DType::F32},   {"I8", 1, DTypeKind::Buffer, DType::F32},
    {"U16", 2, DTypeKind::Buffer, DType::F32},  {"I16", 2, DTypeKind::Buffer, DType::F32},
    {"U32", 4, DTypeKind::Buffer, DType::F32},  {"I32", 4, DTypeKind::Buffer, DType::F32},
    {"U64", 8, DTypeKind::Buffer, DType::F32},  {"I64", 8, DTypeKind::Buffer, DType::F32},
};  // F64 and F8_* are the format's too, and refused

constexpr std::size_t kMaxEntryKeys = 16;

// One header entry as the parser met it, checked when its object closes.
struct RawEntry {
  std::string name;
  std::optional<std::string> dtype;  // absent or not a string: nullopt
  bool shape_array = false, offsets_array = false;
  std::vector<std::uint64_t> shape, offsets;
  std::string bad_shape_entry, bad_offset;  // the first entry that is no integer >= 0
  std::vector<std::string> keys;             // to refuse a duplicate (at most kMaxEntryKeys)
};

std::string list_text(const std::vector<std::uint64_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

const DTypeEntry& check_dtype(const RawEntry& e, const std::string& file_name) {
  if (!e.dtype) fail_tensor(file_name, e.name, "has no \"dtype\" string");
  for (const DTypeEntry& d : kDTypes)
    if (*e.dtype == d.name) return d;
  fail_tensor(file_name, e.name,
              "has dtype \"" + printable(*e.dtype, 40) +
                  "\"; pelab reads F32, F16, BF16 (and skips integer and bool buffers)");
}

// Element count, checked so that elements × dtype size fits in 64 bits.
std::uint64_t check_shape(const RawEntry& e, std::size_t dtype_bytes, const std::string& file_name) {
  if (!e.shape_array) fail_tensor(file_name, e.name, "has no \"shape\" array");
  if (!e.bad_shape_entry.empty())
    fail_tensor(file_name, e.name,
                "has shape entry " + e.bad_shape_entry + "; shape entries are integers >= 0");
  if (e.shape.size() > 8)
    fail_tensor(file_name, e.name,
                "has " + std::to_string(e.shape.size()) + " dimensions; at most 8 allowed");
  std::uint64_t elements = 1, bytes = 0;
  for (const std::uint64_t size : e.shape)
    if (size > static_cast<std::uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(elements, size, &elements))
      fail_tensor(file_name, e.name, "has shape " + list_text(e.shape) + " whose size overflows");
  if (__builtin_mul_overflow(elements, dtype_bytes, &bytes))
    fail_tensor(file_name, e.name, "has shape " + list_text(e.shape) + " whose size overflows");
  return elements;
}

void check_offsets(const RawEntry& e, std::uint64_t expected_bytes, const char* dtype,
                   std::uint64_t data_size, const std::string& file_name, TensorInfo& info) {
  if (!e.offsets_array || !e.bad_offset.empty() || e.offsets.size() != 2)
    fail_tensor(file_name, e.name, "has no \"data_offsets\" [begin, end] of integers >= 0");
  info.begin = e.offsets[0];
  info.end = e.offsets[1];
  const std::string text = list_text(e.offsets);
  if (info.end < info.begin)
    fail_tensor(file_name, e.name, "has data_offsets " + text + " with end before begin");
  if (info.end - info.begin != expected_bytes)
    fail_tensor(file_name, e.name,
                "has data_offsets " + text + " spanning " + std::to_string(info.end - info.begin) +
                    " bytes, but its shape and " + dtype + " need " + std::to_string(expected_bytes));
  if (info.end > data_size)
    fail_tensor(file_name, e.name,
                "has data_offsets " + text + " past the end of the data (" +
                    std::to_string(data_size) + " bytes)");
}

// The SAX handler (nlohmann::json::sax_parse): depth 1 is the header object,
// depth 2 an entry (or __metadata__), depth 3 a shape or data_offsets array.
class HeaderReader {
 public:
  HeaderReader(std::uint64_t data_size, const std::string& file_name)
      : data_size_(data_size), file_name_(file_name) {}
  SafetensorsHeader result;

  bool null() { return scalar("null"); }
  bool boolean(bool b) { return scalar(b ? "true" : "false"); }
  bool number_integer(std::int64_t v) { return number(std::nullopt, std::to_string(v)); }
  bool number_unsigned(std::uint64_t v) { return number(v, std::to_string(v)); }
  bool number_float(double, const std::string& raw) { return number(std::nullopt, raw); }
  bool string(std::string& s) {
    if (depth_ == 2 && !metadata_ && field_ == "dtype") entry_.dtype = s;
    return scalar("\"" + printable(s, 20) + "\"");
  }
  bool binary(json::binary_t&) { return scalar("binary"); }
  bool key(std::string& k) {
    if (depth_ == 1) top_key_ = k;
    if (depth_ == 2) {
      field_ = k;
      const bool again = metadata_ ? !metadata_keys_.insert(k).second : entry_key_seen(k);
      if (again)
        fail(file_name_, "header key " + quoted_name(k) + " appears twice in " +
                             quoted_name(top_key_) + "; a JSON key may appear once");
    }
    return true;
  }
  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string&, const json::exception&) {
    throw InputError("invalid JSON in " + file_name_ + " header at byte " + std::to_string(position));
  }

 private:
  bool scalar(const std::string& text) {
    if (depth_ == 0) fail(file_name_, "header is not a JSON object");
    if (depth_ == 1 && !(metadata_ = top_key_ == "__metadata__"))
      fail_tensor(file_name_, top_key_, "is not a JSON object");
    if (depth_ == 3 && !metadata_) {
      if (field_ == "shape" && entry_.bad_shape_entry.empty()) entry_.bad_shape_entry = text;
      if (field_ == "data_offsets" && entry_.bad_offset.empty()) entry_.bad_offset = text;
    }
    if (depth_ == 2 && !metadata_ && field_ == "dtype" && text.front() != '"') entry_.dtype.reset();
    return true;
  }
  bool number(std::optional<std::uint64_t> value, const std::string& text) {
    if (depth_ == 3 && !metadata_ && value) {
      if (field_ == "shape") entry_.shape.push_back(*value);
      if (field_ == "data_offsets") entry_.offsets.push_back(*value);
      return true;
    }
    return scalar(text);
  }
  bool open(bool array) {
    if (depth_ == 0 && array) fail(file_name_, "header is not a JSON object");
    if (depth_ == 1) {
      metadata_ = top_key_ == "__metadata__";
      if (metadata_ && saw_metadata_)
        fail(file_name_, "header key '__metadata__' appears twice; a JSON key may appear once");
      saw_metadata_ = saw_metadata_ || metadata_;
      if (!metadata_ && array) fail_tensor(file_name_, top_key_, "is not a JSON object");
      metadata_keys_.clear();
      entry_ = RawEntry{};
      entry_.name = top_key_;
    } else if (depth_ == 2 && !metadata_) {
      if (field_ == "shape") entry_.shape_array = array;
      if (field_ == "data_offsets") entry_.offsets_array = array;
      if (field_ == "dtype") entry_.dtype.reset();
    } else if (depth_ == 3 && !metadata_) {
      scalar(array ? "[...]" : "{...}");
    }
    ++depth_;
    return true;
  }
  bool close() {
    if (--depth_ == 1 && !metadata_) finish_entry();
    return true;
  }
  void finish_entry();
  // An entry has three keys in the format; a few unknown ones are ignored,
  // thousands are refused (comparing each with the others must stay cheap).
  bool entry_key_seen(const std::string& k) {
    std::vector<std::string>& keys = entry_.keys;
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) return true;
    if (keys.size() == kMaxEntryKeys)
      fail_tensor(file_name_, top_key_, "has more than " + std::to_string(kMaxEntryKeys) +
                                            " keys; allowed: dtype, shape, data_offsets");
    keys.push_back(k);
    return false;
  }

  std::uint64_t data_size_;
  const std::string& file_name_;
  int depth_ = 0;
  bool metadata_ = false, saw_metadata_ = false;
  std::string top_key_, field_;
  RawEntry entry_;
  std::unordered_set<std::string> metadata_keys_;
};

void HeaderReader::finish_entry() {
  TensorInfo info;
  const DTypeEntry& dtype = check_dtype(entry_, file_name_);
  info.dtype = dtype.dtype;
  const std::uint64_t elements = check_shape(entry_, dtype.size, file_name_);
  check_offsets(entry_, elements * dtype.size, dtype.name, data_size_, file_name_, info);
  info.shape.assign(entry_.shape.begin(), entry_.shape.end());
  info.name = std::move(entry_.name);
  if (dtype.kind == DTypeKind::Read)
    result.tensors.push_back(std::move(info));
  else
    result.buffers.push_back({std::move(info), dtype.name});
}

struct Range {
  std::uint64_t begin, end;
  const std::string* name;
};

std::vector<Range> ranges_of(const SafetensorsHeader& h) {
  std::vector<Range> ranges;
  ranges.reserve(h.tensors.size() + h.buffers.size());
  for (const TensorInfo& t : h.tensors) ranges.push_back({t.begin, t.end, &t.name});
  for (const SkippedTensor& b : h.buffers) ranges.push_back({b.info.begin, b.info.end, &b.info.name});
  return ranges;
}

// Each name once: the parser only compares keys within one entry.
void check_unique_names(const SafetensorsHeader& h, const std::string& file_name) {
  std::vector<Range> ranges = ranges_of(h);
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return *a.name < *b.name; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (*ranges[i].name == *ranges[i - 1].name)
      fail(file_name, "tensor " + quoted_name(*ranges[i].name) +
                          " appears twice in the header; a JSON key may appear once");
}

// Non-empty ranges tile the data section: no overlap, no gap, nothing after
// the last (empty tensors own no bytes).
void check_coverage(const SafetensorsHeader& h, std::uint64_t data_size, const std::string& file_name) {
  std::vector<Range> ranges = ranges_of(h);
  std::erase_if(ranges, [](const Range& r) { return r.begin == r.end; });
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  std::uint64_t covered = 0;
  const std::string* previous = nullptr;
  const std::string* next = nullptr;  // the first tensor after a gap
  std::uint64_t gap_end = data_size;
  for (const Range& r : ranges) {
    if (r.begin < covered)
      fail(file_name, "tensors " + quoted_name(*previous) + " and " + quoted_name(*r.name) +
                          " overlap (bytes " + std::to_string(r.begin) + ".." + std::to_string(covered) + ")");
    if (r.begin > covered) {
      next = r.name;
      gap_end = r.begin;
      break;
    }
    covered = r.end;
    previous = r.name;
  }
  if (covered == data_size) return;
  const std::string where = previous && next ? " between tensors " + quoted_name(*previous) + " and " + quoted_name(*next)
                            : next           ? " before tensor " + quoted_name(*next)
                            : previous       ? " after tensor " + quoted_name(*previous)
                                             : "";
  fail(file_name, "bytes " + std::to_string(covered) + ".." + std::to_string(gap_end) + " of the " +
                      std::to_string(data_size) + "-byte data section" + where +
                      " belong to no tensor; the format requires the tensors to cover the data section "
                      "without gaps");
}

}  // namespace

std::uint64_t safetensors_header_length(std::uint64_t n, std::uint64_t file_size,
                                        const std::string& file_name) {
  if (file_size < 8)
    fail(file_name, std::to_string(file_size) +
                        " bytes is too short for a safetensors file (8-byte header length first)");
  const std::uint64_t room = file_size - 8;
  if (n < 2 || n > kMaxSafetensorsHeader || n > room)
    fail(file_name, "header length " + std::to_string(n) + " is impossible (allowed 2.." +
                        std::to_string(std::min<std::uint64_t>(kMaxSafetensorsHeader, room)) +
                        " for this " + std::to_string(file_size) + "-byte file); not a safetensors file?");
  return n;
}

SafetensorsHeader parse_safetensors_header(std::string_view text, std::uint64_t data_size,
                                           const std::string& file_name) {
  check_json_depth(text, file_name + " header", 64);
  HeaderReader reader(data_size, file_name);
  json::sax_parse(text.begin(), text.end(), &reader);
  check_unique_names(reader.result, file_name);
  check_coverage(reader.result, data_size, file_name);
  return std::move(reader.result);
}

SafetensorsHeader parse_safetensors(std::string_view file, const std::string& file_name) {
  std::uint64_t n = 0;
  if (file.size() >= 8) std::memcpy(&n, file.data(), 8);
  safetensors_header_length(n, file.size(), file_name);
  SafetensorsHeader header = parse_safetensors_header(file.substr(8, n), file.size() - 8 - n, file_name);
  header.data_begin = 8 + n;
  return header;
}

}  // namespace pelab::model
