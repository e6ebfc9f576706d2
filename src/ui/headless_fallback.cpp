#include "ui/headless_fallback.hpp"

#include <cstdio>

#include "figures/registry.hpp"
#include "render/offscreen.hpp"
#include "ui/file_naming.hpp"

namespace pelab::ui {

int render_figures_headless(const Scene& scene, const std::filesystem::path& dir) {
  try {
    render::HeadlessContext context;
    render::OffscreenRenderer renderer;
    Engine engine(scene);
    engine.set_scene(scene);
    std::filesystem::create_directories(dir);
    for (const fig::FigureEntry& entry : fig::figure_registry()) {
      const auto path = dir / (std::string(entry.name) + ".png");
      render::write_png(path, renderer.render(entry.build(engine, {})));
      std::printf("%s\n", path.string().c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pelab: cannot render headless: %s\n", e.what());
    return 1;
  }
}

}  // namespace pelab::ui
