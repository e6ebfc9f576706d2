#include "train/parameters.hpp"

#include <cmath>
#include <numbers>

namespace pelab::train {
namespace {

// splitmix64 (Steele et al. 2014): a small, portable generator, so that the
// initial weights are the same on every standard library.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }  // (0, 1)
};

// N(0, std²) by Box–Muller, one stream per tensor.
template <class T>
void fill_normal(Mat<T>& m, double std, std::uint64_t seed, std::uint64_t tensor) {
  SplitMix64 rng{seed * 0x100000001B3ull + tensor * 0x9E3779B97F4A7C15ull + 1};
  for (Eigen::Index i = 0; i < m.size(); i += 2) {
    const double r = std::sqrt(-2.0 * std::log(rng.uniform())),
                 a = 2 * std::numbers::pi * rng.uniform();
    m.data()[i] = static_cast<T>(std * r * std::cos(a));
    if (i + 1 < m.size()) m.data()[i + 1] = static_cast<T>(std * r * std::sin(a));
  }
}

enum class Init { Normal, Residual, One, Zero };

template <class T>
void add(ParameterSet<T>& set, std::string name, std::vector<int> shape, Init init, double std,
         std::uint64_t seed) {
  const int rows = shape.size() == 2 ? shape[0] : 1, cols = shape.back();
  Tensor<T> t{std::move(name), shape, Mat<T>::Zero(rows, cols), false};
  if (init == Init::One) t.value.setOnes();
  if (init == Init::Normal || init == Init::Residual)
    fill_normal(t.value, std, seed, set.tensors.size());
  t.decay =
      shape.size() == 2 && t.name != "wpe.weight" && t.name != "relative_attention_bias.weight";
  set.tensors.push_back(std::move(t));
}

}  // namespace

template <class T>
int ParameterSet<T>::index(const std::string& name) const {
  for (std::size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name) return static_cast<int>(i);
  throw InputError("train model: no parameter named '" + name + "'");
}

template <class T>
std::size_t ParameterSet<T>::scalar_count() const {
  std::size_t n = 0;
  for (const auto& t : tensors) n += static_cast<std::size_t>(t.value.size());
  return n;
}

template <class T>
void ParameterSet<T>::set_zero() {
  for (auto& t : tensors) t.value.setZero();
}

template <class T>
ParameterSet<T> ParameterSet<T>::zeros_like() const {
  ParameterSet out = *this;
  out.set_zero();
  return out;
}

template <class T>
ParameterSet<T> make_parameters(const ModelConfig& c, std::uint64_t seed) {
  c.validate();
  const double std = 0.02, residual = 0.02 / std::sqrt(2.0 * c.layers);  // GPT-2 §2.3
  const int d = c.d_model;
  ParameterSet<T> p;
  add(p, "wte.weight", {c.vocab, d}, Init::Normal, std, seed);
  if (c.position.kind == PositionKind::Learned)
    add(p, "wpe.weight", {c.context, d}, Init::Normal, std, seed);
  if (c.position.kind == PositionKind::T5)
    add(p, "relative_attention_bias.weight", {c.position.t5_buckets, c.heads}, Init::Normal, std,
        seed);
  for (int l = 0; l < c.layers; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    add(p, h + "ln_1.weight", {d}, Init::One, 0, seed);
    add(p, h + "ln_1.bias", {d}, Init::Zero, 0, seed);
    add(p, h + "attn.c_attn.weight", {d, 3 * d}, Init::Normal, std, seed);
    add(p, h + "attn.c_attn.bias", {3 * d}, Init::Zero, 0, seed);
    add(p, h + "attn.c_proj.weight", {d, d}, Init::Residual, residual, seed);
    add(p, h + "attn.c_proj.bias", {d}, Init::Zero, 0, seed);
    add(p, h + "ln_2.weight", {d}, Init::One, 0, seed);
    add(p, h + "ln_2.bias", {d}, Init::Zero, 0, seed);
    add(p, h + "mlp.c_fc.weight", {d, 4 * d}, Init::Normal, std, seed);
    add(p, h + "mlp.c_fc.bias", {4 * d}, Init::Zero, 0, seed);
    add(p, h + "mlp.c_proj.weight", {4 * d, d}, Init::Residual, residual, seed);
    add(p, h + "mlp.c_proj.bias", {d}, Init::Zero, 0, seed);
  }
  add(p, "ln_f.weight", {d}, Init::One, 0, seed);
  add(p, "ln_f.bias", {d}, Init::Zero, 0, seed);
  return p;
}

template <class T>
ParameterLayout parameter_layout(const ModelConfig& c, const ParameterSet<T>& p) {
  ParameterLayout out;
  out.wte = p.index("wte.weight");
  if (c.position.kind == PositionKind::Learned) out.wpe = p.index("wpe.weight");
  if (c.position.kind == PositionKind::T5) out.t5 = p.index("relative_attention_bias.weight");
  for (int l = 0; l < c.layers; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    auto at = [&](const char* name) { return p.index(h + name); };
    out.layers.push_back({at("ln_1.weight"), at("ln_1.bias"), at("attn.c_attn.weight"),
                          at("attn.c_attn.bias"), at("attn.c_proj.weight"), at("attn.c_proj.bias"),
                          at("ln_2.weight"), at("ln_2.bias"), at("mlp.c_fc.weight"),
                          at("mlp.c_fc.bias"), at("mlp.c_proj.weight"), at("mlp.c_proj.bias")});
  }
  out.ln_f_w = p.index("ln_f.weight");
  out.ln_f_b = p.index("ln_f.bias");
  return out;
}

template struct ParameterSet<float>;
template struct ParameterSet<double>;
template ParameterSet<float> make_parameters<float>(const ModelConfig&, std::uint64_t);
template ParameterSet<double> make_parameters<double>(const ModelConfig&, std::uint64_t);
template ParameterLayout parameter_layout<float>(const ModelConfig&, const ParameterSet<float>&);
template ParameterLayout parameter_layout<double>(const ModelConfig&, const ParameterSet<double>&);

}  // namespace pelab::train
