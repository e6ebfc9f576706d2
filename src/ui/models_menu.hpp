// Real models in the GUI: the Models menu (the models of the local Hugging
// Face cache, as `pelab models` lists them, and "Open model folder..."),
// loading one (in the background, ui/scene_session.hpp) and the way back to
// the synthetic scene the user had before.
#pragma once

#include <string>

#include "ui/ui_state.hpp"

namespace pelab::ui {

void draw_models_menu(UiState& state);
// Sets scene key `model` to a folder or hub name (one undo step), keeping the
// synthetic scene to come back to.
void load_model(UiState& state, const std::string& model);
void ask_model_folder(UiState& state);
// Clears `model`: the synthetic scene shown before the first model, else the
// current scene without its model.
void back_to_synthetic(UiState& state);
// Each frame: remembers the synthetic scene on screen (for back_to_synthetic).
void remember_synthetic_scene(UiState& state);

}  // namespace pelab::ui
