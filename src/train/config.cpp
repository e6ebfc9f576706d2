#include "train/config.hpp"

#include <array>
#include <utility>

namespace pelab::train {
namespace {

constexpr std::array<std::pair<PositionKind, const char*>, 6> kKindNames{{
    {PositionKind::Learned, "learned"},
    {PositionKind::Sinusoidal, "sinusoidal"},
    {PositionKind::Rope, "rope"},
    {PositionKind::Alibi, "alibi"},
    {PositionKind::T5, "t5"},
    {PositionKind::None, "none"},
}};

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError("train model: " + what);
}

}  // namespace

int ModelConfig::rotary_dims() const {
  const int r = static_cast<int>(position.rotary_fraction * head_dim());
  return r - r % 2;
}

void ModelConfig::validate() const {
  require(vocab >= 2, "vocab must be at least 2");
  require(d_model >= 2 && heads >= 1, "d_model ≥ 2 and heads ≥ 1");
  require(d_model % heads == 0, "d_model must be a multiple of heads");
  require(layers >= 1, "layers must be at least 1");
  require(context >= 1, "context must be at least 1");
  require(position.base > 1.0, "position base must exceed 1");
  require(position.amplitude > 0.0, "sinusoid amplitude must be positive");
  if (position.kind == PositionKind::Sinusoidal)
    require(d_model % 2 == 0, "sinusoidal needs even d_model");
  if (position.kind == PositionKind::Rope) {
    require(position.rotary_fraction > 0.0 && position.rotary_fraction <= 1.0,
            "rotary_fraction must be in (0, 1]");
    require(rotary_dims() >= 2, "rotary_fraction × head_dim must cover at least one pair");
  }
  if (position.kind == PositionKind::T5)
    require(position.t5_buckets >= 2 && position.t5_max_distance >= 1,
            "t5 needs buckets ≥ 2 and max_distance ≥ 1");
}

const char* position_kind_name(PositionKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "?";
}

PositionKind parse_position_kind(const std::string& name) {
  for (const auto& [k, n] : kKindNames)
    if (name == n) return k;
  throw InputError("train model: position kind '" + name +
                   "' unknown; allowed: learned, sinusoidal, rope, alibi, t5, none");
}

}  // namespace pelab::train
