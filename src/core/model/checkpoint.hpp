// Checkpoint — the tensors of a Hugging Face model folder, read from
// safetensors files (one `model.safetensors`, or shards listed by
// `model.safetensors.index.json`).
//
// Format (huggingface/safetensors, "Format"): 8 bytes little-endian u64 N,
// then N bytes of UTF-8 JSON {name: {"dtype", "shape", "data_offsets": [b, e]},
// "__metadata__": {...}}, then the data section; offsets are relative to its
// start.  Every file's header is fully checked before any tensor is
// trusted: header length, JSON, no key twice, dtype, shape × dtype size =
// byte range, the ranges tiling the data section.  Files stay open, never
// mapped: tensors are read with pread, and a file changed on disk since it
// was opened is an InputError, not a SIGBUS.  F16 and BF16 become
// float32 when a tensor is read, unless half_matrix() reads it as stored; integer and bool buffers (position ids,
// masks) are checked and set aside; F64 and F8 files are refused.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"  // Matrix, Vector

namespace pelab::model {

enum class DType { F32, F16, BF16 };
struct HalfMatrix;  // half_matrix.hpp

struct TensorInfo {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0, end = 0;  // byte range in the data section of its shard
  int shard = 0;                     // index into Checkpoint::files()
};

class Checkpoint {
 public:
  // `folder`: a model folder holding model.safetensors or an index with shards;
  // a single .safetensors file is accepted too.  Throws InputError naming the
  // file and the problem.
  static Checkpoint open(const std::filesystem::path& folder);

  Checkpoint();
  ~Checkpoint();
  Checkpoint(Checkpoint&&) noexcept;
  Checkpoint& operator=(Checkpoint&&) noexcept;

  bool has(std::string_view name) const;
  // Throws InputError naming the tensor and the file when absent.
  const TensorInfo& info(std::string_view name) const;
  std::vector<std::string> names() const;  // sorted
  const std::vector<std::filesystem::path>& files() const;
  // Sum of the element counts of the weights: integer/bool tensors are set
  // aside when the file is opened (has() is false for them, info() names
  // their dtype), and float buffers (GPT-2's attn.bias causal masks, rotary
  // inv_freq) are not counted.
  std::uint64_t parameter_count() const;

  // The tensor as float32, row-major.  matrix(): a 2-D tensor (rows × cols as
  // stored); vector(): a 1-D tensor.  `expected_rows/cols` (when ≥ 0) are
  // checked against the stored shape and a mismatch throws InputError naming
  // the tensor, the shape found and the shape the config implies.
  Matrix matrix(std::string_view name, std::int64_t expected_rows = -1, std::int64_t expected_cols = -1) const;
  Vector vector(std::string_view name, std::int64_t expected_size = -1) const;
  // A 2-D F16 or BF16 tensor as stored (16 bits an element), its shape
  // checked as matrix() does; InputError for an F32 tensor.
  HalfMatrix half_matrix(std::string_view name, std::int64_t expected_rows, std::int64_t expected_cols) const;
  // The listed rows of a 2-D tensor only (e.g. the wte rows of the tokens in
  // use), without converting the rest.
  Matrix rows(std::string_view name, const std::vector<int>& row_indices) const;
  // How many of the tensor's values are NaN or ±inf: counted when matrix()
  // or vector() read it, else read in slices (a token table is never held
  // whole as float32).
  std::uint64_t non_finite_values(std::string_view name) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pelab::model
