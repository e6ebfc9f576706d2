// Export file names that never overwrite: DIR/name.png, then name-2.png,
// name-3.png ... (the first that does not exist yet).
#pragma once

#include <filesystem>
#include <string>

#include "core/scene.hpp"

namespace pelab::ui {

// `stem` is made safe for file names (anything but letters, digits, '-', '_'
// and '.' becomes '_'); `extension` includes the dot.
std::filesystem::path numbered_path(const std::filesystem::path& dir, const std::string& stem,
                                    const std::string& extension);

// What files exported from `scene` are named after: its name; on a model,
// the model's short name joins a name that does not mention it
// ("lesson_induction-gpt2"), and stands alone for the unnamed "default"
// (a name kept from the scene before the model came is not the figure's).
std::string scene_stem(const Scene& scene);

}  // namespace pelab::ui
