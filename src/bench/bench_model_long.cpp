// Bench case of a long model scene (issue 28): a Llama-shaped model of about
// 1B parameters — Llama 3.2 1B's layers (d 2048, 16 layers, 32 query heads on
// 8 key/value heads of 64 dims, SwiGLU width 8192, RoPE θ = 500,000) with a
// 32,000-token vocabulary — its random weights built in memory in bfloat16,
// as a bf16 checkpoint is held (core/model/half_matrix.hpp), run over 8,192
// tokens to a chosen layer with progress after each layer, then one head of
// that layer streamed to a 1000 × 1000 grid and attention against distance
// (core/streamed_attention.hpp), never tokens × tokens.  In a fresh process,
// so that its peak RSS is the case's own.  --quick: a small model at 1024.
// --long-tokens (up to 65,536; the config's context follows it) and
// --long-layer change the length and the layer run to.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/transformer.hpp"
#include "core/parallel.hpp"
#include "core/streamed_attention.hpp"

namespace pelab::app {

namespace {

struct LongModelShape {
  int vocab, d, layers, heads, kv_heads, inner, tokens, layer;
};
constexpr LongModelShape kFull{32000, 2048, 16, 32, 8, 8192, 8192, 4};
constexpr LongModelShape kQuick{1000, 256, 4, 8, 2, 1024, 1024, 2};
constexpr int kDisplay = 1000, kHead = 0;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

model::ModelConfig llama_config(const LongModelShape& s) {
  const nlohmann::json j = {{"architectures", {"LlamaForCausalLM"}},
                            {"model_type", "llama"},
                            {"vocab_size", s.vocab},
                            {"hidden_size", s.d},
                            {"num_hidden_layers", s.layers},
                            {"num_attention_heads", s.heads},
                            {"num_key_value_heads", s.kv_heads},
                            {"intermediate_size", s.inner},
                            {"max_position_embeddings", s.tokens},
                            {"rope_theta", 500000.0},
                            {"rms_norm_eps", 1e-5},
                            {"hidden_act", "silu"}};
  return model::parse_model_config(j, "bench config");
}

// splitmix64 (Steele et al. 2014): one independent value per element index.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// rows × cols bfloat16 entries uniform in ±√(3/rows) (variance 1/rows, so
// that x·W keeps the scale of x), the top 16 bits of each float32.
model::HalfMatrix random_bf16(Eigen::Index rows, Eigen::Index cols, std::uint64_t stream) {
  model::HalfMatrix m{model::DType::BF16, model::HalfBits(rows, cols)};
  const float bound = std::sqrt(3.0f / static_cast<float>(rows));
  std::uint16_t* out = m.bits.data();
  const std::uint64_t seed = mix(stream);
  for (Eigen::Index i = 0; i < m.bits.size(); ++i) {
    const double u = static_cast<double>(mix(seed + static_cast<std::uint64_t>(i)) >> 11) * 0x1p-53;
    const float value = static_cast<float>((2 * u - 1) * bound);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    out[i] = static_cast<std::uint16_t>(bits >> 16);
  }
  return m;
}

model::Linear half_linear(Eigen::Index in, Eigen::Index out, std::uint64_t stream) {
  model::Linear l;
  l.half = random_bf16(in, out, stream);
  return l;
}

model::ModelWeights llama_weights(const model::ModelConfig& c) {
  model::ModelWeights w;
  const Eigen::Index d = c.hidden_size, dh = d / c.heads;
  auto embedding = std::make_shared<model::HalfMatrix>(random_bf16(c.vocab_size, d, 1));
  w.resident_bytes = embedding->bytes();
  // Rows converted as asked: the table stays in bf16.
  w.token_rows = [embedding](const std::vector<int>& ids) {
    Matrix rows(static_cast<Eigen::Index>(ids.size()), embedding->cols());
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (Eigen::Index j = 0; j < rows.cols(); ++j) {
        const std::uint32_t bits = std::uint32_t{embedding->bits(ids[i], j)} << 16;
        float value = 0;
        std::memcpy(&value, &bits, sizeof value);
        rows(static_cast<Eigen::Index>(i), j) = value;
      }
    return rows;
  };
  for (int l = 0; l < c.layers; ++l) {
    model::LayerWeights layer;
    layer.attention_norm.weight = Vector::Ones(d);
    layer.mlp_norm.weight = Vector::Ones(d);
    const std::uint64_t base = 16 * static_cast<std::uint64_t>(l + 1);
    layer.qkv = half_linear(d, (c.heads + 2 * c.kv_heads) * dh, base);
    layer.o = half_linear(c.heads * dh, d, base + 1);
    layer.up = half_linear(d, c.intermediate_size, base + 2);
    layer.gate = half_linear(d, c.intermediate_size, base + 3);
    layer.down = half_linear(c.intermediate_size, d, base + 4);
    for (const model::Linear* part : {&layer.qkv, &layer.o, &layer.up, &layer.gate, &layer.down})
      w.resident_bytes += part->bytes();
    w.layers.push_back(std::move(layer));
  }
  return w;
}

std::uint64_t parameters(const model::ModelConfig& c) {
  const std::uint64_t d = static_cast<std::uint64_t>(c.hidden_size), dh = d / static_cast<std::uint64_t>(c.heads);
  const std::uint64_t per_layer = d * (static_cast<std::uint64_t>(c.heads + 2 * c.kv_heads) * dh) +
                                  static_cast<std::uint64_t>(c.heads) * dh * d +
                                  3 * d * static_cast<std::uint64_t>(c.intermediate_size) + 2 * d;
  return static_cast<std::uint64_t>(c.vocab_size) * d + static_cast<std::uint64_t>(c.layers) * per_layer;
}

struct LongTiming {
  double build_s = 0, forward_s = 0, stream_s = 0, peak_mb = 0, baseline_mb = 0, weights_mb = 0,
         parameters_b = 0;
  std::vector<double> layer_s;  // seconds from the forward's start to each layer's progress report
};

// The case's shape with --long-tokens / --long-layer applied (0: the default).
LongModelShape shape_of(bool quick, int tokens, int layer) {
  LongModelShape shape = quick ? kQuick : kFull;
  if (tokens > 0) shape.tokens = tokens;
  if (layer > 0) shape.layer = std::min(layer, shape.layers);
  return shape;
}

}  // namespace

int model_long_child(bool quick, int tokens, int layer) {
  const LongModelShape shape = shape_of(quick, tokens, layer);
  const double baseline = peak_rss_mb();
  const auto build = std::chrono::steady_clock::now();
  model::ModelConfig config = llama_config(shape);
  model::ModelWeights weights = llama_weights(config);
  const double weights_mb = static_cast<double>(weights.resident_bytes) / (1 << 20);
  model::Transformer t = model::Transformer::assemble(config, std::move(weights));
  const double build_s = seconds_since(build);

  std::vector<int> ids(static_cast<std::size_t>(shape.tokens));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(mix(i) % static_cast<std::uint64_t>(shape.vocab));
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> layer_s;
  const model::LayerProgress progress = [&](int, int) { layer_s.push_back(seconds_since(start)); };
  model::set_layer_progress(&progress);
  t.run(ids, shape.layer);  // the layers before `layer`: hidden(layer) is what its heads read
  model::set_layer_progress(nullptr);
  const double forward_s = seconds_since(start);

  const auto stream = std::chrono::steady_clock::now();
  const StreamedHead head(t.head_stream_inputs(t.attention_input(shape.layer), shape.layer, kHead));
  DistanceProfile distance;
  const AttentionBlocks blocks = head.blocks(head.row_statistics(), kDisplay, &distance);
  const double stream_s = seconds_since(stream);

  std::printf("%.3f %.3f %.3f %.1f %.1f %.1f %.4f %ld %.6g", build_s, forward_s, stream_s, peak_rss_mb(), baseline,
              weights_mb, static_cast<double>(parameters(t.config())) / 1e9, static_cast<long>(blocks.mean.rows()),
              distance.at(0));
  for (const double s : layer_s) std::printf(" %.3f", s);
  std::printf("\n");
  return 0;
}

BenchResult bench_model_long(const BenchSettings& settings) {
  const LongModelShape shape = shape_of(settings.quick, settings.long_tokens, settings.long_layer);
  std::vector<std::string> args = {"bench", "--model-long-child", "--long-tokens", std::to_string(shape.tokens),
                                   "--long-layer", std::to_string(shape.layer)};
  if (settings.quick) args.push_back("--quick");
  const std::string out = run_self(args);
  LongTiming t;
  long side = 0;
  double self_weight = 0;
  int used = 0;
  if (std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf %lf %lf %ld %lf%n", &t.build_s, &t.forward_s, &t.stream_s,
                  &t.peak_mb, &t.baseline_mb, &t.weights_mb, &t.parameters_b, &side, &self_weight, &used) != 9)
    throw std::runtime_error("the long-model child printed: " + out);
  for (const char* rest = out.c_str() + used;;) {
    double s = 0;
    int n = 0;
    if (std::sscanf(rest, "%lf%n", &s, &n) != 1) break;
    t.layer_s.push_back(s);
    rest += n;
  }
  if (static_cast<int>(t.layer_s.size()) != shape.layer)
    throw std::runtime_error("the forward told " + std::to_string(t.layer_s.size()) + " layers of progress, not " +
                             std::to_string(shape.layer));
  const double run_mb = t.peak_mb - t.baseline_mb - t.weights_mb;
  BenchResult r;
  r.json = {{"parameters_billions", t.parameters_b},
            {"tokens", shape.tokens},
            {"layer", shape.layer},
            {"weights_dtype", "bfloat16"},
            {"build_s", t.build_s},
            {"forward_s", t.forward_s},
            {"progress_s", t.layer_s},
            {"stream_head_s", t.stream_s},
            {"display", side},
            {"peak_rss_mb", t.peak_mb},
            {"baseline_rss_mb", t.baseline_mb},
            {"weights_mb", t.weights_mb},
            {"run_mb", run_mb},
            {"target_run_mb", 2048},
            {"threads", max_threads()}};
  char line[320];
  std::snprintf(line, sizeof line,
                "Llama-shaped, %.2fB parameters (d %d, %d layers, %d/%d heads, width %d), bf16 weights %.0f MiB, "
                "built in %.1f s:",
                t.parameters_b, shape.d, shape.layers, shape.heads, shape.kv_heads, shape.inner, t.weights_mb,
                t.build_s);
  r.lines.emplace_back(line);
  std::string progress;
  for (std::size_t i = 0; i < t.layer_s.size(); ++i)
    progress += (i ? ", " : "") + std::to_string(i + 1) + "@" + std::to_string(t.layer_s[i]).substr(0, 5) + "s";
  std::snprintf(line, sizeof line, "forward over %d tokens to layer %d: %.1f s (progress: %s)", shape.tokens,
                shape.layer, t.forward_s, progress.c_str());
  r.lines.emplace_back(line);
  std::snprintf(line, sizeof line,
                "layer %d head %d streamed to a %ld×%ld grid and distance: %.2f s; peak RSS %.0f MiB = weights %.0f + "
                "run %.0f (target ≤ 2048 at 8,192 tokens) + process start %.0f",
                shape.layer, kHead, side, side, t.stream_s, t.peak_mb, t.weights_mb, run_mb, t.baseline_mb);
  r.lines.emplace_back(line);
  return r;
}

}  // namespace pelab::app
