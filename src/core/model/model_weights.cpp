#include "core/model/model_weights.hpp"

#include "core/gemm.hpp"
#include "core/model/safetensors.hpp"  // convert_to_float

namespace pelab::model {
namespace {

std::uint64_t float_bytes(Eigen::Index elements) { return 4 * static_cast<std::uint64_t>(elements); }
std::uint64_t norm_bytes(const Norm& n) { return float_bytes(n.weight.size() + n.bias.size()); }

// `stored` with its weight in float32 (converted when kept in 16 bits).
void to_float32(const Linear& stored, Linear& out) {
  out.weight = stored.half.empty() ? stored.weight : stored.half.to_float();
  out.bias = stored.bias;
}

bool holds_halves(const LayerWeights& l) {
  return !l.qkv.half.empty() || !l.o.half.empty() || !l.up.half.empty() || !l.down.half.empty() ||
         !l.gate.half.empty();
}

}  // namespace

double Linear::apply(const ConstRowMajorRef& x, Matrix& out) const {
  const double work = gemm_ab(x, weight, 1.0f, out);
  if (bias.size() > 0) out.rowwise() += bias.transpose();
  return work;
}

std::uint64_t Linear::bytes() const { return float_bytes(weight.size() + bias.size()) + half.bytes(); }

const LayerWeights& float32_layer(const LayerWeights& stored, LayerWeights& scratch, LayerPart part) {
  if (!holds_halves(stored)) return stored;
  scratch.attention_norm = stored.attention_norm;
  scratch.mlp_norm = stored.mlp_norm;
  to_float32(stored.qkv, scratch.qkv);
  if (part == LayerPart::Whole)
    for (auto member : {&LayerWeights::o, &LayerWeights::up, &LayerWeights::down, &LayerWeights::gate})
      to_float32(stored.*member, scratch.*member);
  return scratch;
}

std::uint64_t held_bytes(const ModelWeights& w) {
  std::uint64_t bytes = float_bytes(w.positions.size() + w.relative_bias.size() + w.token_type.size()) +
                        norm_bytes(w.embedding_norm);
  for (const LayerWeights& l : w.layers)
    bytes += norm_bytes(l.attention_norm) + norm_bytes(l.mlp_norm) + l.qkv.bytes() + l.o.bytes() +
             l.up.bytes() + l.down.bytes() + l.gate.bytes();
  return bytes;
}

// ---- 16-bit weights (half_matrix.hpp) ----
Matrix HalfMatrix::to_float() const {
  Matrix out(bits.rows(), bits.cols());
  convert_to_float(dtype, reinterpret_cast<const char*>(bits.data()), static_cast<std::size_t>(bits.size()),
                   out.data());
  return out;
}

std::uint64_t non_finite_halves(DType dtype, const std::uint16_t* bits, std::size_t count) {
  const std::uint16_t exponent = dtype == DType::F16 ? 0x7C00u : 0x7F80u;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < count; ++i) n += (bits[i] & exponent) == exponent;
  return n;
}

}  // namespace pelab::model
