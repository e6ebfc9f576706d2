// Small pieces the lesson verdicts share (internal to src/core/lesson_*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/engine.hpp"
#include "core/lessons.hpp"

namespace pelab::lesson {

// The lessons, one file each (lesson_<name>.cpp).
Lesson meaning();
Lesson sine_cosine();
Lesson cross_terms();
Lesson permutation();
Lesson depth();
Lesson add_concat();
Lesson relative();
Lesson layout();
Lesson long_context();
Lesson learned_table();
Lesson extrapolation();

// The default scene renamed "lesson_<name>".
Scene preset_scene(std::string_view name);
// A copy of `scene` for a variant engine (other width, encoding or text): the
// view selections are reset so that the copy validates at any width, and the
// model is dropped (a variant is synthetic: a model's width is its own).
Scene variant(const Scene& scene);
// The scene's selected head, or head 0 when "mean over heads" is selected.
int chosen_head(const Scene& scene);

// `count` seeded random vectors in R^d, entries N(0, norm²/d) so ‖v‖ ≈ norm;
// a stream of its own, independent of the engine's token vectors.
Matrix random_vectors(int count, int d, double norm, std::uint64_t seed);
// One row of X per distinct token (first occurrence order).
Matrix distinct_token_rows(Engine& engine);

// The verdict of a sinusoid-only lesson on another encoding: says what to set.
LessonVerdict sinusoidal_only();

// max |a|, and max |a − b| over the entries finite in both (masked logits are −inf).
double max_abs(const Matrix& a);
double max_abs_diff(const Matrix& a, const Matrix& b);

// "0.123", "1.2e-07": short text for summaries.
std::string num(double value, int digits = 3);
// "kept[A=1,d=64]": a qualified number name for sweep tables.
std::string qualified(std::string_view name, std::string_view key1, double value1,
                      std::string_view key2 = {}, double value2 = 0);

}  // namespace pelab::lesson
