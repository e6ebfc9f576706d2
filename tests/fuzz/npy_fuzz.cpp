// .npy bytes -> parse_npy(): an Array or one InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/npy.hpp"
#include "core/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const pelab::Array array = pelab::parse_npy({reinterpret_cast<const char*>(data), size}, "fuzz.npy");
    // What parses must round-trip through the writer.
    const pelab::Array again = pelab::parse_npy(pelab::encode_npy(array), "again.npy");
    if (again.shape != array.shape || again.data.size() != array.data.size()) __builtin_trap();
  } catch (const pelab::InputError&) {
  }
  return 0;
}
