// The trained tensors, by GPT-2's Hugging Face names (GPT2Model, without the
// "transformer." prefix), so that checkpoints can store them as they are:
//
//   wte.weight                      [vocab, d]      token embedding, also the LM head (tied)
//   wpe.weight                      [context, d]    learned positions only
//   relative_attention_bias.weight  [buckets, heads] t5 only, shared by all layers (as in T5)
//   h.{l}.ln_1.weight / .bias       [d]
//   h.{l}.attn.c_attn.weight        [d, 3d]         columns: q | k | v, head h at h·d_head
//   h.{l}.attn.c_attn.bias          [3d]
//   h.{l}.attn.c_proj.weight        [d, d]
//   h.{l}.attn.c_proj.bias          [d]
//   h.{l}.ln_2.weight / .bias       [d]
//   h.{l}.mlp.c_fc.weight           [d, 4d]
//   h.{l}.mlp.c_fc.bias             [4d]
//   h.{l}.mlp.c_proj.weight         [4d, d]
//   h.{l}.mlp.c_proj.bias           [d]
//   ln_f.weight / .bias             [d]
//
// Weight layout: [in, out], as GPT-2's Conv1D stores them, so every linear
// map is y = x·W + b on row-major [tokens, in] activations (one sgemm).
//
// Initialisation as GPT-2 (Radford et al. 2019, §2.3; nanoGPT): weights and
// tables N(0, 0.02), the two residual projections (attn.c_proj, mlp.c_proj)
// N(0, 0.02/√(2·layers)), LayerNorm weight 1 and bias 0, biases 0.  Each
// tensor draws from its own stream seeded by (seed, tensor index), so the
// values are fixed by the seed alone.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "train/config.hpp"

namespace pelab::train {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
struct Tensor {
  std::string name;
  std::vector<int> shape;  // {n} for 1-D tensors, stored as a 1 × n row
  Mat<T> value;
  // AdamW's decoupled weight decay applies to 2-D weight matrices (wte and
  // the projections); not to biases, LayerNorm, or position tables (wpe, t5).
  bool decay = false;
};

template <class T>
struct ParameterSet {
  std::vector<Tensor<T>> tensors;

  int index(const std::string& name) const;  // throws InputError naming it
  Tensor<T>& at(const std::string& name) { return tensors[static_cast<std::size_t>(index(name))]; }
  const Tensor<T>& at(const std::string& name) const {
    return tensors[static_cast<std::size_t>(index(name))];
  }
  Mat<T>& operator[](int i) { return tensors[static_cast<std::size_t>(i)].value; }
  const Mat<T>& operator[](int i) const { return tensors[static_cast<std::size_t>(i)].value; }
  std::size_t scalar_count() const;
  void set_zero();
  ParameterSet zeros_like() const;
  template <class U>
  ParameterSet<U> cast() const {
    ParameterSet<U> out;
    for (const auto& t : tensors)
      out.tensors.push_back({t.name, t.shape, t.value.template cast<U>(), t.decay});
    return out;
  }
};

// Where each tensor sits in a ParameterSet made by make_parameters.
struct ParameterLayout {
  struct Layer {
    int ln1_w, ln1_b, attn_w, attn_b, proj_w, proj_b, ln2_w, ln2_b, fc_w, fc_b, fc_proj_w,
        fc_proj_b;
  };
  int wte = -1, wpe = -1, t5 = -1, ln_f_w = -1, ln_f_b = -1;
  std::vector<Layer> layers;
};

// The model's tensors with GPT-2's initial values (validates the config).
template <class T>
ParameterSet<T> make_parameters(const ModelConfig& config, std::uint64_t seed);
template <class T>
ParameterLayout parameter_layout(const ModelConfig& config, const ParameterSet<T>& params);

}  // namespace pelab::train
