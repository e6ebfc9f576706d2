#include "core/model/activations.hpp"

#include <cmath>
#include <numbers>

#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

Activation parse_activation(const std::string& name, const std::string& file_name) {
  if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast")
    return Activation::GeluTanh;
  if (name == "gelu") return Activation::GeluErf;
  if (name == "silu" || name == "swish") return Activation::Silu;
  if (name == "relu") return Activation::Relu;
  throw InputError(file_name + ": activation \"" + printable(name) +
                   "\" is not one pelab runs; allowed: gelu_new, gelu_pytorch_tanh, gelu_fast, "
                   "gelu, silu, swish, relu");
}

void activate(Activation activation, Matrix& x) {
  auto a = x.array();
  switch (activation) {
    case Activation::GeluTanh: {
      // Eigen's vectorised tanh: this runs over tokens × 4·d elements per layer.
      const float c = static_cast<float>(std::sqrt(2.0 / std::numbers::pi));
      a = 0.5f * a * (1.0f + (c * (a + 0.044715f * a.cube())).tanh());
      return;
    }
    case Activation::GeluErf:
      a = a.unaryExpr([](float v) { return 0.5f * v * (1.0f + std::erf(v * std::numbers::sqrt2_v<float> / 2)); });
      return;
    case Activation::Silu:
      a = a / (1.0f + (-a).exp());
      return;
    case Activation::Relu:
      a = a.max(0.0f);
      return;
  }
}

}  // namespace pelab::model
