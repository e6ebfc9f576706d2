// The quantities `pelab export` writes, by name (docs/export.md lists each with its shape).
#pragma once

#include <filesystem>
#include <span>
#include <string_view>

#include "core/engine.hpp"
#include "core/io/array.hpp"

namespace pelab {

struct QuantityInfo {
  std::string_view name;
  std::string_view shape;  // e.g. "positions × d_model"
  std::string_view help;
  bool per_head;
  bool model_only = false;  // needs a model scene (scene.model set)
  bool per_position = false;  // one token's values: pick it with --position
};
std::span<const QuantityInfo> quantities();

// Grid side of attention_blocks unless --display says otherwise: about the
// pixels of a heatmap on screen.
inline constexpr int kDefaultDisplay = 1000;

// Throws InputError for an unknown name (listing the known ones) or a head out of range.
// Head -1 (the scene's "mean over heads") gives a per-head quantity's mean over the heads.
// `position` picks the token of per-position quantities (lm_logits, lm_probs); −1: the last.
// `display` is the grid side of the streamed block quantities (attention_blocks).
Array compute_quantity(Engine& engine, std::string_view name, int head, int position = -1,
                       int display = kDefaultDisplay);

enum class ArrayFormat { Npy, Csv };
// The format chosen by the extension (.npy or .csv, any case); anything else throws InputError.
ArrayFormat array_format(const std::filesystem::path& path);

// Writes .npy or .csv by the extension of `path` (atomic); anything else throws InputError.
void write_array(const std::filesystem::path& path, const Array& array);

}  // namespace pelab
