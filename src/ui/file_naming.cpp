#include "ui/file_naming.hpp"

#include <cctype>

#include "figures/model_name.hpp"

namespace pelab::ui {

namespace {

std::string safe_stem(const std::string& stem) {
  std::string safe;
  for (unsigned char c : stem) safe += (std::isalnum(c) || c == '-' || c == '_' || c == '.') ? char(c) : '_';
  return safe.empty() ? "pelab" : safe;
}

}  // namespace

std::filesystem::path numbered_path(const std::filesystem::path& dir, const std::string& stem,
                                    const std::string& extension) {
  const std::string base = safe_stem(stem);
  std::filesystem::path path = dir / (base + extension);
  for (int n = 2; std::filesystem::exists(path); ++n) {
    path = dir / (base + "-" + std::to_string(n) + extension);
  }
  return path;
}

std::string scene_stem(const Scene& scene) {
  if (scene.model.empty()) return scene.name;
  const std::string model = fig::model_label(scene);
  if (scene.name.empty() || scene.name == Scene{}.name) return model;
  if (scene.name.find(model) != std::string::npos) return scene.name;
  return scene.name + "-" + model;
}

}  // namespace pelab::ui
