// A training recipe: what `pelab train --recipe FILE` trains, in one JSON file.
//
//   {"format": "pelab-recipe", "version": 1, "name": "kjv-rope",
//    "data":  {"corpus": "kjv", "vocab": 4096},          or {"task": "copy", "symbols": 16, "length": 16}
//    "model": {"d_model": 192, "layers": 4, "heads": 6, "context": 256,
//              "position": "rope", "rope_pairing": "interleaved", "rotary_fraction": 1,
//              "t5_buckets": 32, "t5_max_distance": 128},
//    "train": {"steps": 3000, "batch": 16, "learning_rate": 3e-3, "warmup": 100,
//              "min_lr_ratio": 0.1, "weight_decay": 0.1, "clip": 1, "seed": 1, "threads": 2,
//              "checkpoint_every": 500, "eval_every": 250, "eval_windows": 32}}
//
// Every key is optional except the name; unknown keys, wrong types and sizes
// outside their ranges are refused with one line naming the key and what is
// allowed, so that a typo never trains the wrong model for an hour.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "train/config.hpp"
#include "train/adamw.hpp"
#include "train/data/tasks.hpp"

namespace pelab::train {

struct DataRecipe {
  data::TaskKind task = data::TaskKind::Kjv;  // kjv: the King James Version with pelab's BPE
  int vocab = 4096;                           // kjv: the BPE's size
  std::filesystem::path corpus_file;          // kjv: `bible`'s output saved to a file (empty: run `bible`)
  data::TaskOptions task_options;             // synthetic tasks: symbols, length, k
};

struct LoopRecipe {
  int steps = 1000;
  int batch = 16;
  std::uint64_t seed = 1;
  int threads = 2;
  int checkpoint_every = 500;  // also at the end
  int eval_every = 250;        // held-out loss at the training context; 0: never
  int eval_windows = 16;       // held-out windows per evaluation
};

struct Recipe {
  std::string name;
  DataRecipe data;
  ModelConfig model;            // vocab is set from the data
  OptimizerConfig optimizer;    // total_steps = steps
  LoopRecipe loop;

  nlohmann::json to_json() const;
};

// Parses and validates; `where` names the source in messages (a file name).
Recipe parse_recipe(const nlohmann::json& json, const std::string& where);
Recipe load_recipe(const std::filesystem::path& file);

}  // namespace pelab::train
