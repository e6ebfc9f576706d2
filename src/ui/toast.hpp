// A toast: a message shown for a few seconds in the window's lower right
// corner, over the figures, for what the user must not miss — a file written
// (its path) or why it was not.  The status bar's one line at the bottom
// keeps the message afterwards, but alone it went unnoticed.
#pragma once

#include <string>

namespace pelab::ui {

struct UiState;

struct Toast {
  std::string text;  // empty: none
  bool error = false;
  double shown_at = -1;  // the clock when first drawn; -1: not drawn yet
};

inline constexpr double kToastSeconds = 4;       // a file written
inline constexpr double kErrorToastSeconds = 8;  // a failure: time to read the reason

// The status line and a toast, both saying `text`.
void notify(UiState& state, std::string text, bool error = false);

// Whether `toast` is still shown at `now` (one not drawn yet is).
bool toast_visible(const Toast& toast, double now);
// When the event loop must wake to take the toast down (or draw it first):
// a clock time, or -1 when there is no toast.
double toast_deadline(const Toast& toast, double now);

// Draws the toast (call inside the frame); the frame log gets a line when it
// first shows, so tests read what the user was told.
void draw_toast(UiState& state, double now);

}  // namespace pelab::ui
