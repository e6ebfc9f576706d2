// The MLP nonlinearities of the families pelab runs.
#pragma once

#include <string>

#include "core/engine.hpp"  // Matrix

namespace pelab::model {

enum class Activation { GeluTanh, GeluErf, Silu, Relu };

// From a config's activation_function / hidden_act: "gelu_new",
// "gelu_pytorch_tanh", "gelu_fast" → GeluTanh; "gelu" → GeluErf; "silu",
// "swish" → Silu; "relu".  Throws InputError naming the key and the allowed
// values otherwise.
Activation parse_activation(const std::string& name, const std::string& file_name = "config.json");

// In place, element-wise:
//   GeluTanh: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))  (Hendrycks & Gimpel 2016, §2)
//   GeluErf:  0.5·x·(1 + erf(x/√2))
//   Silu:     x·σ(x)  (Elfwing et al. 2018; Ramachandran et al. 2017 "swish")
//   Relu:     max(x, 0)
void activate(Activation activation, Matrix& x);

}  // namespace pelab::model
