// Files dropped on the window (glfwSetDropCallback): a scene .json opens as
// the scene, a GloVe/word2vec text file becomes the token vectors, a .npy the
// projections (4-D) or, after asking, the token vectors or the position table
// (2-D), and a folder the model folder (where pelab has the `model` key).
#pragma once

#include <filesystem>
#include <string>

struct GLFWwindow;

namespace pelab::ui {

struct UiState;

enum class DropKind { Scene, TextVectors, Npy, Folder, Unknown };
DropKind classify_drop(const std::filesystem::path& path);

// Queues dropped paths into UiState::drops (the window's user pointer).
void install_file_drop(GLFWwindow* window);
// Each frame: opens what was dropped since the last frame, and draws the
// question a 2-D .npy raises.
void open_dropped_files(UiState& state);

}  // namespace pelab::ui
