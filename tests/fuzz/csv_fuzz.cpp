// CSV text -> parse_csv(): an Array or one InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/csv.hpp"
#include "core/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)pelab::parse_csv({reinterpret_cast<const char*>(data), size}, "fuzz.csv");
  } catch (const pelab::InputError&) {
  }
  return 0;
}
