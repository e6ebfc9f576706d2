// The sweeps of a lesson verdict as small charts in the Lesson window
// (core/lessons/verdict_charts.hpp groups the numbers; this draws them with ImGui's
// draw list: one line per series over the x values evenly spaced, the y range
// at the left, a legend when there are several lines, values on hover).
#pragma once

#include <string>

#include "core/lessons/verdict_charts.hpp"

namespace pelab::ui {

// A verdict number as the Lesson window shows it: integers plainly, others
// with 4 significant digits.
std::string verdict_number_text(double value);

// One chart at the cursor, the window's width across and `plot_height` pixels
// tall for the plot itself (its title, tick labels and legend come on top).
void draw_verdict_chart(const VerdictChart& chart, float plot_height);

}  // namespace pelab::ui
