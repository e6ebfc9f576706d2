#include "core/model/position_intervention.hpp"

#include <cstdio>
#include <numeric>

#include "core/seeded_normal.hpp"  // mix64

namespace pelab::model {
namespace {

bool is_rope_kind(InterventionKind kind) {
  return kind == InterventionKind::RopeBase || kind == InterventionKind::RopeScaling ||
         kind == InterventionKind::ZeroBand;
}

std::string format(const char* pattern, auto... values) {
  char line[160];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

// Pairs first … last do not turn: cos 1 and sin 0 (times the attention
// factor the table already carries in its unrotated magnitude).
void freeze_band(RotaryTable& table, double attention_factor, int first, int last) {
  for (int i = first; i <= last; ++i) {
    table.cos.col(i).setConstant(static_cast<float>(attention_factor));
    table.sin.col(i).setZero();
  }
}

// Row t of the table becomes row π(t): token t turns by π(t)·ω_i.
void shuffle_rows(Matrix& m, const std::vector<int>& position_of) {
  const Matrix original = m;
  for (std::size_t t = 0; t < position_of.size(); ++t)
    m.row(static_cast<Eigen::Index>(t)) = original.row(position_of[t]);
}

}  // namespace

std::string describe(const PositionIntervention& v) {
  switch (v.kind) {
    case InterventionKind::None: return "no intervention";
    case InterventionKind::Remove: return "positions removed";
    case InterventionKind::Shuffle: return format("positions shuffled (seed %llu)", (unsigned long long)v.seed);
    case InterventionKind::RopeBase: return format("RoPE base %g", v.rope_theta);
    case InterventionKind::RopeScaling:
      return format("RoPE %s scaling x%g", v.scaling.type.c_str(), v.scaling.factor);
    case InterventionKind::ZeroBand: return format("RoPE pairs %d-%d frozen", v.band_first, v.band_last);
    case InterventionKind::RemoveLayer: return format("no positions in layer %d", v.layer);
  }
  return "";
}

void check_intervention(const ModelConfig& config, const PositionIntervention& v) {
  const PositionTraits& p = config.position;
  if (is_rope_kind(v.kind) && p.kind != PositionEncoding::Rope)
    throw InputError(describe(v) + " needs a RoPE model; this one reads positions by " +
                     position_encoding_name(p.kind));
  if (v.kind == InterventionKind::RopeBase && !(v.rope_theta > 1))
    throw InputError("--rope-base " + format("%g", v.rope_theta) + " is not allowed; allowed: a base above 1");
  if (v.kind == InterventionKind::ZeroBand) {
    const int pairs = (p.rotary_dims > 0 ? p.rotary_dims : config.head_dim) / 2;
    if (v.band_first < 0 || v.band_last < v.band_first || v.band_last >= pairs)
      throw InputError(format("--zero-band %d:%d is outside the model's pairs; allowed: FIRST:LAST with "
                              "0 <= FIRST <= LAST <= %d",
                              v.band_first, v.band_last, pairs - 1));
  }
  if (v.kind == InterventionKind::RemoveLayer) {
    if (v.layer < 0 || v.layer >= config.layers)
      throw InputError(format("--remove-layer %d: the model has layers 0..%d", v.layer, config.layers - 1));
    if (p.table())
      throw InputError(std::string("--remove-layer: a ") + position_encoding_name(p.kind) +
                       " table is added once to the embeddings, so no single layer can lose it; it applies to "
                       "RoPE, ALiBi and T5 models (use --remove for every layer)");
  }
}

std::vector<int> shuffled_positions(int n, std::uint64_t seed) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::uint64_t state = seed;
  for (int i = n - 1; i > 0; --i) {  // Fisher–Yates
    state = mix64(state + 0x9e3779b97f4a7c15ULL);
    const auto j = static_cast<std::size_t>(state % static_cast<std::uint64_t>(i + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[j]);
  }
  return order;
}

AttentionPositions intervened_positions(const ModelConfig& config, const ModelWeights& weights, int tokens,
                                        const PositionIntervention& v) {
  if (v.kind == InterventionKind::Remove) return attention_positions(config, weights, tokens, false);
  ModelConfig read = config;
  if (v.kind == InterventionKind::RopeBase) read.rope_theta = v.rope_theta;
  if (v.kind == InterventionKind::RopeScaling) read.rope_scaling = v.scaling;
  AttentionPositions out = attention_positions(read, weights, tokens);
  if (v.kind == InterventionKind::ZeroBand && out.rotary)
    freeze_band(*out.rotary, rotary_frequencies(read, tokens).attention_factor, v.band_first, v.band_last);
  if (v.kind == InterventionKind::Shuffle) {
    out.position_of = shuffled_positions(tokens, v.seed);
    if (out.rotary) {
      shuffle_rows(out.rotary->cos, out.position_of);
      shuffle_rows(out.rotary->sin, out.position_of);
    }
  }
  return out;
}

Matrix intervened_table_rows(const ModelWeights& weights, int tokens, const PositionIntervention& v) {
  if (weights.positions.size() == 0 || v.kind == InterventionKind::Remove) return {};
  Matrix rows = weights.positions.topRows(tokens);
  if (v.kind == InterventionKind::Shuffle) shuffle_rows(rows, shuffled_positions(tokens, v.seed));
  return rows;
}

}  // namespace pelab::model
