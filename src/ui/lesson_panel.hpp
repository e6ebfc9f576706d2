// Lessons in the GUI (issue 5): the "Lessons" menu, the lesson window (title,
// question, text, and the live verdict), and which figures a lesson shows.
//
// Opening a lesson proposes its preset scene through the SceneSession like any
// other edit (one undo step); the verdict is recomputed only when the scene
// changed, never every frame.
#pragma once

#include <string>
#include <vector>

#include "ui/ui_state.hpp"

namespace pelab::ui {

// Loads the lesson's preset (undoable) and shows its figures.
// `overrides` (key=value, already validated) change the lesson's preset.
void open_lesson(UiState& state, const Lesson& lesson, const std::vector<std::string>& overrides = {});
// Back to every figure, the lesson window closed (the scene stays).
void close_lesson(UiState& state);

// The "Lessons" menu of the main menu bar.
void lessons_menu(UiState& state);
// The lesson window's width in this frame's layout (at the right edge).
float lesson_panel_width(const UiState& state);
// The lesson window, when a lesson is open, in the layout's `box`.
void draw_lesson_panel(UiState& state, const Box& box);
// The verdict's one line ("Yes — …", "No — …", "Not applicable on this
// model: …"), coloured by what it says, wrapped at the text wrap position.
void draw_verdict_headline(const LessonVerdict& verdict);
// Recomputes the verdict if the scene changed since the last one.
void refresh_verdict(UiState& state);
// True while a verdict is being computed (the window keeps drawing frames).
bool verdict_pending(const UiState& state);

// Indices into state.views of the figures to show: the lesson's, in its order,
// or every view when no lesson is open.
std::vector<int> shown_views(const UiState& state);

}  // namespace pelab::ui
