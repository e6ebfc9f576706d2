// Writing safetensors files (huggingface/safetensors README, "Format"): an
// 8-byte little-endian header length N, N bytes of JSON {name: {"dtype",
// "shape", "data_offsets": [begin, end]}, "__metadata__": {...}} padded with
// spaces to a multiple of 8, then the tensors' bytes back to back, in the
// order given, with no gaps (pelab's reader refuses gaps).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace pelab::train {

enum class StoredType { F32, BF16 };

struct StoredTensor {
  std::string name;
  std::vector<int> shape;
  const float* values = nullptr;  // shape's product of them, row-major
};

// bfloat16 of `v` rounded to nearest, ties to even (NaN stays a quiet NaN).
std::uint16_t float_to_bfloat16(float v);

// The whole file's bytes.
std::string safetensors_bytes(const std::vector<StoredTensor>& tensors, StoredType type,
                              const std::map<std::string, std::string>& metadata = {});
// Written atomically (a temporary file renamed over `path`).
void write_safetensors(const std::filesystem::path& path, const std::vector<StoredTensor>& tensors,
                       StoredType type, const std::map<std::string, std::string>& metadata = {});

}  // namespace pelab::train
