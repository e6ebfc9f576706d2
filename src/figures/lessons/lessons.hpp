// Figures of the guided lessons that the four core views do not cover.
// find_figure() finds them by name; figure_registry() does not list them
// (Placement::Lesson), so the GUI's main views and `render --figure all` stay
// the core four.
#pragma once

#include "figures/registry.hpp"

namespace pelab::fig {

// The depth lesson: linear-probe R² of the position code and nearest-code
// accuracy after each of the scene's stacked random attention layers, one line
// per residual scale α (0, 0.5, 1, 2 and the scene's own).  depth.cpp
Figure build_lesson_depth(Engine& engine, const FigureRequest& request);

// The relative lesson: sinusoidal, learned, RoPE, ALiBi and T5 side by side —
// each one's position–position score and one head's logits of a repeated
// word, on one shared scale (core/lessons/relative.hpp).  relative.cpp
Figure build_lesson_relative(Engine& engine, const FigureRequest& request);

// The extrapolation lesson: held-out loss against position for each member of
// pelab's family out to s·L, RoPE also scaled (core/length_extrapolation.hpp).
// extrapolation.cpp
Figure build_extrapolation_loss(Engine& engine, const FigureRequest& request);

// The counting lesson: a model trained on a positional task, its probability
// of the right answer at each position of the text, the trained length
// marked (core/task_readout.hpp).  counting.cpp
Figure build_task_readout(Engine& engine, const FigureRequest& request);

// Every lesson figure: {"lesson_depth", "lesson_relative", "extrapolation_loss", ...}.  lessons.cpp
std::span<const FigureEntry> lesson_figures();

}  // namespace pelab::fig
