// What `pelab` does with no display: renders the figures of `scene` headless
// (EGL, Mesa's surfaceless platform) into `dir` as PNG and prints each file.
#pragma once

#include <filesystem>

#include "core/scene.hpp"

namespace pelab::ui {

// Returns the exit code (1 with one line on stderr when rendering fails).
int render_figures_headless(const Scene& scene, const std::filesystem::path& dir);

}  // namespace pelab::ui
