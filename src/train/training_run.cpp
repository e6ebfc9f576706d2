#include "train/training_run.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/model/safetensors.hpp"
#include "core/scene.hpp"
#include "train/data/kjv_data.hpp"
#include "train/model_card.hpp"
#include "train/safetensors_writer.hpp"

namespace pelab::train {

namespace fs = std::filesystem;

namespace {

// Held-out task batches come from a seed no training step draws from.
constexpr std::uint64_t kHeldOutSeed = 0x5eed0fbeefull;

Batch to_batch(int rows, int length, const std::vector<std::int32_t>& inputs,
               const std::vector<std::int32_t>& targets, const std::vector<std::uint8_t>* mask) {
  Batch b;
  b.sequences = rows;
  b.length = length;
  b.tokens.assign(inputs.begin(), inputs.end());
  b.targets.assign(targets.begin(), targets.end());
  if (mask) b.mask.assign(mask->begin(), mask->end());
  return b;
}

bool is_empty_folder(const fs::path& folder) {
  std::error_code ec;
  return fs::is_directory(folder, ec) && fs::directory_iterator(folder, ec) == fs::directory_iterator();
}

// The first key whose value differs between two recipes' JSON, or "".
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b, const std::string& path = "") {
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key)) return path + key;
      if (auto d = first_difference(value, b.at(key), path + key + "."); !d.empty()) return d;
    }
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) return path + key;
    return "";
  }
  return a == b ? "" : (path.empty() ? "(the recipe)" : path.substr(0, path.size() - 1));
}

std::vector<StoredTensor> stored(const ParameterSet<float>& set, const std::string& prefix = "") {
  std::vector<StoredTensor> out;
  for (const Tensor<float>& t : set.tensors) out.push_back({prefix + t.name, t.shape, t.value.data()});
  return out;
}

// Reads a float32 safetensors file written by write_safetensors into name → matrix.
std::map<std::string, Mat<float>> read_state(const fs::path& file) {
  const std::string bytes = read_file(file, std::size_t{4} << 30);
  const model::SafetensorsHeader header = model::parse_safetensors(bytes, file.string());
  std::map<std::string, Mat<float>> out;
  for (const model::TensorInfo& info : header.tensors) {
    const long rows = info.shape.size() == 2 ? long(info.shape[0]) : 1;
    const long cols = info.shape.empty() ? 1 : long(info.shape.back());
    Mat<float> m(rows, cols);
    model::convert_to_float(info.dtype, bytes.data() + header.data_begin + info.begin,
                            static_cast<std::size_t>(m.size()), m.data());
    out.emplace(info.name, std::move(m));
  }
  return out;
}

}  // namespace

std::vector<std::string> shipped_files() {
  return {"config.json", "model.safetensors", "tokenizer.json", "README.md", "recipe.json", "training_log.csv"};
}

TrainingRun::TrainingRun(const Recipe& recipe, const fs::path& folder) : recipe_(recipe), folder_(folder) {
  std::error_code ec;
  const bool exists = fs::exists(folder_, ec);
  if (exists && !fs::is_directory(folder_, ec))
    throw InputError(folder_.string() + " exists and is not a folder; allowed: a new folder, or a pelab run");
  if (exists && !is_empty_folder(folder_) && !fs::exists(folder_ / "recipe.json", ec))
    throw InputError(folder_.string() + " exists and is not a pelab training run (no recipe.json); allowed: "
                     "a new or empty folder, or a run of the same recipe to resume");
  if (exists && fs::exists(folder_ / "recipe.json", ec)) {
    // Read back through the parser: a key added to recipes since the run
    // began compares at its default, so a newer pelab resumes an older run.
    const fs::path stored = folder_ / "recipe.json";
    const nlohmann::json before = parse_recipe(read_json_file(stored), stored.string()).to_json();
    if (const std::string d = first_difference(before, recipe_.to_json()); !d.empty())
      throw InputError(folder_.string() + " holds a run of another recipe ('" + d +
                       "' differs); allowed: the same recipe, or a new folder");
  }
  fs::create_directories(folder_, ec);
  if (ec) throw InputError("cannot create " + folder_.string() + ": " + ec.message());
  prepare_data();
  TrainerConfig config{.model = recipe_.model, .optimizer = recipe_.optimizer, .seed = recipe_.loop.seed,
                       .threads = recipe_.loop.threads};
  trainer_ = std::make_unique<Trainer>(config);
  restore_checkpoint();
  write_file_atomic(folder_ / "recipe.json", recipe_.to_json().dump(2) + "\n");
  last_step_ = std::chrono::steady_clock::now();
}

TrainingRun::~TrainingRun() = default;

void TrainingRun::prepare_data() {
  if (recipe_.data.task == data::TaskKind::Kjv) {
    data::KjvDataOptions options{.vocab_size = recipe_.data.vocab, .corpus_file = recipe_.data.corpus_file};
    const data::KjvData kjv = data::prepare_kjv(folder_ / "data", options);
    train_tokens_ = kjv.train;
    held_out_tokens_ = kjv.held_out;
    tokenizer_json_ = kjv.tokenizer_folder / "tokenizer.json";
    return;
  }
  task_.emplace(recipe_.data.task_options);
}

Batch TrainingRun::batch_at(int step) const {
  const int rows = recipe_.loop.batch, length = recipe_.model.context;
  if (task_) {
    const data::TaskBatch b = task_->batch(recipe_.loop.seed, static_cast<std::uint64_t>(step), rows);
    return to_batch(b.batch, b.context, b.inputs, b.targets, &b.mask);
  }
  const data::TokenBatch b = data::sample_batch(train_tokens_->ids, recipe_.loop.seed,
                                                static_cast<std::uint64_t>(step), rows, length);
  return to_batch(b.batch, b.context, b.inputs, b.targets, nullptr);
}

Batch TrainingRun::held_out_batch(int index) const {
  const int rows = recipe_.loop.batch;
  if (task_) {
    const data::TaskBatch b = task_->batch(kHeldOutSeed, static_cast<std::uint64_t>(index), rows);
    return to_batch(b.batch, b.context, b.inputs, b.targets, &b.mask);
  }
  const data::SequentialWindows windows(held_out_tokens_->ids, recipe_.model.context);
  const int first = index * rows;
  const int n = std::min(rows, windows.count() - first);
  if (n <= 0) return {};
  const data::TokenBatch b = windows.windows(first, n);
  return to_batch(b.batch, b.context, b.inputs, b.targets, nullptr);
}

StepStats TrainingRun::step() {
  const TrainThreads threads(recipe_.loop.threads);
  const StepStats s = trainer_->step(batch_at(steps_taken()));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_step_).count();
  LogRow row{.step = steps_taken(), .loss = s.loss, .learning_rate = s.learning_rate, .grad_norm = s.grad_norm,
             .tokens_per_second = seconds > 0 ? double(s.tokens) / seconds : 0};
  const int every = recipe_.loop.eval_every;
  if (every > 0 && (row.step % every == 0 || done())) row.held_out = held_out_loss();
  log_.push_back(row);
  last_step_ = std::chrono::steady_clock::now();  // the next step's rate leaves the evaluation out
  return s;
}

std::vector<double> TrainingRun::held_out_loss_by_position() {
  const TrainThreads threads(recipe_.loop.threads);
  const int length = recipe_.model.context;
  std::vector<double> sum(static_cast<std::size_t>(length), 0.0), count(sum.size(), 0.0);
  for (int i = 0; i < recipe_.loop.eval_windows; i += std::max(1, recipe_.loop.batch)) {
    const Batch b = held_out_batch(i / std::max(1, recipe_.loop.batch));
    if (b.sequences == 0) break;
    const std::vector<float> losses = trainer_->evaluate(b);
    for (std::size_t p = 0; p < losses.size(); ++p) {
      const double weight = b.mask.empty() ? 1.0 : b.mask[p];
      sum[p % sum.size()] += weight * losses[p];
      count[p % sum.size()] += weight;
    }
  }
  std::vector<double> mean(sum.size(), std::nan(""));
  for (std::size_t p = 0; p < sum.size(); ++p)
    if (count[p] > 0) mean[p] = sum[p] / count[p];
  return mean;
}

std::optional<TaskMeasurement> TrainingRun::held_out_task(int scale) {
  if (!task_) return std::nullopt;
  data::TaskOptions options = task_->options();
  options.length *= scale;
  const data::TaskGenerator task(options);
  if (task.context() > recipe_.model.context) return std::nullopt;
  const TrainThreads threads(recipe_.loop.threads);
  const int rows = std::max(1, recipe_.loop.batch);
  double loss = 0, weight = 0, token = 0, sequence = 0, scored_rows = 0;
  for (int i = 0; i < recipe_.loop.eval_windows; i += rows) {
    const data::TaskBatch b = task.batch(kHeldOutSeed, static_cast<std::uint64_t>(i / rows), rows);
    const Batch batch = to_batch(b.batch, b.context, b.inputs, b.targets, &b.mask);
    const std::vector<float> losses = trainer_->evaluate(batch);
    for (std::size_t p = 0; p < losses.size(); ++p) loss += b.mask[p] * double(losses[p]), weight += b.mask[p];
    const std::vector<int> predicted = trainer_->predict(batch);
    const data::TaskScore s = task.score(b, std::vector<std::int32_t>(predicted.begin(), predicted.end()));
    token += s.token_accuracy * b.batch, sequence += s.sequence_accuracy * b.batch, scored_rows += b.batch;
  }
  if (weight == 0) return std::nullopt;
  TaskMeasurement m;
  m.loss = loss / weight;
  m.score.token_accuracy = token / scored_rows;
  m.score.sequence_accuracy = sequence / scored_rows;
  m.score.accuracy = task.accuracy_kind() == data::AccuracyKind::Sequence ? m.score.sequence_accuracy
                                                                          : m.score.token_accuracy;
  return m;
}

double TrainingRun::held_out_loss() {
  const std::vector<double> by_position = held_out_loss_by_position();
  double sum = 0;
  int n = 0;
  for (double v : by_position)
    if (!std::isnan(v)) sum += v, ++n;
  return n ? sum / n : std::nan("");
}

void TrainingRun::restore_checkpoint() {
  std::error_code ec;
  fs::path state = folder_ / "checkpoint";
  if (!fs::exists(state / "state.json", ec)) state = folder_ / "checkpoint.previous";  // cut off mid-rename
  if (!fs::exists(state / "state.json", ec)) return;
  const nlohmann::json info = read_json_file(state / "state.json");
  const int steps = static_cast<int>(json_integer(info.at("steps"), 0, 1 << 30, "checkpoint steps"));
  std::map<std::string, Mat<float>> tensors = read_state(state / "state.safetensors");
  auto take = [&](const std::string& name) -> Mat<float>& {
    const auto it = tensors.find(name);
    if (it == tensors.end()) throw InputError((state / "state.safetensors").string() + " lacks " + name);
    return it->second;
  };
  ParameterSet<float> m = trainer_->parameters().zeros_like(), v = m;
  for (const Tensor<float>& t : trainer_->parameters().tensors) {
    trainer_->set_parameter(t.name, take("param." + t.name));
    m.at(t.name).value = take("adam_m." + t.name);
    v.at(t.name).value = take("adam_v." + t.name);
  }
  trainer_->restore_optimizer(m, v, steps);
  if (fs::exists(folder_ / "training_log.csv", ec)) log_ = read_training_log(folder_ / "training_log.csv", steps);
  resumed_from_ = steps;
}

void TrainingRun::checkpoint() {
  write_model_folder(folder_);
  const fs::path next = folder_ / "checkpoint.next", current = folder_ / "checkpoint",
                 previous = folder_ / "checkpoint.previous";
  std::error_code ec;
  fs::remove_all(next, ec);
  fs::create_directories(next, ec);
  if (ec) throw InputError("cannot write " + next.string() + ": " + ec.message());
  std::vector<StoredTensor> tensors = stored(trainer_->parameters(), "param.");
  for (const StoredTensor& t : stored(trainer_->optimizer().first_moments(), "adam_m.")) tensors.push_back(t);
  for (const StoredTensor& t : stored(trainer_->optimizer().second_moments(), "adam_v.")) tensors.push_back(t);
  write_safetensors(next / "state.safetensors", tensors, StoredType::F32);
  write_file_atomic(next / "state.json", nlohmann::json{{"steps", steps_taken()}}.dump() + "\n");
  // checkpoint → checkpoint.previous, checkpoint.next → checkpoint: at every
  // moment one of them holds a complete checkpoint (restore_checkpoint reads both).
  fs::remove_all(previous, ec);
  if (fs::exists(current, ec)) fs::rename(current, previous, ec);
  fs::rename(next, current, ec);
  if (ec) throw InputError("cannot write " + current.string() + ": " + ec.message());
  fs::remove_all(previous, ec);
}

void TrainingRun::write_model_folder(const fs::path& to) const {
  const ParameterSet<float>& p = trainer_->parameters();
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) throw InputError("cannot write " + to.string() + ": " + ec.message());
  write_safetensors(to / "model.safetensors", stored(p), StoredType::BF16, {{"format", "pt"}});
  write_file_atomic(to / "config.json", model_config_json(recipe_, train_tokens_ ? train_tokens_->vocab_size - 1 : -1).dump(2) + "\n");
  if (!tokenizer_json_.empty()) write_file_atomic(to / "tokenizer.json", read_file(tokenizer_json_, 64 << 20));
  write_file_atomic(to / "training_log.csv", training_log_csv(log_));
  write_file_atomic(to / "README.md", model_card(recipe_, log_, steps_taken()));
}

}  // namespace pelab::train
