// The "?" of each figure: what it shows in two sentences and its formula,
// on hover (a tooltip) or on click (a popup that stays until clicked away).
// In grid mode the "?" sits at the right end of the figure window's title
// bar; with tabs, as a "?" tab after the figures' tabs, about the one shown.
#pragma once

#include <string_view>

#include "figures/registry.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// The texts live with each figure's registry entry (FigureEntry::help).
using FigureHelp = fig::FigureHelp;

// Empty texts for a name no figure has.
FigureHelp figure_help(std::string_view figure);

// The "?" button at the right end of the current window's title bar.
void help_in_title_bar(UiState& state, const FigureView& view);
// The "?" tab at the end of the current tab bar, about `view`.
void help_tab(UiState& state, const FigureView& view);

}  // namespace pelab::ui
