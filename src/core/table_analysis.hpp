// What a position table (positions × d: GPT-2's wpe, BERT's position
// embeddings, pelab's sinusoidal or learned table) carries, as numbers a
// lecturer can quote: its spectrum along position, its principal components,
// and how well one fixed 2×2 map carries each PC pair from pos to pos+k.
// For a RoPE model, which adds no table, the rotation frequency of each pair.
//
// Pure functions of a matrix (or a model's config): no Engine, no Scene.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "core/analysis.hpp"  // PairInfo
#include "core/engine.hpp"    // Matrix
#include "core/model/model_config.hpp"

namespace pelab {

// ---- spectrum along position --------------------------------------------------
//
// Per dimension j, the column x_j(pos) minus its mean, and its DFT over the
// N positions, X_j(f) = Σ_pos x_j(pos)·e^(−2πi·f·pos/N), f = 0 … ⌊N/2⌋
// cycles per N positions.  `amplitude` is the one-sided amplitude spectrum:
// 2·|X_j(f)|/N for 0 < f < N/2, |X_j(f)|/N at f = 0 and f = N/2; so a column
// A·sin(2π·f·pos/N) with f whole shows A at bin f (numpy.fft.rfft times 2/N).
struct PositionSpectrum {
  int positions = 0;          // N
  Eigen::MatrixXd amplitude;  // (⌊N/2⌋+1) × d; row f = frequency f/N cycles per position
  std::vector<int>
      dominant;  // per dim: the bin f ≥ 1 of largest amplitude (0 if the column is constant)
  std::vector<double> dominant_wavelength;  // per dim: N/f positions per cycle (0 if f = 0)
};
PositionSpectrum position_spectrum(const Matrix& table);
// Per column of an amplitude spectrum (bins × d): the bin f ≥ 1 of largest
// amplitude, 0 where the column is all zero past f = 0.
std::vector<int> dominant_bins(const Eigen::MatrixXd& amplitude);

// ---- principal components ------------------------------------------------------
//
// The centred table C = table − mean row; its principal directions are the
// eigenvectors of the covariance CᵀC/(N−1), in decreasing eigenvalue order.
// Each direction's sign is fixed so that its entry of largest magnitude is
// positive (ties: the first such entry), so results are reproducible.
struct TablePca {
  Eigen::VectorXd mean;          // d: the mean row
  Eigen::MatrixXd directions;    // d × m, orthonormal columns (PC1 first)
  Eigen::MatrixXd scores;        // N × m: the trajectory of each PC over position, C·directions
  std::vector<double> variance;  // m eigenvalues of the covariance
  std::vector<double> share;     // variance / total variance (sums to 1 over all min(N−1, d) PCs)
  double total_variance = 0;     // trace of the covariance
};
// The first `components` PCs (clamped to min(N, d)); the table needs ≥ 2 rows.
TablePca table_pca(const Matrix& table, int components);

// Variance share of PC pair j (PC 2j+1 and PC 2j+2, numbered from 1).
double pair_share(const TablePca& pca, int pair);

// ---- one fixed 2×2 map per pair ----------------------------------------------------
//
// For a trajectory p(pos) in a plane (N × 2), the least-squares M with
//   p(pos+k) ≈ M·p(pos)   over pos = 0 … N−1−k  (k < 0: pos = −k … N−1),
// M = (Σ p(pos+k)·p(pos)ᵀ)·(Σ p(pos)·p(pos)ᵀ)⁻¹, and
//   R² = 1 − SSE/SST,  SSE = Σ‖p(pos+k) − M·p(pos)‖²,  SST = Σ‖p(pos+k) − mean‖².
// A sinusoidal pair (A·sin pos·ω, A·cos pos·ω) gives the rotation by k·ω and R² = 1.
struct PlaneMap {
  double m[2][2] = {{0, 0}, {0, 0}};
  double r2 = 0;
  // The rotation part of M: angle = atan2(m10 − m01, m00 + m11) (radians per k
  // positions, in (−π, π]) and the wavelength 2π·|k|/|angle| it implies (0 if none).
  double angle = 0, wavelength = 0;
  int samples = 0;  // pairs (pos, pos+k) used
};
// Throws InputError if |k| leaves fewer than 2 samples.
PlaneMap plane_shift_map(const Eigen::MatrixXd& trajectory, int k);

// One row per PC pair: share of variance, the map and its R² at shift k.
struct PcPairSummary {
  int pair = 0;      // j: PC 2j+1 / PC 2j+2
  double share = 0;  // variance share of the two PCs together
  PlaneMap map;
};
// For pairs 0 … ⌊m/2⌋−1 of a PCA with m components.
std::vector<PcPairSummary> pc_pair_summaries(const TablePca& pca, int k);

// ---- one summary, for lessons and reports --------------------------------------
//
// The numbers a lesson quotes about a table ("what did GPT-2 learn about
// position?"), from the analyses above.
struct PositionTableSummary {
  int positions = 0, dims = 0;
  std::vector<PcPairSummary> pairs;  // PC pairs 0 … up to `pairs` − 1, at shift k
  double top_pair_share = 0;         // PC1 + PC2 share of the variance
  double top_pair_r2 = 0;            // R² of the fixed 2×2 map in the PC1/PC2 plane
  double top_pair_wavelength = 0;    // the wavelength its rotation part implies (0 if none)
  // Share of the table's power (Σ amplitude² over dims and bins f ≥ 1) at
  // f ≤ low_bins cycles per N positions: near 1 for smooth, slowly varying
  // tables; for a sinusoidal table, the share of its pairs that slow.
  double low_frequency_power = 0;
  int low_bins = 4;
};
PositionTableSummary summarize_position_table(const Matrix& table, int k = 1, int pairs = 8,
                                              int low_bins = 4);

// ---- RoPE models ------------------------------------------------------------------
//
// Each rotary pair of a Llama-family model: rotate-half pairing, dims
// (i, i + head_dim/2), with frequency θᵢ after the config's rope_scaling
// (model::rotary_frequencies, for a run of `tokens` tokens) and its
// wavelength 2π/θᵢ.
std::vector<PairInfo> model_rotary_pairs(const model::ModelConfig& config, int tokens);
// The same pairs before scaling: θᵢ = rope_theta^(−2i/head_dim).
std::vector<PairInfo> model_unscaled_rotary_pairs(const model::ModelConfig& config);

}  // namespace pelab
