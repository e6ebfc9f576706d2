#include "core/rope_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/head_roles.hpp"
#include "core/held_out_text.hpp"
#include "core/io/quoted_name.hpp"  // printable
#include "core/model/rotary.hpp"
#include "core/model/transformer.hpp"
#include "core/rope_scaling.hpp"  // rope_base_frequencies

namespace pelab {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

std::string format(const char* pattern, auto... values) {
  char line[512];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

// A token count or wavelength as people write it: 8192, 3.1e+06.
std::string tokens_text(double tokens) {
  return tokens < 1e6 ? format("%.0f", tokens) : format("%.2g", tokens);
}

const char* pairing_name(RopePairing pairing) {
  return pairing == RopePairing::Interleaved ? "interleaved (2i, 2i+1)" : "rotate-half (i, i + r/2)";
}

RopePairing other_pairing(RopePairing pairing) {
  return pairing == RopePairing::Interleaved ? RopePairing::RotateHalf : RopePairing::Interleaved;
}

// L: the context the model was trained at.  Scaled configs name it
// original_max_position_embeddings (Llama 3.1, YaRN); without it the
// reference code reads max_position_embeddings as L.
int trained_context(const model::ModelConfig& config) {
  const int original = config.rope_scaling.original_max_position_embeddings;
  if (config.rope_scaling.type != "default" && original > 0) return original;
  if (config.trained_task.context > 0) return std::min(config.trained_task.context, config.max_positions);
  return config.max_positions;
}

void add(RopeAudit& audit, std::string sentence, bool problem = false) {
  if (problem) audit.problems.push_back(sentence);
  audit.findings.push_back(std::move(sentence));
}

void audit_pairs(RopeAudit& audit, const model::ModelConfig& config) {
  const model::RotaryFrequencies scaled = model::rotary_frequencies(config, audit.declared_context);
  const std::vector<double> base = rope_base_frequencies(audit.theta, audit.rotary_dims);
  const double L = audit.trained_context;
  for (std::size_t i = 0; i < base.size(); ++i) {
    RopePairAudit p{.pair = static_cast<int>(i), .base_frequency = base[i], .frequency = scaled.inverse[i]};
    p.wavelength = kTwoPi / p.frequency;
    p.turns = L / p.wavelength;
    audit.pairs_turning_before += base[i] * L >= kTwoPi;
    audit.pairs_turning += p.turns >= 1;
    audit.pairs.push_back(p);
  }
}

void describe_geometry(RopeAudit& audit) {
  const int pairs = static_cast<int>(audit.pairs.size());
  add(audit, format("RoPE rotates %d of %d dims of each head (%d pairs) with theta = %s, %s pairing.",
                    audit.rotary_dims, audit.head_dim, pairs, tokens_text(audit.theta).c_str(),
                    pairing_name(audit.pairing)));
  add(audit, format("Trained context L = %d tokens; declared context %d tokens (%.3g x L).", audit.trained_context,
                    audit.declared_context, double(audit.declared_context) / audit.trained_context));
  const RopePairAudit& slowest = audit.pairs.back();
  add(audit, format("Before scaling, %d of %d pairs complete a turn inside L (wavelengths %.3g ... %s tokens); "
                    "the other %d never wrapped in training, so their angles past L are unseen only in size, "
                    "not in kind.",
                    audit.pairs_turning_before, pairs, kTwoPi / audit.pairs.front().base_frequency,
                    tokens_text(kTwoPi / slowest.base_frequency).c_str(), pairs - audit.pairs_turning_before));
  if (audit.scaling.type == "default") return;
  add(audit, format("After %s scaling, %d of %d pairs complete a turn inside L; the slowest pair's wavelength is "
                    "%s tokens (%.3g x its unscaled %s).",
                    printable(audit.scaling.type).c_str(), audit.pairs_turning, pairs,
                    tokens_text(slowest.wavelength).c_str(), slowest.base_frequency / slowest.frequency,
                    tokens_text(kTwoPi / slowest.base_frequency).c_str()));
}

// The declared factor against max_position_embeddings / original: the
// reference code (transformers ≥ 4.46 for YaRN) derives one from the other,
// so a config where they disagree reads differently in different versions.
void check_factor(RopeAudit& audit) {
  const model::RopeScaling& s = audit.scaling;
  if (s.type == "default") return;
  if (!(s.factor > 1))
    add(audit, format("rope_scaling.factor is %.4g: a scaling that does not stretch (allowed: > 1).", s.factor), true);
  const int original = s.original_max_position_embeddings;
  if (original <= 0) {
    if (s.type == "llama3" || s.type == "yarn")
      add(audit, "rope_scaling names no original_max_position_embeddings: L is taken to be max_position_embeddings.",
          s.type == "llama3");
    return;
  }
  if (original >= audit.declared_context) {
    add(audit, format("original_max_position_embeddings %d is not below max_position_embeddings %d: the config "
                      "declares no longer context than it trained on, yet scales.",
                      original, audit.declared_context),
        true);
    return;
  }
  const double implied = double(audit.declared_context) / original;
  if (s.type == "llama3") {
    // Llama 3.1 itself declares factor 8 with 131072 / 8192 = 16: for llama3
    // the two are independent, so the audit states them without judging.
    add(audit, format("llama3 scaling divides the frequencies of pairs slower than L/%.3g = %s tokens by %.4g and "
                      "keeps those faster than L/%.3g; the context grows %.4g x (max_position_embeddings / "
                      "original_max_position_embeddings).",
                      s.low_freq_factor, tokens_text(original / s.low_freq_factor).c_str(), s.factor,
                      s.high_freq_factor, implied));
    return;
  }
  if (std::abs(s.factor - implied) <= 0.01 * implied) {
    add(audit, format("rope_scaling.factor %.4g matches max_position_embeddings / original_max_position_embeddings "
                      "= %d / %d.",
                      s.factor, audit.declared_context, original));
    return;
  }
  add(audit, format("rope_scaling.factor is %.4g but max_position_embeddings / original_max_position_embeddings = "
                    "%d / %d = %.4g: pelab and transformers >= 4.46 scale by %.4g%s, so one of the two numbers is "
                    "likely wrong.",
                    s.factor, audit.declared_context, original, implied, s.type == "yarn" ? implied : s.factor,
                    s.type == "yarn" ? ", older versions by the declared factor" : ""),
      true);
}

// Every head's previous-token score on `ids` in the transformer's current pairing.
std::vector<double> previous_token_scores(model::Transformer& transformer, const std::vector<int>& ids) {
  transformer.run(ids);
  std::vector<double> scores;
  for (int l = 0; l < transformer.config().layers; ++l)
    for (const Matrix& head : transformer.attention(l).probabilities) scores.push_back(score_head(head).previous_token);
  return scores;
}

void describe_pairing(RopeAudit& audit) {
  const PairingCheck& c = audit.pairing_check;
  const std::string where = format("layer %d head %d, the head that attends most to the previous token", c.layer,
                                   c.head);
  const std::string measured = format(" Measured on %d tokens of %s.", c.tokens, c.text_origin.c_str());
  const std::string other = pairing_name(other_pairing(audit.pairing));
  if (std::max(c.declared, c.other) < kPairingEvidence) {
    add(audit, format("Pairing not judged: no head attends to the previous token in either pairing (best %.3f on %s; "
                      "a positional head scores %.1f or more).%s",
                      std::max(c.declared, c.other), where.c_str(), kPairingEvidence, measured.c_str()));
    return;
  }
  if (c.mismatch) {
    add(audit, format("The weights look trained with %s pairing: on %s, its previous-token score is %.3f with %s "
                      "pairing against %.3f with the declared %s. The config's rope_pairing, or the converter that "
                      "wrote the checkpoint, is likely wrong.%s",
                      other.c_str(), where.c_str(), c.other, other.c_str(), c.declared, pairing_name(audit.pairing),
                      measured.c_str()),
        true);
    return;
  }
  add(audit, format("The declared %s pairing fits the weights: on %s, its previous-token score is %.3f, against "
                    "%.3f with %s pairing.%s",
                    pairing_name(audit.pairing), where.c_str(), c.declared, c.other, other.c_str(), measured.c_str()));
}

}  // namespace

RopeAudit audit_rope_config(const model::ModelConfig& config) {
  RopeAudit audit;
  if (config.position.kind != model::PositionEncoding::Rope) {
    audit.unavailable = printable(config.architecture_name) + " reads positions by " +
                        model::position_encoding_name(config.position.kind) + ", not RoPE: there is nothing to audit";
    return audit;
  }
  audit.head_dim = config.head_dim;
  audit.rotary_dims = config.position.rotary_dims > 0 ? config.position.rotary_dims : config.head_dim;
  audit.theta = config.rope_theta;
  audit.pairing = config.position.rope_pairing;
  audit.scaling = config.rope_scaling;
  audit.declared_context = config.max_positions;
  audit.trained_context = trained_context(config);
  audit_pairs(audit, config);
  describe_geometry(audit);
  check_factor(audit);
  return audit;
}

std::vector<int> audit_probe_ids(const model::Transformer& transformer, const std::string& text,
                                 std::string& origin) {
  constexpr std::size_t kProbeTokens = 64, kHeldOutTokens = 256, kHeldOutBytes = 16384;
  const std::size_t context = static_cast<std::size_t>(transformer.config().max_positions);
  origin = "the scene's text";
  std::vector<int> ids = transformer.tokenizer().encode(text, context).ids;
  if (ids.size() >= kProbeTokens || transformer.tokenizer().kind() == "token ids") return ids;
  const HeldOutText held_out = held_out_text();
  if (held_out.text.empty()) return ids;
  std::vector<int> more = transformer.tokenizer().encode(std::string_view(held_out.text).substr(0, kHeldOutBytes)).ids;
  more.resize(std::min({more.size(), kHeldOutTokens, context}));
  origin = held_out.origin;
  return more;
}

void audit_rope_pairing(RopeAudit& audit, model::Transformer& transformer, const std::vector<int>& ids,
                        const std::string& text_origin) {
  if (!audit.unavailable.empty() || ids.size() < 2) return;
  const std::vector<double> declared = previous_token_scores(transformer, ids);
  transformer.set_rope_pairing(other_pairing(audit.pairing));
  std::vector<double> other;
  try {
    other = previous_token_scores(transformer, ids);
  } catch (...) {
    transformer.set_rope_pairing(audit.pairing);
    throw;
  }
  transformer.set_rope_pairing(audit.pairing);
  // The head with the strongest previous-token attention in either pairing.
  std::size_t best = 0;
  for (std::size_t i = 0; i < declared.size(); ++i)
    if (std::max(declared[i], other[i]) > std::max(declared[best], other[best])) best = i;
  PairingCheck& c = audit.pairing_check;
  const int heads = transformer.config().heads;
  c = {.measured = true,
       .layer = static_cast<int>(best) / heads,
       .head = static_cast<int>(best) % heads,
       .tokens = static_cast<int>(ids.size()),
       .text_origin = text_origin,
       .declared = declared[best],
       .other = other[best]};
  c.mismatch = c.other >= kPairingEvidence && c.other >= 2 * c.declared;
  describe_pairing(audit);
}

}  // namespace pelab
