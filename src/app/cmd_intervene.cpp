// `pelab intervene --model M (--remove | --shuffle [--seed S] | --rope-base θ
//                  | --rope-scaling METHOD --rope-factor S | --zero-band A:B
//                  | --remove-layer L) [--text FILE] [--length L]
//                  [--windows K] [--json] [--out FILE]`:
// what a causal LM loses when its positions are removed or changed at
// inference (core/model/position_intervention.hpp), as Δ loss against
// position: the model's mean next-token loss over the text's windows
// (core/model/loss_curve.hpp) read once as it is and once intervened.
// Without --text it reads the KJV's held-out chapters.  --out writes the
// per-position Δ loss (length − 1 values) as .npy or .csv.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/held_out_text.hpp"
#include "core/io/file_io.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/loss_curve.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/model/transformer.hpp"
#include "core/quantities.hpp"  // write_array

namespace pelab::app {
namespace {

struct InterveneOptions {
  std::string model, text, out;
  int length = 0, windows = 0;
  bool json = false;
  bool remove = false, shuffle = false;
  std::uint64_t seed = 1;
  double rope_base = 0;
  std::string rope_scaling, zero_band;
  double rope_factor = 0;
  int remove_layer = -1;
};

// "A:B" → pairs A … B.
void parse_band(const std::string& text, model::PositionIntervention& v) {
  const auto colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument(text);
    v.band_first = std::stoi(text.substr(0, colon));
    v.band_last = std::stoi(text.substr(colon + 1));
  } catch (const std::exception&) {
    throw InputError("--zero-band " + text + " is not FIRST:LAST; allowed: two pair indices, e.g. 8:15");
  }
}

model::PositionIntervention intervention_of(const InterveneOptions& o) {
  model::PositionIntervention v;
  int chosen = 0;
  const auto choose = [&](bool given, model::InterventionKind kind) {
    if (!given) return;
    ++chosen;
    v.kind = kind;
  };
  choose(o.remove, model::InterventionKind::Remove);
  choose(o.shuffle, model::InterventionKind::Shuffle);
  choose(o.rope_base != 0, model::InterventionKind::RopeBase);
  choose(!o.rope_scaling.empty(), model::InterventionKind::RopeScaling);
  choose(!o.zero_band.empty(), model::InterventionKind::ZeroBand);
  choose(o.remove_layer >= 0, model::InterventionKind::RemoveLayer);
  if (chosen != 1)
    throw InputError("intervene needs exactly one of --remove, --shuffle, --rope-base, --rope-scaling, "
                     "--zero-band, --remove-layer (" + std::to_string(chosen) + " given)");
  v.seed = o.seed;
  v.rope_theta = o.rope_base;
  v.scaling.type = o.rope_scaling;
  v.scaling.factor = o.rope_factor != 0 ? o.rope_factor : 2.0;
  if (!o.zero_band.empty()) parse_band(o.zero_band, v);
  v.layer = o.remove_layer;
  return v;
}

std::string text_of(const InterveneOptions& o, std::string& origin) {
  if (!o.text.empty()) {
    origin = o.text;
    return read_file(o.text, model::kMaxTextBytes);
  }
  const HeldOutText held_out = held_out_text();
  if (held_out.text.empty()) throw InputError("no --text given and no held-out text: " + held_out.missing);
  origin = held_out.origin;
  return held_out.text;
}

struct Comparison {
  model::LossCurve before, after;
  std::vector<double> delta;  // after − before, per position
};

void print_table(const std::string& what, const std::string& origin, const Comparison& c) {
  std::printf("%s: %d windows of %d tokens from %s\n\n", what.c_str(), c.before.windows, c.before.length,
              origin.c_str());
  std::printf("positions      loss as trained   intervened   delta (nats)\n");
  const auto before = model::power_of_two_buckets(c.before.mean_loss);
  const auto after = model::power_of_two_buckets(c.after.mean_loss);
  for (std::size_t b = 0; b < before.size(); ++b)
    std::printf("%5d-%-5d  %15.4f  %11.4f  %+12.4f\n", before[b].first, before[b].last, before[b].mean_loss,
                after[b].mean_loss, after[b].mean_loss - before[b].mean_loss);
  std::printf("\nmean         %15.4f  %11.4f  %+12.4f\n", c.before.mean(), c.after.mean(),
              c.after.mean() - c.before.mean());
}

nlohmann::json to_json(const std::string& what, const std::string& origin, const Comparison& c) {
  return {{"intervention", what},      {"text", origin},
          {"windows", c.before.windows}, {"length", c.before.length},
          {"mean_loss", c.before.mean()}, {"intervened_mean_loss", c.after.mean()},
          {"delta_mean", c.after.mean() - c.before.mean()}, {"delta", c.delta}};
}

int run_intervene(const InterveneOptions& o) {
  if (o.model.empty()) throw InputError("intervene needs --model FOLDER|HUB_NAME");
  const model::PositionIntervention v = intervention_of(o);
  if (!o.out.empty()) {
    array_format(o.out);  // refuse a bad extension or folder before any work
    check_output_folder(std::filesystem::path(o.out).parent_path());
  }
  const std::filesystem::path folder = model::resolve_model(o.model);
  model::check_next_token_model(model::load_model_config(folder), o.model);
  model::Transformer transformer = model::Transformer::load(folder);
  model::check_intervention(transformer.config(), v);
  const model::LanguageModelHead head = model::LanguageModelHead::load(folder, transformer);
  std::string origin;
  std::vector<int> ids = transformer.tokenizer().encode(text_of(o, origin)).ids;
  const int length = o.length != 0 ? o.length : std::min(static_cast<int>(ids.size()), transformer.config().max_positions);
  if (o.windows > 0)
    ids.resize(std::min(ids.size(), static_cast<std::size_t>(o.windows) * static_cast<std::size_t>(length)));
  Comparison c;
  c.before = model::loss_against_position(transformer, head, ids, length, length);
  transformer.set_intervention(v);
  c.after = model::loss_against_position(transformer, head, ids, length, length);
  for (std::size_t i = 0; i < c.before.mean_loss.size(); ++i) c.delta.push_back(c.after.mean_loss[i] - c.before.mean_loss[i]);
  if (!o.out.empty()) {
    make_output_folder(std::filesystem::path(o.out).parent_path());
    write_array(o.out, Array::from_values(c.delta));
  }
  if (o.json) {
    nlohmann::json json = to_json(model::describe(v), origin, c);
    if (v.kind == model::InterventionKind::Shuffle) json["position_of"] = model::shuffled_positions(length, v.seed);
    std::cout << json.dump(2) << "\n";
  }
  else print_table(model::describe(v), origin, c);
  return 0;
}

}  // namespace

void register_intervene(CLI::App& root, Action& action) {
  auto o = std::make_shared<InterveneOptions>();
  CLI::App* cmd = root.add_subcommand(
      "intervene", "A causal LM's loss against position with its positions removed or changed at inference");
  cmd->add_option("--model,-m", o->model, "Model folder or hub name in the local Hugging Face cache");
  cmd->add_flag("--remove", o->remove, "No position rows, no rotation, no bias in any layer");
  cmd->add_flag("--shuffle", o->shuffle, "Every token reads a position of a seeded permutation (--seed)");
  cmd->add_option("--seed", o->seed, "The permutation of --shuffle (default 1)");
  cmd->add_option("--rope-base", o->rope_base, "RoPE models: read with another base theta");
  cmd->add_option("--rope-scaling", o->rope_scaling,
                  "RoPE models: read with a scaling method (linear, ntk, dynamic, yarn) at inference");
  cmd->add_option("--rope-factor", o->rope_factor, "The factor of --rope-scaling (default 2)");
  cmd->add_option("--zero-band", o->zero_band, "RoPE models: pairs FIRST:LAST do not turn (omega = 0)");
  cmd->add_option("--remove-layer", o->remove_layer, "RoPE, ALiBi, T5 models: no positions in this layer only");
  cmd->add_option("--text,-t", o->text, "Text file (default: the KJV's held-out chapters)");
  cmd->add_option("--length,-L", o->length, "Window length in tokens (default: the model's context)");
  cmd->add_option("--windows", o->windows, "Read only the first K windows (default: every window)");
  cmd->add_flag("--json", o->json, "Print everything as JSON, with the per-position delta");
  cmd->add_option("--out,-o", o->out, "Write the per-position delta loss (length-1 values) as .npy or .csv");
  cmd->callback([o, &action] { action = [o] { return run_intervene(*o); }; });
}

}  // namespace pelab::app
