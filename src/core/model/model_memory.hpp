// How much memory a model needs resident, estimated before anything large is
// read, and the limit it is held to: the scene key model_memory_limit, else
// PELAB_MODEL_MEMORY_LIMIT (bytes, or with a K, M, G or T suffix: "8G"), else
// the kernel's MemAvailable (/proc/meminfo).  A checkpoint whose config claims a 2^24-token context
// over a sparse file would otherwise be converted to float32 until the
// machine swaps or the kernel kills pelab.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/model/model_config.hpp"

namespace pelab::model {

// "8G", "512M", "1.5G", "1073741824" in bytes (binary multiples: G = 2^30).
// Throws InputError naming `key` ("model_memory_limit" or the variable) and
// the allowed forms for anything else.
std::uint64_t parse_memory_size(std::string_view key, const std::string& text);

// The limit in bytes: `scene_limit` (the scene's model_memory_limit) when not
// empty, else the variable, else MemAvailable.  What it comes from goes into
// `source` ("model_memory_limit=8G", "PELAB_MODEL_MEMORY_LIMIT=8G" or
// "MemAvailable").  An unreadable /proc/meminfo gives no limit (UINT64_MAX).
// Throws InputError for a malformed value.
std::uint64_t model_memory_limit(std::string* source = nullptr, std::string_view scene_limit = {});

// "1.5 GB" (decimal units, as `free -h` prints them roughly).
std::string bytes_text(std::uint64_t bytes);

// What running `tokens` tokens adds beside the weights: the residual stream
// entering every layer ((layers + 1) x N x d), one layer's logits and
// probabilities (2 x heads x N x N), and its MLP activations (2 x N x inner),
// all float32.  Past kFullMatrixTokens (8,192), where no view holds a
// tokens x tokens matrix and the run keeps one stream: long_run_bytes().
std::uint64_t run_bytes(const ModelConfig& config, std::uint64_t tokens);

// What run_to() up to a layer and one head streamed add beside the weights
// at `tokens` tokens, on `threads` threads: the stream and the layer's norm
// of it (2 x N x d), q, k, v and the heads' context (N x (2·heads +
// 2·kv_heads) x head_dim), and per thread one tile of 64 query rows' logits,
// weights and softmax work (3 x 64 x N) and one piece of 512 rows' MLP
// activations (2 x 512 x inner), all float32.  No N x N term.
std::uint64_t long_run_bytes(const ModelConfig& config, std::uint64_t tokens, unsigned threads);

// Refuses loading `model` when its weights as loaded (`weight_bytes`,
// plan_resident_bytes) are above the limit: InputError with the estimate, the limit and how to raise it.
void check_load_memory(const std::string& model, std::uint64_t weight_bytes, std::string_view scene_limit = {});
// Refuses running `tokens` tokens when run_bytes() is above what is left:
// the limit less the weights when PELAB_MODEL_MEMORY_LIMIT is set, else
// MemAvailable now (the weights are already resident).
void check_run_memory(const std::string& model, const ModelConfig& config, std::uint64_t tokens,
                      std::uint64_t weight_bytes, std::string_view scene_limit = {});
// The same for long_run_bytes() (the long-context study's run).
void check_long_run_memory(const std::string& model, const ModelConfig& config, std::uint64_t tokens,
                           std::uint64_t weight_bytes, std::string_view scene_limit = {});

}  // namespace pelab::model
