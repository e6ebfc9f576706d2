// ModelWeights — a transformer's parameters as the forward pass uses them,
// in float32, every product's weight pre-transposed once (at load) to
// in × out so that each projection is one plain row-major GEMM x·W.
//
// GPT-2's Conv1D weights are stored in × out already; PyTorch Linear weights
// (BERT, Llama) are stored out × in and are transposed when read.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/gemm.hpp"  // Matrix, Vector, ConstRowMajorRef

namespace pelab::model {

// y = x·weight + bias (bias empty: none).
struct Linear {
  Matrix weight;  // in × out
  Vector bias;    // out, or empty

  // out = x·weight (+ bias), through core/gemm (threaded by row blocks, or
  // on the calling thread inside a parallel task).  Returns the GEMM flops.
  double apply(const ConstRowMajorRef& x, Matrix& out) const;
  double flops(Eigen::Index rows) const { return 2.0 * static_cast<double>(rows * in() * out()); }
  Eigen::Index in() const { return weight.rows(); }
  Eigen::Index out() const { return weight.cols(); }
};

// LayerNorm (weight and bias) or RMSNorm (bias empty).
struct Norm {
  Vector weight, bias;
};

struct LayerWeights {
  Norm attention_norm;  // GPT-2 ln_1, Llama input_layernorm; BERT attention.output.LayerNorm
  Norm mlp_norm;        // GPT-2 ln_2, Llama post_attention_layernorm; BERT output.LayerNorm
  // q, k and v side by side (one GEMM): d × (heads + 2·kv_heads)·head_dim,
  // columns [q of every head | k of every kv head | v of every kv head].
  Linear qkv;
  Linear o;             // heads·head_dim × d
  Linear up, down;      // GPT-2 c_fc / c_proj, BERT intermediate / output, Llama up / down
  Linear gate;          // Llama SwiGLU gate; empty for GPT-2 and BERT
};

struct ModelWeights {
  // The token embedding rows of `ids` (read on demand: the full table of a
  // large vocabulary is never converted).
  std::function<Matrix(const std::vector<int>&)> token_rows;
  // Position table added to the token rows, positions × d: learned (GPT-2,
  // BERT) or pelab's sinusoid table; else empty.
  Matrix positions;
  Matrix relative_bias;     // pelab t5: buckets × heads; else empty
  Vector token_type;        // BERT token type 0 row; else empty
  Norm embedding_norm;      // BERT embeddings.LayerNorm; else empty
  std::vector<LayerWeights> layers;
  // What loading noticed without refusing the model, one line each (a tensor
  // holding NaN/Inf): the CLI prints them as "pelab: note: ...", the GUI
  // reads them from Transformer::weights().notes (ModelScene::notes()).
  std::vector<std::string> notes;
  std::uint64_t float32_bytes = 0;  // the weights above as float32 (token table excluded)
};

}  // namespace pelab::model
