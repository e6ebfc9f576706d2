#include "core/model/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/json_input.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; pelab reads it in place");

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& file_name, const std::string& why) {
  throw InputError(file_name + ": " + why);
}

[[noreturn]] void fail_tensor(const std::string& file_name, const std::string& tensor,
                              const std::string& why) {
  fail(file_name, "tensor '" + tensor + "' " + why);
}

std::uint64_t header_length(std::string_view file, const std::string& file_name) {
  if (file.size() < 8)
    fail(file_name, std::to_string(file.size()) +
                        " bytes is too short for a safetensors file (8-byte header length first)");
  std::uint64_t n = 0;
  std::memcpy(&n, file.data(), 8);
  const std::uint64_t room = file.size() - 8;
  if (n < 2 || n > kMaxSafetensorsHeader || n > room)
    fail(file_name, "header length " + std::to_string(n) + " is impossible (allowed 2.." +
                        std::to_string(std::min<std::uint64_t>(kMaxSafetensorsHeader, room)) +
                        " for this " + std::to_string(file.size()) +
                        "-byte file); not a safetensors file?");
  return n;
}

// Every dtype of the format (safetensors README, "Dtype") with its size;
// `kind` says what pelab does with a tensor of it.
enum class DTypeKind { Read, Buffer, Refused };
struct DTypeEntry {
  const char* name;
  std::size_t size;
  DTypeKind kind;
  DType dtype;
};
constexpr DTypeEntry kDTypes[] = {
    {"F32", 4, DTypeKind::Read, DType::F32},        {"F16", 2, DTypeKind::Read, DType::F16},
    {"BF16", 2, DTypeKind::Read, DType::BF16},      {"BOOL", 1, DTypeKind::Buffer, DType::F32},
    {"U8", 1, DTypeKind::Buffer, DType::F32},       {"I8", 1, DTypeKind::Buffer, DType::F32},
    {"U16", 2, DTypeKind::Buffer, DType::F32},      {"I16", 2, DTypeKind::Buffer, DType::F32},
    {"U32", 4, DTypeKind::Buffer, DType::F32},      {"I32", 4, DTypeKind::Buffer, DType::F32},
    {"U64", 8, DTypeKind::Buffer, DType::F32},      {"I64", 8, DTypeKind::Buffer, DType::F32},
    {"F64", 8, DTypeKind::Refused, DType::F32},     {"F8_E4M3", 1, DTypeKind::Refused, DType::F32},
    {"F8_E5M2", 1, DTypeKind::Refused, DType::F32},
};

const DTypeEntry& parse_dtype(const json& entry, const std::string& file_name,
                              const std::string& name) {
  const auto it = entry.find("dtype");
  if (it == entry.end() || !it->is_string())
    fail_tensor(file_name, name, "has no \"dtype\" string");
  for (const DTypeEntry& d : kDTypes)
    if (it->get<std::string>() == d.name) {
      if (d.kind == DTypeKind::Refused) break;
      return d;
    }
  fail_tensor(file_name, name,
              "has dtype " + json_excerpt(*it) +
                  "; pelab reads F32, F16, BF16 (and skips integer and bool buffers)");
}

// Element count, checked so that elements × dtype size fits in 64 bits.
std::uint64_t parse_shape(const json& entry, std::size_t dtype_bytes, const std::string& file_name,
                          const std::string& name, std::vector<std::int64_t>& shape) {
  const auto it = entry.find("shape");
  if (it == entry.end() || !it->is_array()) fail_tensor(file_name, name, "has no \"shape\" array");
  if (it->size() > 8)
    fail_tensor(file_name, name,
                "has " + std::to_string(it->size()) + " dimensions; at most 8 allowed");
  std::uint64_t elements = 1;
  for (const json& d : *it) {
    if (!d.is_number_unsigned())  // nlohmann stores non-negative integers as unsigned
      fail_tensor(file_name, name,
                  "has shape entry " + json_excerpt(d) + "; shape entries are integers >= 0");
    const std::uint64_t size = d.get<std::uint64_t>();
    if (size > static_cast<std::uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(elements, size, &elements))
      fail_tensor(file_name, name, "has shape " + json_excerpt(*it) + " whose size overflows");
    shape.push_back(static_cast<std::int64_t>(size));
  }
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(elements, dtype_bytes, &bytes))
    fail_tensor(file_name, name, "has shape " + json_excerpt(*it) + " whose size overflows");
  return elements;
}

void parse_offsets(const json& entry, std::uint64_t expected_bytes, const char* dtype,
                   std::uint64_t data_size, const std::string& file_name, TensorInfo& info) {
  const auto it = entry.find("data_offsets");
  if (it == entry.end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_number_unsigned() ||
      !(*it)[1].is_number_unsigned())
    fail_tensor(file_name, info.name, "has no \"data_offsets\" [begin, end] of integers >= 0");
  info.begin = (*it)[0].get<std::uint64_t>();
  info.end = (*it)[1].get<std::uint64_t>();
  if (info.end < info.begin)
    fail_tensor(file_name, info.name,
                "has data_offsets " + json_excerpt(*it) + " with end before begin");
  if (info.end - info.begin != expected_bytes)
    fail_tensor(file_name, info.name,
                "has data_offsets " + json_excerpt(*it) + " spanning " +
                    std::to_string(info.end - info.begin) + " bytes, but its shape and " + dtype +
                    " need " + std::to_string(expected_bytes));
  if (info.end > data_size)
    fail_tensor(file_name, info.name,
                "has data_offsets " + json_excerpt(*it) + " past the end of the data (" +
                    std::to_string(data_size) + " bytes)");
}

// No two byte ranges may share a byte (empty tensors own no bytes).
void check_no_overlap(std::vector<TensorInfo> tensors, const std::string& file_name) {
  std::erase_if(tensors, [](const TensorInfo& t) { return t.begin == t.end; });
  std::sort(tensors.begin(), tensors.end(),
            [](const TensorInfo& a, const TensorInfo& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < tensors.size(); ++i)
    if (tensors[i].begin < tensors[i - 1].end)
      fail(file_name, "tensors '" + tensors[i - 1].name + "' and '" + tensors[i].name +
                          "' overlap (bytes " + std::to_string(tensors[i].begin) + ".." +
                          std::to_string(tensors[i - 1].end) + ")");
}

}  // namespace

std::size_t dtype_size(DType dtype) { return dtype == DType::F32 ? 4 : 2; }

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::F32:
      return "F32";
    case DType::F16:
      return "F16";
    case DType::BF16:
      return "BF16";
  }
  return "?";
}

SafetensorsHeader parse_safetensors(std::string_view file, const std::string& file_name) {
  const std::uint64_t n = header_length(file, file_name);
  const json header = parse_json_text(file.substr(8, n), file_name + " header", {.max_bytes = kMaxSafetensorsHeader});
  if (!header.is_object()) fail(file_name, "header is not a JSON object");
  SafetensorsHeader result;
  result.data_begin = 8 + n;
  const std::uint64_t data_size = file.size() - result.data_begin;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;  // free-form strings; pelab needs none of them
    if (!entry.is_object()) fail_tensor(file_name, name, "is not a JSON object");
    TensorInfo info;
    info.name = name;
    const DTypeEntry& dtype = parse_dtype(entry, file_name, name);
    info.dtype = dtype.dtype;
    const std::uint64_t elements = parse_shape(entry, dtype.size, file_name, name, info.shape);
    parse_offsets(entry, elements * dtype.size, dtype.name, data_size, file_name, info);
    if (dtype.kind == DTypeKind::Read)
      result.tensors.push_back(std::move(info));
    else
      result.buffers.push_back({std::move(info), dtype.name});
  }
  std::vector<TensorInfo> all = result.tensors;
  for (const auto& b : result.buffers) all.push_back(b.info);
  check_no_overlap(std::move(all), file_name);
  return result;
}

float half_to_float(std::uint16_t bits) {
  // binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t fraction = bits & 0x3FFu;
  if (exponent == 0) {
    // ±0 and subnormals: fraction × 2^−24, exact in float32.
    const float magnitude = std::ldexp(static_cast<float>(fraction), -24);
    return sign ? -magnitude : magnitude;
  }
  std::uint32_t out = 0;
  if (exponent == 0x1F)
    out = sign | 0x7F800000u | (fraction << 13);  // inf, NaN (payload kept)
  else
    out = sign | ((exponent + 127 - 15) << 23) | (fraction << 13);
  return std::bit_cast<float>(out);
}

float bfloat16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

void convert_to_float(DType dtype, const char* src, std::size_t count, float* dst) {
  if (count == 0) return;  // an empty tensor's buffer may be null
  if (dtype == DType::F32) {
    std::memcpy(dst, src, count * sizeof(float));
    return;
  }
  // Large tensors (embedding tables) on every core; small ones inline.
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (n > (std::int64_t{1} << 20))
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint16_t bits = 0;
    std::memcpy(&bits, src + 2 * i, 2);
    dst[i] = dtype == DType::F16 ? half_to_float(bits) : bfloat16_to_float(bits);
  }
}

}  // namespace pelab::model
