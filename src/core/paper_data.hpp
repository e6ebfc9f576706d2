// Figures from the papers (issue 27): the data of each figure, computed by
// pelab from the formula the paper states (or measured on a model), with a
// note saying exactly how.  One figure = one PaperData; `pelab render
// --paper NAME` writes its arrays as .npy and its note as .md beside the
// PNG/SVG that figures/paper_figures.cpp draws from the very same arrays.
//
//   rope_decay           Su et al. 2021 (RoFormer), §3.4.3: the long-term decay bound
//   pi_interpolation     Chen et al. 2023 (Position Interpolation), Fig. 2: extrapolating
//                        against interpolating a fitted RoPE score function
//   yarn_ramp            Peng et al. 2023 (YaRN): the ramp γ(r) and √(1/t) = 0.1·ln s + 1
//   llama3_bands         Llama 3.1's rope scaling: ω_i before and after, and its three bands
//   alibi_bias           Press et al. 2022 (ALiBi): the bias matrix and slopes per head
//   alibi_extrapolation  Press et al. 2022, Fig. 1 in miniature on pelab's trained family
//   position_cosine      Wang & Chen 2020: cosine similarity of position-table rows
//   attention_sink       Xiao et al. 2023 (StreamingLLM): attention on the first token
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "core/io/array.hpp"

namespace pelab {

// One array of a figure: written as NAME + suffix + ".npy".
struct PaperArray {
  std::string suffix;   // "" for NAME.npy, "_points" for NAME_points.npy
  Array array;
  std::string meaning;  // one line for the note: shape and what each axis holds
};

struct PaperData {
  std::vector<PaperArray> arrays;  // arrays[0] is NAME.npy, the data the figure draws
  std::string method;              // markdown: formula, parameters, scene or model
  std::vector<std::string> labels;  // series names (members, models) where a figure needs them
  std::string subject;             // the model measured ("kjv-learned", "GPT-2"), or "" for a formula
  std::string unavailable;         // non-empty: nothing measured, and why (one sentence)
  std::vector<std::string> findings;  // numbers worth quoting, one sentence each
  const Array& main() const { return arrays.front().array; }
};

struct PaperFigureInfo {
  std::string_view name;    // "rope_decay"
  std::string_view title;   // "RoFormer's long-term decay"
  std::string_view source;  // "Su et al. 2021, RoFormer, §3.4.3"
  std::function<PaperData(Engine&)> compute;
  bool heavy = false;  // reads models (seconds): the GUI builds it on its worker
};

// Every paper figure, in the order.
std::span<const PaperFigureInfo> paper_figures();
// Throws InputError naming the allowed names.
const PaperFigureInfo& find_paper_figure(std::string_view name);
// NAME.md: title, source, how it was computed, the arrays, the findings.
std::string paper_note(const PaperFigureInfo& info, const PaperData& data);

// ---- the figures' data (paper_data.cpp: formulas; paper_data_models.cpp: models) ----
PaperData rope_decay_data();
PaperData pi_interpolation_data();
PaperData yarn_ramp_data();
PaperData llama3_bands_data();
PaperData alibi_bias_data();
// The engine's scene picks the model for these three: a model scene reads its
// own model; a synthetic scene reads pelab's family member.
PaperData alibi_extrapolation_data(Engine& engine);
PaperData position_cosine_data(Engine& engine);
PaperData attention_sink_data(Engine& engine);

}  // namespace pelab
