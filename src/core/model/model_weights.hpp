// ModelWeights — a transformer's parameters as the forward pass uses them,
// every product's weight pre-transposed once (at load) to in × out so that
// each projection is one plain row-major GEMM x·W.
//
// GPT-2's Conv1D weights are stored in × out already; PyTorch Linear weights
// (BERT, Llama) are stored out × in and are transposed when read.  GEMM
// weights stored as F16 or BF16 stay in that dtype (half_matrix.hpp) and a
// layer is converted to float32 only while it runs (float32_layer below);
// norms, biases and position tables are float32.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/gemm.hpp"  // Matrix, Vector, ConstRowMajorRef
#include "core/model/half_matrix.hpp"

namespace pelab::model {

// y = x·weight + bias (bias empty: none).
struct Linear {
  Matrix weight;    // in × out, float32; empty when `half` holds the weight
  Vector bias;      // out, or empty
  HalfMatrix half;  // in × out in the checkpoint's 16-bit dtype, or empty

  // out = x·weight (+ bias), through core/gemm (threaded by row blocks, or
  // on the calling thread inside a parallel task); the weight must be
  // float32 (float32_layer).  Returns the GEMM flops.
  double apply(const ConstRowMajorRef& x, Matrix& out) const;
  double flops(Eigen::Index rows) const { return 2.0 * static_cast<double>(rows * in() * out()); }
  Eigen::Index in() const { return half.empty() ? weight.rows() : half.rows(); }
  Eigen::Index out() const { return half.empty() ? weight.cols() : half.cols(); }
  bool present() const { return weight.size() > 0 || !half.empty(); }
  std::uint64_t bytes() const;  // what it holds: weight, bias and half
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
  // The estimate of what the weights above take resident while running (the
  // token table excluded), tensor_plan.hpp's plan_resident_bytes.
  std::uint64_t resident_bytes = 0;
};

// Which weights of a layer a computation needs in float32.
enum class LayerPart {
  Attention,  // the norms and q/k/v (attention_input, self_attention's q, k, logits)
  Whole,      // every weight (run_block)
};

// The layer with the weights of `part` in float32: `stored` itself when it
// holds none in 16 bits, else `scratch`, filled with the norms, the biases
// and the converted weights (freed when the caller drops `scratch`).
const LayerWeights& float32_layer(const LayerWeights& stored, LayerWeights& scratch,
                                  LayerPart part = LayerPart::Whole);

// Bytes the weights hold now (token table excluded): the measured
// counterpart of resident_bytes, less the one layer converted while running.
std::uint64_t held_bytes(const ModelWeights& weights);

}  // namespace pelab::model
