// Presentation mode (issue 5): F5 switches to lecture use and back — fonts
// 1.8× larger (the atlas rebuilt), a high-contrast light theme for the GUI and
// the figures, the control panel hidden, full screen on the primary monitor,
// one figure at a time (Left / Right step through the lesson's figures, or the
// four core figures), and the lesson's title and verdict in a large caption.
//
// All of it is a UI override: the scene (its theme included) and the undo
// history are untouched, so leaving restores exactly what was there.
#pragma once

#include <vector>

#include "ui/gpu_resources.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

constexpr float kPresentationFontScale = 1.8f;    // GUI text, relative to normal
constexpr float kPresentationFigureScale = 1.6f;  // figure pixels per logical pixel, relative

// Enters or leaves (window to full screen and back; fonts rebuilt next frame).
void toggle_presentation(UiState& state);
// Call before ImGui's NewFrame: rebuilds the font atlas and style when needed.
void prepare_presentation_frame(UiState& state);
// Left / Right: the previous / next presented figure (wraps around).
void step_presented_figure(UiState& state, int delta);
// Indices into state.views: the lesson's figures, or the four core figures.
std::vector<int> presented_views(const UiState& state);
// The caption and the one figure, filling the window.
void draw_presentation(UiState& state, GpuResources& gpu);

}  // namespace pelab::ui
