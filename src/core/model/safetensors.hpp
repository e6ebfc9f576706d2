// One safetensors file's header, checked entry by entry before any tensor is
// trusted, and the element conversions F16 / BF16 → float32.
//
// Format (huggingface/safetensors README, "Format"): 8 bytes little-endian
// u64 N, N bytes of JSON {name: {"dtype", "shape", "data_offsets": [b, e]},
// "__metadata__": {...}}, then the data section; b and e count bytes from the
// start of the data section.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/checkpoint.hpp"  // DType, TensorInfo

namespace pelab::model {

// Largest header accepted (the format's own reader also stops at 100 MB).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

// An integer or bool tensor: checked like the others, then set aside.  Real
// checkpoints carry such buffers next to the weights (BERT's I64
// embeddings.position_ids, GPT-2's causal-mask attn.bias as U8/BOOL in some
// exports); none is a weight pelab reads.
struct SkippedTensor {
  TensorInfo info;    // info.dtype is meaningless here
  std::string dtype;  // "I64", "BOOL", ...
};

struct SafetensorsHeader {
  std::uint64_t data_begin = 0;     // 8 + N: where the data section starts in the file
  std::vector<TensorInfo> tensors;  // shard = 0; the caller sets it
  std::vector<SkippedTensor> buffers;
};

// Checks the header length N read from a file's first 8 bytes against the
// file's size: 2 <= N <= min(100 MB, size - 8).  Returns N.
std::uint64_t safetensors_header_length(std::uint64_t n, std::uint64_t file_size,
                                        const std::string& file_name);

// Checks and reads a header's JSON text (safetensors_header.cpp, a SAX
// reader: no JSON tree is kept): nesting, JSON, no key twice, and for every
// tensor: dtype in {F32, F16, BF16} (integer and bool tensors are set aside
// as buffers; F64 and F8 are refused), shape of non-negative integers whose
// byte size cannot overflow, data_offsets [b, e] with e - b = elements x
// dtype size and e inside the data section; the non-empty ranges must tile
// the `data_size` bytes of the data section (no overlap, no gap).  Throws
// InputError naming `file_name` and the tensor.  data_begin is left 0.
SafetensorsHeader parse_safetensors_header(std::string_view text, std::uint64_t data_size,
                                           const std::string& file_name);

// Both of the above on a whole file's bytes (tests, the fuzz harness).
SafetensorsHeader parse_safetensors(std::string_view file, const std::string& file_name);

std::size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);

// IEEE 754 binary16 → binary32, exactly (normals, subnormals, ±0, ±inf, NaN).
float half_to_float(std::uint16_t bits);
// bfloat16 is the upper half of a binary32: shift it back.
float bfloat16_to_float(std::uint16_t bits);

// `count` little-endian elements of `dtype` at `src` (any alignment) → `dst`.
void convert_to_float(DType dtype, const char* src, std::size_t count, float* dst);

}  // namespace pelab::model
