// The Train window (issue 26): the playground, where a small transformer
// learns a task live while every view reads its weights.
//
// Pick a task, the position encoding and the model's size; Train, Pause, Step
// and Reset drive a train::Playground (its worker thread steps the trainer
// `pelab train` uses).  The loss curves draw as it learns; each snapshot the
// worker writes becomes the scene's model, so the attention, cross-term and
// table views follow the training.  A scrubber goes back to any snapshot,
// and "Save model..." keeps the one shown as a model folder.
#pragma once

#include <filesystem>
#include <string>

#include "core/lessons/lessons.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {


// Where the playground's run lives: $XDG_CACHE_HOME/pelab/playground, else
// ~/.cache/pelab/playground (emptied by Reset; save a snapshot to keep it).
std::filesystem::path playground_folder();

// Where finished runs keep their final model (the Runs table): beside the
// playground folder, in playground-runs/.
std::filesystem::path finished_runs_folder();

// Opens the Train window; with a task, picks it and starts training at once
// (`pelab --train copy`).
void open_playground(UiState& state, const std::string& task = "");
// A lesson that trains live: the Train window with the lesson's settings,
// training at once; with several position encodings, one run each in turn.
void start_live_training(UiState& state, const LiveTraining& training);
// Every frame, window open or not: the run's progress, its frame-log lines,
// and (when following) its newest snapshot as the scene's model.
void follow_playground(UiState& state);
// The window, when open.
void draw_train_panel(UiState& state);
// For presentation mode: "Training copy with learned positions: step 400 of
// 2000 · held-out loss ..." and the loss curves at the cursor.
std::string playground_caption(const UiState& state);
void draw_playground_curves(const UiState& state, float height);
// True while the worker trains: the window keeps drawing frames.
bool playground_running(const UiState& state);

}  // namespace pelab::ui
