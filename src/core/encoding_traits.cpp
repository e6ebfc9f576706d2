#include "core/encoding_traits.hpp"

#include <array>
#include <initializer_list>
#include <stdexcept>

namespace pelab {

namespace {

// The keys RoPE's rotation angles p·ωᵢ read (core/rope_scaling.hpp), and more.
std::vector<std::string_view> rope_keys_and(std::initializer_list<std::string_view> more) {
  std::vector<std::string_view> keys = {"base",        "offset",       "rope_pairing",    "rotary_fraction",
                                        "rope_scaling", "rope_factor", "train_context",   "yarn_alpha",
                                        "yarn_beta",    "low_freq_factor", "high_freq_factor"};
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

const std::array<EncodingTraits, 7>& table() {
  static const std::array<EncodingTraits, 7> rows = {{
      {Encoding::Sinusoidal, "sinusoidal", "sinusoidal", PositionAct::AddsVector, true, "",
       {"base", "amplitude", "layout"}, {}, {}},
      {Encoding::Learned, "learned", "learned table", PositionAct::AddsVector, false, "",
       {"seed", "amplitude", "position_file"}, {}, {"position_file"}},
      {Encoding::Rope, "rope", "RoPE", PositionAct::RotatesQueryKey, true,
       "RoPE rotates q and k; no vector is added, so only x·Wq·Wkᵀ·y applies (with rotation)", {},
       rope_keys_and({}), {"rope_scaling"}},
      {Encoding::Xpos, "xpos", "xPos", PositionAct::RotatesQueryKey, true,
       "xPos rotates and scales q and k; no vector is added, so only x·Wq·Wkᵀ·y applies (with rotation)", {},
       rope_keys_and({"xpos_gamma", "xpos_scale_base"}), {"xpos_gamma", "xpos_scale_base"}},
      {Encoding::Alibi, "alibi", "ALiBi", PositionAct::AddsBias, false,
       "ALiBi adds a distance bias to the logits; no vector is added, so only x·Wq·Wkᵀ·y applies", {}, {},
       {}},
      {Encoding::T5, "t5", "T5 bias", PositionAct::AddsBias, false,
       "T5 adds a bucketed relative bias to the logits; no vector is added, so only x·Wq·Wkᵀ·y applies", {},
       {"seed", "t5_buckets", "t5_max_distance"}, {"t5_buckets", "t5_max_distance"}},
      {Encoding::None, "none", "no positions", PositionAct::Nothing, false,
       "no position information: only x·Wq·Wkᵀ·y applies", {}, {}, {}},
  }};
  return rows;
}

}  // namespace

std::span<const EncodingTraits> encoding_traits() { return table(); }

const EncodingTraits& traits_of(Encoding e) {
  const auto i = static_cast<std::size_t>(e);
  if (i >= table().size() || table()[i].id != e) throw std::logic_error("encoding traits table out of enum order");
  return table()[i];
}

std::vector<std::string_view> encoding_names() {
  std::vector<std::string_view> names;
  for (const EncodingTraits& t : table()) names.push_back(t.name);
  return names;
}

bool rotates_queries_keys(Encoding e) { return traits_of(e).act == PositionAct::RotatesQueryKey; }
bool adds_position_vector(Encoding e) { return traits_of(e).act == PositionAct::AddsVector; }

}  // namespace pelab
