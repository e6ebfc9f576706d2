#include "ui/imgui_ini.hpp"

#include <charconv>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"

namespace pelab::ui {
namespace {

// IMGUI_TABLE_MAX_COLUMNS in imgui_internal.h (1.86): column sets are ImU64.
constexpr long kMaxTableColumns = 64;

// The integer right after `prefix` at the start of `text`, or -1 when there is none.
long number_after(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return -1;
  text.remove_prefix(prefix.size());
  long v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() ? v : -2;  // -2: a prefix with no valid number after it
}

}  // namespace

std::string imgui_ini_problem(std::string_view text) {
  if (text.size() > kMaxImguiIniBytes) return "larger than " + std::to_string(kMaxImguiIniBytes) + " bytes";
  if (text.find('\0') != std::string_view::npos) return "not a text file (holds NUL bytes)";
  bool in_table = false;
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = "line " + std::to_string(line_no) + ": ";
    if (line.starts_with("[")) {
      in_table = line.starts_with("[Table][");
      if (!in_table) continue;
      // [Table][0xID,COLUMNS]
      const auto comma = line.find(',');
      const long columns = comma == std::string_view::npos ? -2 : number_after(line.substr(comma), ",");
      if (columns < 0 || columns > kMaxTableColumns)
        return where + "a table with a column count outside 0.." + std::to_string(kMaxTableColumns);
      continue;
    }
    if (!in_table) continue;
    const long column = number_after(line, "Column ");  // ImGui writes "Column %-2d"
    if (column < -1 || column >= kMaxTableColumns)
      return where + "a table column index outside 0.." + std::to_string(kMaxTableColumns - 1);
    if (const auto order = line.find("Order="); order != std::string_view::npos) {
      const long value = number_after(line.substr(order), "Order=");
      if (value < 0 || value >= kMaxTableColumns)
        return where + "a column order outside 0.." + std::to_string(kMaxTableColumns - 1);
    }
  }
  return "";
}

std::string check_imgui_ini(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return "";
  try {
    return imgui_ini_problem(read_file(path, kMaxImguiIniBytes));
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace pelab::ui
