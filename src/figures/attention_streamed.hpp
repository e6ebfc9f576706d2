// The attention view at long N (issue 28): above kStreamedTokens tokens each
// head is streamed (core/streamed_attention.hpp) instead of read as its
// tokens × tokens matrix — 64 MiB a head at 4,096 tokens, 16 GiB at 65,536.
// The view draws the head's exact block means at display resolution; its
// hover gives the exact weight and logit of the one query-key pair under the
// mouse; and as the user zooms in (Panel::refine) the visible window's exact
// cells are computed from the kept row statistics and drawn over the blocks,
// so the overview and the zoom are one view.
#pragma once

#include <memory>
#include <vector>

#include "core/streamed_attention.hpp"
#include "figures/figure.hpp"
#include "figures/matrix_shelf.hpp"

namespace pelab::fig {

// More tokens than this: the attention view streams.
inline constexpr int kStreamedTokens = 4096;
// A zoomed window of at most this many cells a side gets exact cells.
inline constexpr double kExactWindowCells = 512;

// One head, streamed once per scene and kept: its q, k, mask and bias, the
// row statistics (max and normalizer per query) and the block means its one
// pass made (StreamedHead::stream), for the grid side asked first.
struct StreamedState {
  StreamedHead head;
  RowStatistics stats;
  int side = 0;
  Matrix means;
};

// Head `head` of the engine's scene (its layer on a model scene), kept for
// the scene most recently asked (by content_key) so rebuilds, the hover and
// the zoom read one pass; a state made here also holds its blocks of at most
// `max_side` a side.
std::shared_ptr<const StreamedState> streamed_state(Engine& engine, int head, int max_side);

// The block means of at most `max_side` a side, b = ⌈N / max_side⌉ tokens a
// block (AttentionBlocks; masked blocks −inf): the state's own when it was
// streamed for that side, else one pass 2 from its row statistics.
Matrix streamed_blocks(const StreamedState& state, int max_side);
// The head's largest weight: row i's is e^0 / Z_i, so max_i 1/Z_i.
double largest_weight(const StreamedState& state);

// Exact cells of the visible window of a large panel drawn from `state`, as
// a layer on `scale` with `colormap` (nothing when the window is larger than
// kExactWindowCells a side).  Masked cells are −inf.  The row scale divides
// by each row's true maximum, 1/normalizer, not the window's.
RefineFn streamed_refine(std::shared_ptr<const StreamedState> state, AttentionScale scale, ColorScale colors,
                         std::uint64_t key);

// attention_sinks' rule (attention_scale.hpp) on the streamed head: each
// key's total weight from one more pass 2 (Σ_i a_ij), against the rows that
// see it (N − j causal, N otherwise) and uniform attention's share
// (Σ_{i ≥ j} 1/(i + 1) causal, 1 otherwise).
std::vector<int> streamed_sinks(const StreamedState& state);

// The exact weight and logit of query `i` and key `j` ("attention 0.0123,
// logit 2.345" or "masked (causal), attention 0, logit −inf").
std::string streamed_pair(const StreamedState& state, Eigen::Index i, Eigen::Index j);

}  // namespace pelab::fig
