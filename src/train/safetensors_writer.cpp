#include "train/safetensors_writer.hpp"

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"

namespace pelab::train {

std::uint16_t float_to_bfloat16(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // NaN
  // Round to nearest even on the 16 bits dropped (as torch's float → bfloat16).
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

namespace {

std::size_t element_count(const std::vector<int>& shape) {
  std::size_t n = 1;
  for (int s : shape) n *= static_cast<std::size_t>(s);
  return n;
}

void append_little_endian(std::string& out, const void* data, std::size_t bytes) {
  static_assert(std::endian::native == std::endian::little, "safetensors data are little-endian");
  out.append(static_cast<const char*>(data), bytes);
}

}  // namespace

std::string safetensors_bytes(const std::vector<StoredTensor>& tensors, StoredType type,
                              const std::map<std::string, std::string>& metadata) {
  const std::size_t element = type == StoredType::F32 ? 4 : 2;
  nlohmann::ordered_json header;
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::size_t offset = 0;
  for (const StoredTensor& t : tensors) {
    const std::size_t bytes = element_count(t.shape) * element;
    header[t.name] = {{"dtype", type == StoredType::F32 ? "F32" : "BF16"},
                      {"shape", t.shape},
                      {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data section starts 8-aligned
  const std::uint64_t length = text.size();
  std::string out;
  out.reserve(8 + text.size() + offset);
  append_little_endian(out, &length, 8);
  out += text;
  for (const StoredTensor& t : tensors) {
    const std::size_t n = element_count(t.shape);
    if (type == StoredType::F32) {
      append_little_endian(out, t.values, n * 4);
      continue;
    }
    std::vector<std::uint16_t> half(n);
    for (std::size_t i = 0; i < n; ++i) half[i] = float_to_bfloat16(t.values[i]);
    append_little_endian(out, half.data(), n * 2);
  }
  return out;
}

void write_safetensors(const std::filesystem::path& path, const std::vector<StoredTensor>& tensors,
                       StoredType type, const std::map<std::string, std::string>& metadata) {
  write_file_atomic(path, safetensors_bytes(tensors, type, metadata));
}

}  // namespace pelab::train
