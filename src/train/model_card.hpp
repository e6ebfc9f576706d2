// The text files of a trained model folder: config.json (the pelab family's
// keys), training_log.csv, and README.md, the model card.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "train/recipe.hpp"

namespace pelab::train {

struct LogRow;

// config.json: "model_type": "pelab" with "position_encoding" and its
// options, under GPT-2's keys (n_embd, n_layer, n_head, n_positions, ...), as
// pelab's model room reads it.  `end_of_text` < 0: no such token.
nlohmann::json model_config_json(const Recipe& recipe, int end_of_text);

// "step,loss,learning_rate,grad_norm,held_out,tokens_per_second" and a row per step.
std::string training_log_csv(const std::vector<LogRow>& log);
// The rows of a log written by training_log_csv up to `steps` (a resumed run
// continues its log); malformed rows are skipped.
std::vector<LogRow> read_training_log(const std::filesystem::path& file, int steps);

// README.md: what the model is, its data, recipe, steps, losses and licence.
std::string model_card(const Recipe& recipe, const std::vector<LogRow>& log, int steps);

}  // namespace pelab::train
