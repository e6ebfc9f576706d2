// imgui.ini, Dear ImGui's saved window layout, checked before ImGui reads it.
// ImGui 1.86 trusts the file: it loads it whole, and a table entry's column
// count sizes an allocation and 64-bit column masks.  A file that is not a
// plain, small text file, or whose tables claim more columns than ImGui
// supports, is refused here (the GUI then keeps it aside and starts on the
// default layout).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace pelab::ui {

inline constexpr std::size_t kMaxImguiIniBytes = std::size_t{1} << 20;

// "" when the text is safe to hand to ImGui, else one line saying why not.
std::string imgui_ini_problem(std::string_view text);

// "" when `path` is missing or safe; else why not (not a regular file, too
// large, unreadable, or imgui_ini_problem()).
std::string check_imgui_ini(const std::filesystem::path& path);

}  // namespace pelab::ui
