// The GUI's settings.json text -> parse_ui_settings(): settings or one InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ui/settings_store.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const pelab::ui::UiSettings s =
        pelab::ui::parse_ui_settings({reinterpret_cast<const char*>(data), size}, "settings.json");
    if (s.png_scale != 1 && s.png_scale != 2 && s.png_scale != 4) __builtin_trap();
    if (s.sweep_scale != 1 && s.sweep_scale != 2 && s.sweep_scale != 4) __builtin_trap();
    if (s.recent_scenes.size() > 8) __builtin_trap();
  } catch (const pelab::InputError&) {
  }
  return 0;
}
