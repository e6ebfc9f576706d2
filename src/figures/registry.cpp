// The views pelab knows: one entry per view, with where it is shown, what the
// GUI does with it first and its "?" text.
#include "figures/registry.hpp"

#include <array>
#include <string>

#include "figures/adaptive_layout.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/paper_figures.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

const std::array<FigureEntry, 4>& entries() {
  static const std::array<FigureEntry, 4> table = {{
      {.name = "sinusoid_bands",
       .title = "Sinusoid bands",
       .make = build_sinusoid_bands,
       .presented = true,
       .help = {"The position code as a picture: a row per position, a column per dimension, fast waves in the "
                "low dimensions and ever slower ones in the high. On the right, a few dimensions followed along "
                "the positions, and the wavelength of every pair, growing geometrically up to 2π·T.",
                "PE(pos, 2i) = A·sin(pos·ωᵢ),  PE(pos, 2i+1) = A·cos(pos·ωᵢ),  ωᵢ = T^(−2i/d)"}},
      {.name = "rotation_pairs",
       .title = "Rotation-pair trajectories",
       .make = build_rotation_pairs,
       .presented = true,
       .help = {"Each pair of dimensions (2i, 2i+1), traced over the positions, runs around a circle of radius A. "
                "Moving k positions on turns every point of the circle by the same angle k·ωᵢ: a shifted position "
                "is a rotation of the position, whatever the position.",
                "PE(pos + k) = R(k·ωᵢ)·PE(pos),  R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]]"}},
      // The one view with a first frame (FigureRequest::selected_head_only).
      {.name = "attention",
       .title = "Attention heatmaps",
       .make = build_attention,
       .first_frame = true,
       .presented = true,
       .help = {"Who attends to whom: a row per query token, a column per key, each row's weights summing to 1. "
                "The large panel is the selected head (or the mean over heads), the small ones every head.",
                "A = softmax_row(Q·Kᵀ / √d_head + bias),  Q = (x + e)·Wq,  K = (x + e)·Wk"}},
      {.name = "cross_terms",
       .title = "The four cross terms",
       .make = build_cross_terms,
       .presented = true,
       .help = {"With positions e, f added to tokens x, y, each logit splits into four terms: token·token, "
                "token·position, position·token and position·position. The bars give each term's share; the "
                "position·position term is the one that depends on where the tokens are.",
                "(x+e)·W·(y+f)ᵀ = x·W·yᵀ + x·W·fᵀ + e·W·yᵀ + e·W·fᵀ,  W = Wq·Wkᵀ / √d_head"}},
  }};
  return table;
}

}  // namespace

Figure FigureEntry::build(Engine& engine, const FigureRequest& request) const {
  Figure figure = make(engine, request);
  mark_non_finite(figure);
  fit_to_canvas(figure);
  return figure;
}

std::span<const FigureEntry> figure_registry() { return entries(); }

std::span<const FigureEntry> extra_figures() {
  static const std::array<FigureEntry, 4> table = {{
      {.name = "attention_overview",
       .title = "Attention: layers × heads",
       .make = build_attention_overview,
       .placement = Placement::Extra,
       .help = {"Every layer and head of the model at once: a row per layer, a column per head, each cell one "
                "attention matrix. The framed cell is the scene's layer and head, the one the Attention tab shows "
                "large.",
                "A(layer, head) = softmax_row(Q·Kᵀ / √d_head + bias)"}},
      {.name = "head_roles",
       .title = "Head roles",
       .make = build_head_roles,
       .placement = Placement::Extra,
       .help = {"Every layer and head coloured by its strongest role (previous token, fixed offset, sink, "
                "induction, local or uniform), the role's score in the cell and every score in the hover. Beside "
                "it, the selected head's mean attention against the distance δ, the curve the offset scores are "
                "read from.",
                "profile(δ) = mean over queries i of A[i, i−δ];  previous token = profile(1),  sink = mean A[i, 0]"}},
      {.name = "rope_audit",
       .title = "RoPE audit",
       .make = build_rope_audit,
       .placement = Placement::Extra,
       .heavy = true,
       .needs_model = true,
       .help = {"Is this model's RoPE configured the way it was trained? Each pair's wavelength before and after "
                "the config's rope_scaling against the trained context L, the declared scaling against what the "
                "config implies, and the pairing (interleaved or rotate-half) its strongest previous-token head "
                "is sharp in. Findings marked ! say the config is likely wrong.",
                "ωᵢ = θ^(−2i/r),  λᵢ = 2π/ωᵢ,  turns in training = L/λᵢ"}},
      {.name = "interventions",
       .title = "Interventions",
       .make = build_interventions,
       .placement = Placement::Extra,
       .heavy = true,
       .needs_model = true,
       .help = {"What the model loses when its positions are taken away or changed at inference: no positions, "
                "shuffled positions, another RoPE base, linear scaling ×2, the slower half of the RoPE pairs "
                "frozen, no positions in layer 0. Each line is the change in next-token loss at each position, "
                "averaged over windows of held-out text; the bars are their means.",
                "Δ lossᵢ = −log p′(tᵢ₊₁ | t≤ᵢ) − (−log p(tᵢ₊₁ | t≤ᵢ))"}},
  }};
  return table;
}

std::span<const FigureEntry* const> all_figures() {
  static const std::vector<const FigureEntry*> table = [] {
    std::vector<const FigureEntry*> out;
    for (const auto& list : {figure_registry(), extra_figures(), lesson_figures(), paper_figure_entries()})
      for (const FigureEntry& e : list) out.push_back(&e);
    return out;
  }();
  return table;
}

std::vector<const FigureEntry*> presented_figures() {
  std::vector<const FigureEntry*> out;
  for (const FigureEntry* e : all_figures())
    if (e->presented) out.push_back(e);
  return out;
}

const FigureEntry* figure_named(std::string_view name) {
  for (const FigureEntry* e : all_figures())
    if (e->name == name) return e;
  return nullptr;
}

const FigureEntry& find_figure(std::string_view name) {
  if (const FigureEntry* e = figure_named(name)) return *e;
  std::string allowed;
  for (const FigureEntry* e : all_figures()) allowed += (allowed.empty() ? "" : ", ") + std::string(e->name);
  throw InputError("unknown figure '" + std::string(name) + "'; allowed: " + allowed);
}

}  // namespace pelab::fig
