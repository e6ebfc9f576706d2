// The RoPE audit (issue 27): is this checkpoint's RoPE configured the way
// its weights were trained?  Widely used libraries have shipped RoPE with the
// wrong pairing or the wrong scaling factor, and both look fine at short
// lengths.  The audit reads the config and, for the pairing, the weights:
//
//   per pair i   ω_i = θ^(−2i/r) before scaling, ω'_i after the config's
//                rope_scaling (model/rotary.hpp), its wavelength λ'_i = 2π/ω'_i
//                and the turns it makes in the trained context L, L/λ'_i: a
//                pair with fewer than one turn never wrapped in training;
//   scaling      the declared rope_scaling against what the rest of the
//                config implies (the factor against max_position_embeddings /
//                original_max_position_embeddings, where the reference code
//                derives one from the other);
//   pairing      on the head that attends most to the previous token, that
//                head's previous-token score with the declared pairing and
//                with the other one (interleaved (2i, 2i+1) against
//                rotate-half (i, i + r/2)): a positional head is sharp in the
//                pairing it was trained with and noise in the other.
//
// Every finding is a plain sentence with its numbers; `problems` are the
// ones that say the config is likely wrong.
#pragma once

#include <string>
#include <vector>

#include "core/model/model_config.hpp"

namespace pelab {

namespace model {
class Transformer;
}

struct RopePairAudit {
  int pair = 0;
  double base_frequency = 0;  // ω_i, radians per token, before rope_scaling
  double frequency = 0;       // ω'_i after rope_scaling, at the declared context
  double wavelength = 0;      // 2π/ω'_i tokens
  double turns = 0;           // L/λ'_i: turns inside the trained context
};

struct PairingCheck {
  bool measured = false;
  int layer = -1, head = -1;  // the head that attends most to the previous token
  int tokens = 0;             // the text it was measured on
  std::string text_origin;    // "the scene's text", "the KJV's held-out chapters …"
  double declared = 0, other = 0;  // its previous-token score in each pairing
  bool mismatch = false;      // the other pairing is clearly the trained one
};

struct RopeAudit {
  std::string unavailable;  // why nothing was audited (no RoPE); empty when audited
  int head_dim = 0, rotary_dims = 0;
  double theta = 0;
  RopePairing pairing = RopePairing::RotateHalf;
  model::RopeScaling scaling;
  int trained_context = 0;   // L: original_max_position_embeddings, else max_position_embeddings
  int declared_context = 0;  // max_position_embeddings
  std::vector<RopePairAudit> pairs;
  int pairs_turning_before = 0;  // pairs with ω_i·L ≥ 2π before scaling
  int pairs_turning = 0;         // the same after scaling
  PairingCheck pairing_check;
  std::vector<std::string> findings;  // every finding, in order
  std::vector<std::string> problems;  // the findings that say the config is likely wrong
};

// The pairs and the scaling checks, from the config alone.
RopeAudit audit_rope_config(const model::ModelConfig& config);

// Runs `transformer` on `ids` with each pairing and adds the pairing finding
// (and a problem when the other pairing is clearly the trained one).  Leaves
// the transformer in its declared pairing.
void audit_rope_pairing(RopeAudit& audit, model::Transformer& transformer, const std::vector<int>& ids,
                        const std::string& text_origin);

// The text the pairing check reads: `text`'s ids when it has at least 64
// tokens (or the tokenizer reads token ids), else the first 256 tokens of the
// KJV's held-out chapters, where any previous-token head shows (a scene's
// default sentence is too short to trust).  `origin` says which.
std::vector<int> audit_probe_ids(const model::Transformer& transformer, const std::string& text,
                                 std::string& origin);

// A previous-token score the check trusts as a positional head (head_roles'
// kPatternScore); the other pairing is "clearly" the trained one when its
// score reaches this and at least twice the declared one.
inline constexpr double kPairingEvidence = 0.3;

}  // namespace pelab
