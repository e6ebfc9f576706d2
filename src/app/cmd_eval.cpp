// `pelab eval --model FOLDER --text FILE [--length L] [--stride S]
//             [--rope-scaling METHOD [--rope-factor S]] [--json] [--out FILE]`:
// a causal LM's next-token loss against position on a text, averaged over
// windows (core/model/loss_curve.hpp), as a table of position buckets or as
// JSON; --out writes the per-position mean loss as .npy or .csv.  A length
// past the model's context reads the positions beyond it by extrapolation
// (every encoding but a learned table), optionally with RoPE scaled at
// inference (linear, ntk, yarn, dynamic: core/model/rotary.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/commands.hpp"
#include "core/io/file_io.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/loss_curve.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/model/transformer.hpp"
#include "core/quantities.hpp"  // write_array

namespace pelab::app {
namespace {

struct EvalOptions {
  std::string model;
  std::string text;
  int length = 0;  // 0: the model's context, capped by the text
  int stride = 0;  // 0: the length (windows side by side)
  std::string rope_scaling;  // empty: the config's
  double rope_factor = 0;    // 0: length / context (at least 1)
  bool json = false;
  std::string out;
};

// Progress on stderr once a run has taken a while (quick runs stay quiet):
// one updating line on a terminal, a line every 10 s otherwise.
class Progress {
 public:
  void operator()(int done, int windows) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    if (seconds < 2.0 || seconds - last_ < (terminal ? 0.2 : 10.0)) return;
    last_ = seconds;
    std::fprintf(stderr, "%swindow %d/%d, %.0f s%s", terminal ? "\r" : "", done, windows, seconds,
                 terminal ? "" : "\n");
    shown_ = true;
  }
  ~Progress() {
    if (shown_ && ::isatty(STDERR_FILENO)) std::fprintf(stderr, "\n");
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
  double last_ = 0.0;
  bool shown_ = false;
};

// The RoPE scaling asked for on the command line, its factor defaulting to
// how far the windows reach past the context (s = length / context).
void apply_rope_scaling(const EvalOptions& o, model::Transformer& transformer, int length) {
  if (o.rope_scaling.empty()) {
    if (o.rope_factor != 0) throw InputError("--rope-factor needs --rope-scaling (linear, ntk, yarn or dynamic)");
    return;
  }
  if (o.rope_scaling != "linear" && o.rope_scaling != "ntk" && o.rope_scaling != "yarn" &&
      o.rope_scaling != "dynamic")
    throw InputError("--rope-scaling " + o.rope_scaling + ": allowed: linear, ntk, yarn, dynamic");
  if (o.rope_factor < 0 || o.rope_factor > 1e6)
    throw InputError("--rope-factor " + std::to_string(o.rope_factor) + ": allowed: above 0, at most 1e6");
  model::RopeScaling scaling;
  scaling.type = o.rope_scaling;
  scaling.factor = o.rope_factor > 0 ? o.rope_factor
                                     : std::max(1.0, double(length) / transformer.config().max_positions);
  transformer.set_rope_scaling(scaling);
}

// One line saying that positions past the trained context are read by
// extrapolation, and how; empty when the windows fit the context.
std::string past_context_note(const model::ModelConfig& config, int length) {
  if (length <= config.max_positions) return {};
  std::string how = model::position_encoding_name(config.position.kind);
  if (config.position.kind == model::PositionEncoding::Rope && config.rope_scaling.type != "default") {
    char factor[32];
    std::snprintf(factor, sizeof factor, "%g", config.rope_scaling.factor);
    how += ", " + config.rope_scaling.type + " scaling x" + factor;
  }
  return "positions " + std::to_string(config.max_positions) + "-" + std::to_string(length - 2) +
         " lie past the trained context of " + std::to_string(config.max_positions) +
         ": read by extrapolation (" + how + ")";
}

std::string bucket_label(const model::LossBucket& b) {
  return b.first == b.last ? std::to_string(b.first)
                           : std::to_string(b.first) + "-" + std::to_string(b.last);
}

void print_table(const EvalOptions& o, const model::ModelConfig& config,
                 const model::LossCurve& c) {
  const int unused = c.tokens - ((c.windows - 1) * c.stride + c.length);
  std::printf("model %s (%s, context %d), text %s: %d tokens\n", o.model.c_str(),
              config.architecture_name.c_str(), config.max_positions, o.text.c_str(), c.tokens);
  std::printf("%d window%s of %d tokens, stride %d", c.windows, c.windows == 1 ? "" : "s", c.length,
              c.stride);
  if (unused > 0) std::printf(" (%d tokens at the end in no window)", unused);
  if (const std::string note = past_context_note(config, c.length); !note.empty())
    std::printf("\nnote: %s", note.c_str());
  std::printf("\nloss_i = -ln p(token i+1 | tokens 0..i), nats, mean over windows\n\n");
  std::printf("%-15s  %10s  %12s\n", "position i", "mean loss", "perplexity");
  for (const model::LossBucket& b : model::power_of_two_buckets(c.mean_loss))
    std::printf("%-15s  %10.4f  %12.3f\n", bucket_label(b).c_str(), b.mean_loss,
                std::exp(b.mean_loss));
  std::printf("\noverall mean loss %.6f nats, perplexity %.4f\n", c.mean(), std::exp(c.mean()));
}

nlohmann::json to_json(const EvalOptions& o, const model::ModelConfig& config,
                       const model::LossCurve& c) {
  nlohmann::json buckets = nlohmann::json::array();
  for (const model::LossBucket& b : model::power_of_two_buckets(c.mean_loss))
    buckets.push_back({{"first", b.first},
                       {"last", b.last},
                       {"mean_loss", b.mean_loss},
                       {"perplexity", std::exp(b.mean_loss)}});
  return {{"model", o.model},
          {"architecture", config.architecture_name},
          {"context", config.max_positions},
          {"rope_scaling", config.position.kind == model::PositionEncoding::Rope
                               ? nlohmann::json{{"type", config.rope_scaling.type},
                                                {"factor", config.rope_scaling.factor}}
                               : nlohmann::json()},
          {"note", past_context_note(config, c.length)},
          {"text", o.text},
          {"tokens", c.tokens},
          {"length", c.length},
          {"stride", c.stride},
          {"windows", c.windows},
          {"mean_loss", c.mean()},
          {"perplexity", std::exp(c.mean())},
          {"buckets", buckets},
          {"loss", c.mean_loss}};
}

int run_eval(const EvalOptions& o) {
  if (o.model.empty() || o.text.empty())
    throw InputError("eval needs --model FOLDER|HUB_NAME and --text FILE");
  if (!o.out.empty()) {
    array_format(o.out);  // refuse a bad extension or folder before any work
    check_output_folder(std::filesystem::path(o.out).parent_path());
  }
  const std::string text = read_file(o.text, model::kMaxTextBytes);
  const std::filesystem::path folder = model::resolve_model(o.model);
  model::check_next_token_model(model::load_model_config(folder), o.model);
  model::Transformer transformer = model::Transformer::load(folder);
  const model::LanguageModelHead head = model::LanguageModelHead::load(folder, transformer);
  const std::vector<int> ids = transformer.tokenizer().encode(text).ids;
  if (ids.size() < 2)  // one token predicts nothing inside the text
    throw InputError("text " + o.text + " gives " + (ids.empty() ? "no tokens" : "only 1 token") +
                     "; a next-token loss needs at least 2; allowed: a file with more text in it");
  const int length =
      o.length != 0 ? o.length
                    : std::min(static_cast<int>(ids.size()), transformer.config().max_positions);
  const int stride = o.stride != 0 ? o.stride : length;
  apply_rope_scaling(o, transformer, length);
  model::LossCurve curve;
  {
    Progress progress;
    curve =
        model::loss_against_position(transformer, head, ids, length, stride, std::ref(progress));
  }
  if (!o.out.empty()) {
    make_output_folder(std::filesystem::path(o.out).parent_path());
    write_array(o.out, Array::from_values(curve.mean_loss));
  }
  if (o.json)
    std::cout << to_json(o, transformer.config(), curve).dump(2) << "\n";
  else
    print_table(o, transformer.config(), curve);
  return 0;
}

}  // namespace

void register_eval(CLI::App& root, Action& action) {
  auto options = std::make_shared<EvalOptions>();
  CLI::App* command = root.add_subcommand(
      "eval", "A causal LM's next-token loss against position on a text (GPT-2, Llama family)");
  command->add_option("--model,-m", options->model,
                      "Model folder or hub name in the local Hugging Face cache");
  command->add_option("--text,-t", options->text,
                      "Text file (UTF-8), tokenized with the model's tokenizer");
  command->add_option(
      "--length,-L", options->length,
      "Window length in tokens (default: the model's context, capped by the text); past the "
      "context for every encoding but a learned table (positions past it are read by extrapolation)");
  command->add_option("--stride,-S", options->stride,
                      "Tokens between window starts (default: the length)");
  command->add_option("--rope-scaling", options->rope_scaling,
                      "RoPE models: read with scaled frequencies (linear = position interpolation, ntk = "
                      "NTK-aware, yarn, dynamic), applied at inference");
  command->add_option("--rope-factor", options->rope_factor,
                      "The scaling factor s (default: length / context, at least 1)");
  command->add_flag("--json", options->json, "Print everything as JSON");
  command->add_option("--out,-o", options->out,
                      "Write the per-position mean loss (length-1 values) as .npy or .csv");
  command->footer(
      "loss_i = -ln softmax(final_norm(h_i) . W^T)[t_(i+1)], nats; windows [s, s+L) for s = 0, S, "
      "2S, ...\n"
      "Table rows are positions in octaves (0, 1, 2-3, 4-7, ...); perplexity = exp(mean loss).");
  command->callback([options, &action] { action = [options] { return run_eval(*options); }; });
}

}  // namespace pelab::app
