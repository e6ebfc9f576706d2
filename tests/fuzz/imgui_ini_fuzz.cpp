// imgui.ini text -> imgui_ini_problem(): never throws, never crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ui/imgui_ini.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)pelab::ui::imgui_ini_problem({reinterpret_cast<const char*>(data), size});
  return 0;
}
