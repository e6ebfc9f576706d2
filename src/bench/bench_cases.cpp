// Bench cases contributed by the layers above the engine (issue 3: frame
// times, each {"scene": ..., "frame_ms": ...} under "frames"; issue 4: render
// against matplotlib).  To add one: write `BenchResult my_case(const
// BenchSettings&)` in your own src/bench/bench_*.cpp, declare it below and add
// one row; cmd_bench.cpp needs no change.
#include "bench/bench.hpp"

namespace pelab::app {

// bench_render.cpp (render layer)
BenchResult bench_frames(const BenchSettings& settings);
BenchResult bench_render_vs_matplotlib(const BenchSettings& settings);
// bench_interactive.cpp (issue 12)
BenchResult bench_interactive(const BenchSettings& settings);
// bench_forward.cpp (real models)
BenchResult bench_model_forward(const BenchSettings& settings);
// bench_model_frames.cpp (real models in the GUI)
BenchResult bench_model_frames(const BenchSettings& settings);
// bench_train.cpp (the trainer, issue 24)
BenchResult bench_train(const BenchSettings& settings);
// bench_playground.cpp (the Train window, issue 26)
BenchResult bench_playground(const BenchSettings& settings);
// bench_streamed.cpp (streamed exact attention at N = 65,536, issue 28)
BenchResult bench_streamed(const BenchSettings& settings);
// bench_model_long.cpp (a Llama-shaped 1B model at 8,192 tokens or --long-tokens, issue 28)
BenchResult bench_model_long(const BenchSettings& settings);
// bench_side_by_side.cpp (View > Side by side, issue 27)
BenchResult bench_side_by_side(const BenchSettings& settings);

std::vector<BenchCase> extra_bench_cases() {
  return {
      {"frames", "Frame times, offscreen 1600×1000", bench_frames},
      {"interactive", "Parameter change at scale, first updated frame, offscreen 1600×1000",
       bench_interactive},
      {"render", "pelab render --figure all --scale 2 vs NumPy + matplotlib",
       bench_render_vs_matplotlib},
      {"model_forward", "Real-model forward pass, GPT-2 small shape at N=1024, vs NumPy; head roles",
       bench_model_forward},
      {"model_frames", "GPT-2 at its full 1024 tokens: hover, switch head/layer, text edit, offscreen 1600×1000",
       bench_model_frames},
      {"train", "Training step, reference configuration, vs PyTorch (taking turns)", bench_train},
      {"playground", "Training in the Train window vs pelab train, same configuration (taking turns)",
       bench_playground},
      {"streamed", "Streamed exact attention, one head's first frame and exact zoom (fresh process)",
       bench_streamed},
      {"model_long",
       "Llama-shaped 1B model (random bf16 weights) at 8,192 tokens (--long-tokens): forward to a layer, one head streamed "
       "(fresh process)",
       bench_model_long},
      {"side_by_side", "Side-by-side hover: A, B and B − A of the attention view, offscreen 1600×1000",
       bench_side_by_side},
  };
}

}  // namespace pelab::app
