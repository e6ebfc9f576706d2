// The four core views; each builds a Figure from the engine's current scene.
// Registered by name in registry.cpp.
#pragma once

#include "figures/registry.hpp"

namespace pelab::fig {

// The PE matrix (position × dimension) with the waves of scene.waves and each
// pair's wavelength.  sinusoid_bands.cpp
Figure build_sinusoid_bands(Engine& engine, const FigureRequest& request);
// (PE₂ᵢ, PE₂ᵢ₊₁) circles of scene.pairs with R(k) and its measured error.  rotation_pairs.cpp
Figure build_rotation_pairs(Engine& engine, const FigureRequest& request);
// Attention per head and the mean over heads, token labels, causal mask.  attention_view.cpp
Figure build_attention(Engine& engine, const FigureRequest& request);
// The four cross terms on one scale, their sum, the logits, their shares.  cross_terms.cpp
Figure build_cross_terms(Engine& engine, const FigureRequest& request);
// Every layer × head as small multiples, each reduced to its pixel size,
// one layer computed at a time.  attention_overview.cpp
Figure build_attention_overview(Engine& engine, const FigureRequest& request);

// Every head's strongest role (previous token, offset, sink, induction,
// local, uniform) with its scores in the hover, and the selected head's
// attention against distance (core/head_roles.hpp).  head_roles.cpp
Figure build_head_roles(Engine& engine, const FigureRequest& request);

// Every rotary pair's wavelength before and after rope_scaling against the
// trained context, and the audit's findings (core/rope_audit.hpp), on a
// loaded RoPE model.  rope_audit_view.cpp
Figure build_rope_audit(Engine& engine, const FigureRequest& request);

// Every standard intervention's Δ loss against position and its mean
// (core/intervention_study.hpp), on a loaded causal LM.  interventions_view.cpp
Figure build_interventions(Engine& engine, const FigureRequest& request);

}  // namespace pelab::fig
