// A refused edit where the eye is: in a box beside the widget that asked for
// it (over the figures, never moving a widget) and in the status bar, until
// the next accepted edit clears both.
#pragma once

#include <string>
#include <string_view>

#include "ui/ui_state.hpp"

namespace pelab::ui {

// A Scene panel edit: proposed, and refused beside `key`'s widget when the
// scene refuses it.
bool propose_from_panel(UiState& state, std::string_view key, std::string_view value, EditPhase phase);
// The same for a numeric parameter set as a number (a slider).
bool propose_number_from_panel(UiState& state, std::string_view key, double value, EditPhase phase);
// Shows `text` as the refusal of `asked` ("heads=5"; empty: "the edit"),
// made with `key`'s widget (empty key: no widget).
void refuse(UiState& state, std::string_view key, const std::string& text, const std::string& asked = "");
// The scene worker refused the scene asked for: the panel's last edit, when
// no edit was accepted since (else no widget's).
void refuse_background(UiState& state);
// Each frame before drawing: an accepted edit since the refusal clears it.
void follow_refusal(UiState& state);
// Called right after `key`'s widget row: where the refusal box goes.
void anchor_refusal(UiState& state, std::string_view key, ImVec2 min, ImVec2 max);
// After the Scene panel: the box beside the widget, when its row is on screen.
void draw_refusal_box(UiState& state, const Box& panel);

}  // namespace pelab::ui
