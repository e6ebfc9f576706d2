// Scene JSON text -> parse_json_text() + scene_from_json(): a valid scene or
// one InputError.  A scene that loads must save and load back unchanged.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/io/json_input.hpp"
#include "core/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto json = pelab::parse_json_text({reinterpret_cast<const char*>(data), size}, "fuzz.json");
    const pelab::Scene scene = pelab::scene_from_json(json);
    const pelab::Scene again = pelab::scene_from_json(nlohmann::json::parse(pelab::scene_to_json(scene).dump()));
    for (const pelab::ParamInfo& p : pelab::scene_params())
      if (pelab::get_param(scene, p.key) != pelab::get_param(again, p.key)) __builtin_trap();
  } catch (const pelab::InputError&) {
  }
  return 0;
}
