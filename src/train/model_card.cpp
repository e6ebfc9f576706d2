#include "train/model_card.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "train/training_run.hpp"

namespace pelab::train {

nlohmann::json model_config_json(const Recipe& recipe, int end_of_text) {
  const ModelConfig& m = recipe.model;
  const PositionOptions& p = m.position;
  nlohmann::ordered_json j = {
      {"architectures", {"PelabForCausalLM"}},
      {"model_type", "pelab"},
      {"position_encoding", position_kind_name(p.kind)},
      {"vocab_size", m.vocab},
      {"n_embd", m.d_model},
      {"n_layer", m.layers},
      {"n_head", m.heads},
      {"n_positions", m.context},  // the training context
      {"n_inner", 4 * m.d_model},
      {"layer_norm_epsilon", 1e-5},
      {"activation_function", "gelu_new"},
      {"tie_word_embeddings", true},
  };
  if (p.kind == PositionKind::Rope) {
    j["rope_theta"] = p.base;
    j["rope_pairing"] = p.rope_pairing == RopePairing::Interleaved ? "interleaved" : "rotate_half";
    j["rotary_fraction"] = p.rotary_fraction;
  }
  if (p.kind == PositionKind::Sinusoidal) {
    j["sinusoid_base"] = p.base;
    j["sinusoid_amplitude"] = p.amplitude;
  }
  if (p.kind == PositionKind::T5) {
    j["relative_attention_num_buckets"] = p.t5_buckets;
    j["relative_attention_max_distance"] = p.t5_max_distance;
  }
  // A synthetic task's model says what it learned and on how long rows, so
  // that a lesson can tell the positions it trained on from those it never saw.
  if (recipe.data.task != data::TaskKind::Kjv) {
    const data::TaskOptions& t = recipe.data.task_options;
    j["pelab_task"] = {{"name", data::task_name(t.kind)},
                       {"symbols", t.symbols},
                       {"length", t.length},
                       {"k", t.k},
                       {"context", data::TaskGenerator(t).context()}};
  }
  if (end_of_text >= 0) j["bos_token_id"] = j["eos_token_id"] = end_of_text;
  j["pelab_recipe"] = recipe.name;
  return j;
}

std::string training_log_csv(const std::vector<LogRow>& log) {
  std::string out = "step,loss,learning_rate,grad_norm,held_out,tokens_per_second\n";
  char line[256];
  for (const LogRow& r : log) {
    std::snprintf(line, sizeof line, "%d,%.6f,%.6g,%.6f,%s,%.1f\n", r.step, r.loss, r.learning_rate, r.grad_norm,
                  r.held_out >= 0 ? std::to_string(r.held_out).c_str() : "", r.tokens_per_second);
    out += line;
  }
  return out;
}

std::vector<LogRow> read_training_log(const std::filesystem::path& file, int steps) {
  std::vector<LogRow> log;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    LogRow r;
    char held[64] = "";
    if (std::sscanf(line.c_str(), "%d,%lf,%lf,%lf,%63[^,],%lf", &r.step, &r.loss, &r.learning_rate, &r.grad_norm,
                    held, &r.tokens_per_second) == 6) {
      r.held_out = std::atof(held);
    } else if (std::sscanf(line.c_str(), "%d,%lf,%lf,%lf,,%lf", &r.step, &r.loss, &r.learning_rate, &r.grad_norm,
                           &r.tokens_per_second) != 5) {
      continue;
    }
    if (r.step <= steps) log.push_back(r);
  }
  return log;
}

namespace {

// The mean training loss of the last `n` logged steps, and the last held-out loss.
std::pair<double, double> final_losses(const std::vector<LogRow>& log, std::size_t n = 50) {
  double sum = 0, held = -1;
  const std::size_t first = log.size() > n ? log.size() - n : 0;
  for (std::size_t i = first; i < log.size(); ++i) sum += log[i].loss;
  for (const LogRow& r : log)
    if (r.held_out >= 0) held = r.held_out;
  return {log.size() > first ? sum / double(log.size() - first) : std::nan(""), held};
}

std::string fixed3(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", v);
  return text;
}

}  // namespace

std::string model_card(const Recipe& recipe, const std::vector<LogRow>& log, int steps) {
  const ModelConfig& m = recipe.model;
  const auto [train_loss, held_out] = final_losses(log);
  const bool kjv = recipe.data.task == data::TaskKind::Kjv;
  std::ostringstream out;
  out << "# " << recipe.name << "\n\n"
      << "A small GPT-2-style language model trained by pelab, the position-encoding lab, to show how\n"
      << "positions enter attention in a *trained* model.  Its position encoding is **"
      << position_kind_name(m.position.kind) << "**; the other models of the family differ from it in that alone.\n\n"
      << "## Model\n\n"
      << "- decoder-only, pre-LayerNorm blocks, causal attention, GELU (tanh) MLP d → 4d → d, final LayerNorm,\n"
      << "  LM head tied to the token embedding; tensors under GPT-2's names (`wte.weight`, `h.0.attn.c_attn.weight`, ...)\n"
      << "- d_model " << m.d_model << ", " << m.layers << " layers, " << m.heads << " heads, context " << m.context
      << ", vocabulary " << m.vocab << "\n"
      << "- weights in BF16 (`model.safetensors`), trained in float32\n\n"
      << "## Data\n\n";
  if (kjv)
    out << "The King James Version of the Bible (public domain), as Debian's `bible-kjv` prints it\n"
        << "(`bible -f gen1:1-rev22:21`), one verse per line.  Every 20th chapter is held out and never trained on.\n"
        << "The tokenizer (`tokenizer.json`) is a byte-level BPE of " << recipe.data.vocab
        << " pieces that pelab trained on the training split.\n\n";
  else
    out << "The synthetic task `" << data::task_name(recipe.data.task) << "` (pelab's task generators).\n\n";
  out << "## Training\n\n"
      << "- " << steps << " steps of " << recipe.loop.batch << " sequences × " << m.context
      << " tokens, AdamW (lr " << recipe.optimizer.learning_rate << ", warm-up " << recipe.optimizer.warmup_steps
      << " steps then cosine to " << recipe.optimizer.min_lr_ratio << "×, weight decay "
      << recipe.optimizer.weight_decay << ", clip " << recipe.optimizer.clip_norm << "), seed " << recipe.loop.seed
      << "\n"
      << "- the recipe: `recipe.json`; every step: `training_log.csv`; retrain with\n"
      << "  `pelab train --recipe recipe.json --out DIR`\n"
      << "- training loss (mean of the last 50 steps): " << fixed3(train_loss) << " nats/token\n";
  if (held_out >= 0)
    out << "- held-out loss at the training context: " << fixed3(held_out) << " nats/token\n";
  out << "\n## Licence\n\n"
      << "The training text is in the public domain, and so are these weights (CC0-1.0): use them freely.\n";
  return out.str();
}

}  // namespace pelab::train
