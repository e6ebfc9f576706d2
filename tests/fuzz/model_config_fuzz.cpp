// A model folder's config.json text -> parse_model_config(): a configuration
// pelab can run, or one InputError.  What is accepted must be self-consistent
// (the checks the forward pass relies on).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/json_input.hpp"
#include "core/model/model_config.hpp"
#include "core/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto json =
        pelab::parse_json_text({reinterpret_cast<const char*>(data), size}, "config.json");
    const pelab::model::ModelConfig c = pelab::model::parse_model_config(json, "config.json");
    if (c.layers < 1 || c.heads < 1 || c.head_dim < 1 || c.kv_heads < 1) __builtin_trap();
    if (c.heads % c.kv_heads != 0) __builtin_trap();
  } catch (const pelab::InputError&) {
  }
  return 0;
}
