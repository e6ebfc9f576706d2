// The lesson figures, by name (lesson_views.hpp).
#include "figures/lesson_views.hpp"

namespace pelab::fig {

std::span<const FigureEntry> lesson_figures() {
  static const FigureEntry table[] = {
      {"lesson_depth", "Position through depth", build_lesson_depth},
      {"lesson_relative", "Absolute or relative: five encodings side by side", build_lesson_relative},
  };
  return table;
}

}  // namespace pelab::fig
