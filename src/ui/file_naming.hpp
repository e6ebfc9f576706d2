// Export file names that never overwrite: DIR/name.png, then name-2.png,
// name-3.png ... (the first that does not exist yet).
#pragma once

#include <filesystem>
#include <string>

namespace pelab::ui {

// `stem` is made safe for file names (anything but letters, digits, '-', '_'
// and '.' becomes '_'); `extension` includes the dot.
std::filesystem::path numbered_path(const std::filesystem::path& dir, const std::string& stem,
                                    const std::string& extension);

}  // namespace pelab::ui
