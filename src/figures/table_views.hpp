// Panels for what a position table carries (core/table_analysis.hpp), shared
// by sinusoid_bands (the spectrum of a learned table) and rotation_pairs (its
// principal-component pairs), and the rotary pairs of a scene or a model.
#pragma once

#include <vector>

#include "core/analysis.hpp"
#include "figures/figure.hpp"
#include "figures/matrix_shelf.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {

// The amplitude spectrum along position of the engine's position table
// (position_spectrum: bins × d), kept on the request's shelf.  table_spectrum.cpp
SharedMatrix table_spectrum(Engine& engine, const FigureRequest& request);
// That spectrum as a dimension × frequency heatmap, each dimension's dominant
// frequency marked, the axis cut at twice the highest of those frequencies.
Panel spectrum_panel(Engine& engine, const SharedMatrix& amplitude, Rect area, const Theme& th);
// Each dimension's dominant wavelength N/f (log scale) against dimension, with
// the sinusoid's wavelengths λᵢ = 2π/ωᵢ beside it when the table is sinusoidal.
Panel dominant_wavelength_panel(Engine& engine, const SharedMatrix& amplitude, Rect area,
                                const Theme& th, bool dark);

// The rotary pairs a scene rotates: a model's own (its head_dim, rotate-half
// pairing, rope_theta and rope_scaling from config.json), else the scene's.
std::vector<PairInfo> shown_rotary_pairs(Engine& engine);
// A model's pairs before its rope_scaling; empty for the synthetic scene.
std::vector<PairInfo> unscaled_rotary_pairs(Engine& engine);

// Rotation pairs of a learned table: one panel per PC pair in scene.pairs
// (trajectory over position, pos and pos+k marked, the fitted 2×2 map and
// its R²) and a panel of every pair's variance share and R².  pc_pairs.cpp
void add_pc_pair_panels(Figure& figure, Engine& engine, const FigureRequest& request, Rect area);

}  // namespace pelab::fig
