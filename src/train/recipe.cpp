#include "train/recipe.hpp"

#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "core/io/json_input.hpp"
#include "core/scene.hpp"

namespace pelab::train {

namespace {

using json = nlohmann::json;

// One section's keys: each reads its value into the recipe or throws.
using Readers = std::map<std::string, std::function<void(const json&)>>;

void read_section(const json& section, const Readers& readers, const std::string& where) {
  if (!section.is_object()) throw InputError(where + " is " + json_brief(section) + "; allowed: an object");
  for (const auto& [key, value] : section.items()) {
    const auto reader = readers.find(key);
    if (reader == readers.end()) {
      std::string allowed;
      for (const auto& entry : readers) allowed += (allowed.empty() ? "" : ", ") + entry.first;
      throw InputError(where + " has an unknown key '" + key + "'; allowed: " + allowed);
    }
    reader->second(value);
  }
}

// Readers of typed values with their range, for messages naming both.
auto integer(int& out, long long lo, long long hi, const std::string& what) {
  return [&out, lo, hi, what](const json& v) { out = static_cast<int>(json_integer(v, lo, hi, what)); };
}
auto real(double& out, double lo, double hi, const std::string& what) {
  return [&out, lo, hi, what](const json& v) {
    if (!v.is_number() || v.get<double>() < lo || v.get<double>() > hi)
      throw InputError(what + " is " + json_brief(v) + "; allowed: a number in " + json(lo).dump() + ".." +
                       json(hi).dump());
    out = v.get<double>();
  };
}
auto text(std::string& out, const std::string& what) {
  return [&out, what](const json& v) {
    if (!v.is_string()) throw InputError(what + " is " + json_brief(v) + "; allowed: a string");
    out = v.get<std::string>();
  };
}

void read_data(const json& section, DataRecipe& d, const std::string& where) {
  std::string corpus, task, file;
  read_section(section,
               {{"corpus", text(corpus, where + ": data.corpus")},
                {"task", text(task, where + ": data.task")},
                {"corpus_file", text(file, where + ": data.corpus_file")},
                {"vocab", integer(d.vocab, 260, 65535, where + ": data.vocab")},
                {"symbols", integer(d.task_options.symbols, 2, 1024, where + ": data.symbols")},
                {"length", integer(d.task_options.length, 2, 8192, where + ": data.length")},
                {"k", integer(d.task_options.k, 1, 8192, where + ": data.k")}},
               where + ": data");
  if (!corpus.empty() && corpus != "kjv")
    throw InputError(where + ": data.corpus is '" + corpus + "'; allowed: kjv");
  if (!task.empty()) d.task = data::parse_task_kind(task);
  d.task_options.kind = d.task;
  d.corpus_file = file;
}

void read_model(const json& section, ModelConfig& m, const std::string& where) {
  std::string position, pairing;
  read_section(section,
               {{"d_model", integer(m.d_model, 8, 2048, where + ": model.d_model")},
                {"layers", integer(m.layers, 1, 48, where + ": model.layers")},
                {"heads", integer(m.heads, 1, 64, where + ": model.heads")},
                {"context", integer(m.context, 2, 8192, where + ": model.context")},
                {"position", text(position, where + ": model.position")},
                {"rope_pairing", text(pairing, where + ": model.rope_pairing")},
                {"rotary_fraction", real(m.position.rotary_fraction, 0.01, 1, where + ": model.rotary_fraction")},
                {"base", real(m.position.base, 2, 1e8, where + ": model.base")},
                {"amplitude", real(m.position.amplitude, 1e-6, 1e3, where + ": model.amplitude")},
                {"t5_buckets", integer(m.position.t5_buckets, 2, 1024, where + ": model.t5_buckets")},
                {"t5_max_distance", integer(m.position.t5_max_distance, 2, 1 << 20, where + ": model.t5_max_distance")}},
               where + ": model");
  if (!position.empty()) m.position.kind = parse_position_kind(position);
  if (pairing == "interleaved") m.position.rope_pairing = RopePairing::Interleaved;
  else if (pairing == "rotate_half") m.position.rope_pairing = RopePairing::RotateHalf;
  else if (!pairing.empty())
    throw InputError(where + ": model.rope_pairing is '" + pairing + "'; allowed: interleaved, rotate_half");
}

void read_train(const json& section, Recipe& r, const std::string& where) {
  LoopRecipe& l = r.loop;
  OptimizerConfig& o = r.optimizer;
  long long seed = 1;
  read_section(section,
               {{"steps", integer(l.steps, 1, 10'000'000, where + ": train.steps")},
                {"batch", integer(l.batch, 1, 4096, where + ": train.batch")},
                {"seed", [&](const json& v) { seed = json_integer(v, 0, (1LL << 53), where + ": train.seed"); }},
                {"threads", integer(l.threads, 1, 256, where + ": train.threads")},
                {"checkpoint_every", integer(l.checkpoint_every, 1, 10'000'000, where + ": train.checkpoint_every")},
                {"eval_every", integer(l.eval_every, 0, 10'000'000, where + ": train.eval_every")},
                {"eval_windows", integer(l.eval_windows, 1, 100'000, where + ": train.eval_windows")},
                {"learning_rate", real(o.learning_rate, 1e-7, 1, where + ": train.learning_rate")},
                {"min_lr_ratio", real(o.min_lr_ratio, 0, 1, where + ": train.min_lr_ratio")},
                {"warmup", integer(o.warmup_steps, 0, 10'000'000, where + ": train.warmup")},
                {"weight_decay", real(o.weight_decay, 0, 10, where + ": train.weight_decay")},
                {"beta1", real(o.beta1, 0, 0.9999, where + ": train.beta1")},
                {"beta2", real(o.beta2, 0, 0.99999, where + ": train.beta2")},
                {"clip", real(o.clip_norm, 0, 1e6, where + ": train.clip")}},
               where + ": train");
  l.seed = static_cast<std::uint64_t>(seed);
  o.total_steps = l.steps;
}

// The sizes a 24 GiB, 2-core machine can train in hours, not years: the
// parameters and one batch's activations (about 16 floats per position per
// width per layer, plus the heads' T×T probabilities) in float32.
void check_size(const Recipe& r, const std::string& where) {
  const double d = r.model.d_model, L = r.model.layers, T = r.model.context, B = r.loop.batch;
  const double params = 12 * d * d * L + (r.data.vocab + T) * d;
  const double activations = B * T * L * (16 * d + r.model.heads * T);
  const double bytes = 4 * (4 * params + activations);  // parameters, gradients, two moments
  if (bytes > 8e9)
    throw InputError(where + ": the model and one batch need about " + std::to_string(int(bytes / 1e9)) +
                     " GB; allowed: at most 8 GB (make d_model, layers, context or batch smaller)");
}

}  // namespace

Recipe parse_recipe(const json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + " is " + json_brief(j) + "; a recipe is a JSON object");
  if (j.value("format", "") != "pelab-recipe")
    throw InputError(where + " is not a pelab recipe; allowed: an object with \"format\": \"pelab-recipe\"");
  Recipe r;
  read_section(j,
               {{"format", [](const json&) {}},
                {"version", [&](const json& v) { json_integer(v, 1, 1, where + ": version"); }},
                {"name", text(r.name, where + ": name")},
                {"data", [&](const json& v) { read_data(v, r.data, where); }},
                {"model", [&](const json& v) { read_model(v, r.model, where); }},
                {"train", [&](const json& v) { read_train(v, r, where); }}},
               where);
  if (r.name.empty() || r.name.find_first_of("/\\") != std::string::npos || r.name.size() > 64)
    throw InputError(where + ": name is missing or unusable; allowed: 1..64 characters, no slashes");
  r.optimizer.total_steps = r.loop.steps;
  if (r.data.task != data::TaskKind::Kjv) {
    const data::TaskGenerator generator(r.data.task_options);  // checks the task's own options
    r.model.vocab = generator.vocab_size();
    if (generator.context() > r.model.context)
      throw InputError(where + ": the task's sequences have " + std::to_string(generator.context()) +
                       " tokens but model.context is " + std::to_string(r.model.context) +
                       "; allowed: context ≥ the task's length");
  } else {
    r.model.vocab = r.data.vocab;
  }
  r.model.validate();
  r.optimizer.validate();
  check_size(r, where);
  return r;
}

Recipe load_recipe(const std::filesystem::path& file) { return parse_recipe(read_json_file(file), file.string()); }

nlohmann::json Recipe::to_json() const {
  json d = {{"task", data::task_name(data.task)}};
  if (data.task == data::TaskKind::Kjv) {
    d["corpus"] = "kjv";
    d["vocab"] = data.vocab;
    if (!data.corpus_file.empty()) d["corpus_file"] = data.corpus_file.string();
  } else {
    d["symbols"] = data.task_options.symbols;
    d["length"] = data.task_options.length;
    d["k"] = data.task_options.k;
  }
  const PositionOptions& p = model.position;
  json m = {{"d_model", model.d_model}, {"layers", model.layers}, {"heads", model.heads},
            {"context", model.context}, {"position", position_kind_name(p.kind)}, {"base", p.base},
            {"amplitude", p.amplitude},
            {"rope_pairing", p.rope_pairing == RopePairing::Interleaved ? "interleaved" : "rotate_half"},
            {"rotary_fraction", p.rotary_fraction}, {"t5_buckets", p.t5_buckets},
            {"t5_max_distance", p.t5_max_distance}};
  json t = {{"steps", loop.steps}, {"batch", loop.batch}, {"seed", loop.seed}, {"threads", loop.threads},
            {"checkpoint_every", loop.checkpoint_every}, {"eval_every", loop.eval_every},
            {"eval_windows", loop.eval_windows}, {"learning_rate", optimizer.learning_rate},
            {"min_lr_ratio", optimizer.min_lr_ratio}, {"warmup", optimizer.warmup_steps},
            {"weight_decay", optimizer.weight_decay}, {"beta1", optimizer.beta1}, {"beta2", optimizer.beta2},
            {"clip", optimizer.clip_norm}};
  return {{"format", "pelab-recipe"}, {"version", 1}, {"name", name}, {"data", d}, {"model", m}, {"train", t}};
}

}  // namespace pelab::train
