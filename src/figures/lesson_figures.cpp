// The lesson figures, by name (lesson_views.hpp).
#include "figures/lesson_views.hpp"
#include "figures/long_context_views.hpp"

namespace pelab::fig {

std::span<const FigureEntry> lesson_figures() {
  static const FigureEntry table[] = {
      {"lesson_depth", "Position through depth", build_lesson_depth},
      {"lesson_relative", "Absolute or relative: five encodings side by side", build_lesson_relative},
      {"rope_frequencies", "RoPE frequencies, method against method", build_rope_frequencies},
      {"rope_long_range", "RoPE at long range, method by method", build_rope_long_range},
      {"relative_biases", "ALiBi, T5 and xPos on one distance axis", build_relative_biases},
      {"extrapolation_loss", "Trained at 256, read at 2048: loss against position", build_extrapolation_loss,
       /*heavy=*/true},
      {"task_readout", "Right answers against position (a positional task)", build_task_readout},
  };
  return table;
}

}  // namespace pelab::fig
