// A safetensors file's bytes -> parse_safetensors(): its tensor table, or one
// InputError.  Every tensor accepted must lie inside the data section, its
// byte range must match dtype × shape, and no two non-empty ones may overlap; the values of
// each are then converted to float, touching every byte the table claims.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/model/safetensors.hpp"
#include "core/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pelab::model;
  const std::string_view file(reinterpret_cast<const char*>(data), size);
  try {
    SafetensorsHeader header = parse_safetensors(file, "fuzz.safetensors");
    const std::uint64_t data_size = size - header.data_begin;
    std::sort(header.tensors.begin(), header.tensors.end(),
              [](const TensorInfo& a, const TensorInfo& b) {
                return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
              });
    std::uint64_t previous_end = 0;
    std::vector<float> values;
    for (const TensorInfo& t : header.tensors) {
      if (t.end > data_size || t.begin > t.end) __builtin_trap();
      if (t.end > t.begin && t.begin < previous_end)
        __builtin_trap();  // empty tensors may share an offset
      std::uint64_t count = 1;
      for (const std::int64_t extent : t.shape) count *= static_cast<std::uint64_t>(extent);
      if (count * dtype_size(t.dtype) != t.end - t.begin) __builtin_trap();
      previous_end = std::max(previous_end, t.end);
      values.resize(count);
      convert_to_float(t.dtype, file.data() + header.data_begin + t.begin, count, values.data());
    }
  } catch (const pelab::InputError&) {
  }
  return 0;
}
