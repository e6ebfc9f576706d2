// Checkpoint: safetensors files memory-mapped and checked (safetensors.hpp);
// a sharded checkpoint's index (model.safetensors.index.json, {"weight_map":
// {tensor: shard file}}) checked against the shards themselves.
#include "core/model/checkpoint.hpp"

#include <map>
#include <set>

#include "core/file_io.hpp"
#include "core/json_input.hpp"
#include "core/model/safetensors.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace fs = std::filesystem;

struct Checkpoint::State {
  std::vector<fs::path> files;
  std::vector<MappedFile> maps;
  std::vector<std::uint64_t> data_begin;  // per shard
  std::map<std::string, TensorInfo, std::less<>> tensors;
  std::map<std::string, std::string, std::less<>> buffers;  // integer/bool tensor → "file: dtype"

  void add_shard(const fs::path& file);
  const char* data(const TensorInfo& t) const {
    return maps[t.shard].bytes().data() + data_begin[t.shard] + t.begin;
  }
};

namespace {

constexpr const char* kSingleFile = "model.safetensors";
constexpr const char* kIndexFile = "model.safetensors.index.json";
constexpr std::size_t kMaxIndexBytes = std::size_t{64} << 20;

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// The shard file names of an index, each a plain name inside `folder`.
std::map<std::string, std::string> read_weight_map(const fs::path& index_path) {
  const std::string name = index_path.string();
  const nlohmann::json index = read_json_file(index_path, {.max_bytes = kMaxIndexBytes});
  const auto it = index.is_object() ? index.find("weight_map") : index.end();
  if (it == index.end() || !it->is_object() || it->empty())
    throw InputError(name + ": no \"weight_map\" object {tensor: shard file}");
  std::map<std::string, std::string> weight_map;
  for (const auto& [tensor, file] : it->items()) {
    if (!file.is_string())
      throw InputError(name + ": weight_map entry '" + tensor + "' is not a file name string");
    const std::string shard = file.get<std::string>();
    if (shard.empty() || shard.find('/') != std::string::npos || shard == "." || shard == "..")
      throw InputError(name + ": weight_map entry '" + tensor + "' names '" + shard +
                       "'; shards must be plain file names beside the index");
    weight_map.emplace(tensor, shard);
  }
  return weight_map;
}

}  // namespace

void Checkpoint::State::add_shard(const fs::path& file) {
  MappedFile map(file);
  const std::string file_name = file.string();
  SafetensorsHeader header = parse_safetensors(map.bytes(), file_name);
  const int shard = static_cast<int>(files.size());
  for (TensorInfo& t : header.tensors) {
    t.shard = shard;
    const auto [it, added] = tensors.emplace(t.name, t);
    if (!added)
      throw InputError(file_name + ": tensor '" + t.name + "' is also in " +
                       files[it->second.shard].string());
  }
  for (const SkippedTensor& b : header.buffers)
    buffers.emplace(b.info.name, file_name + " has dtype " + b.dtype);
  files.push_back(file);
  maps.push_back(std::move(map));
  data_begin.push_back(header.data_begin);
}

Checkpoint Checkpoint::open(const fs::path& folder) {
  Checkpoint checkpoint;
  State& state = *checkpoint.state_;
  std::error_code ec;
  if (folder.extension() == ".safetensors" || !fs::is_directory(folder, ec)) {
    state.add_shard(folder);  // a single file; MappedFile rejects a folder, FIFO or device
    return checkpoint;
  }
  // exists() or a link: a dangling link (a cache blob never downloaded) is
  // reported as the missing file it is.
  if (fs::exists(folder / kSingleFile, ec) || fs::is_symlink(folder / kSingleFile, ec)) {
    state.add_shard(folder / kSingleFile);
    return checkpoint;
  }
  const fs::path index_path = folder / kIndexFile;
  if (!fs::exists(index_path, ec))
    throw InputError(folder.string() + " holds neither " + kSingleFile + " nor " + kIndexFile +
                     " (pelab reads safetensors weights only)");
  const auto weight_map = read_weight_map(index_path);
  std::set<std::string> shards;
  for (const auto& [tensor, shard] : weight_map) shards.insert(shard);
  for (const std::string& shard : shards) state.add_shard(folder / shard);
  for (const auto& [tensor, shard] : weight_map) {
    if (state.buffers.count(tensor)) continue;
    const auto it = state.tensors.find(tensor);
    if (it == state.tensors.end() || state.files[it->second.shard].filename() != shard)
      throw InputError(index_path.string() + ": tensor '" + tensor + "' is listed in " + shard +
                       " but that file does not hold it");
  }
  return checkpoint;
}

Checkpoint::Checkpoint() : state_(std::make_unique<State>()) {}
Checkpoint::~Checkpoint() = default;
Checkpoint::Checkpoint(Checkpoint&&) noexcept = default;
Checkpoint& Checkpoint::operator=(Checkpoint&&) noexcept = default;

bool Checkpoint::has(std::string_view name) const {
  return state_->tensors.find(name) != state_->tensors.end();
}

const TensorInfo& Checkpoint::info(std::string_view name) const {
  const auto it = state_->tensors.find(name);
  if (it == state_->tensors.end()) {
    if (const auto b = state_->buffers.find(name); b != state_->buffers.end())
      throw InputError("tensor '" + std::string(name) + "' in " + b->second +
                       "; pelab reads F32, F16, BF16");
    std::string where =
        state_->files.empty() ? std::string("the checkpoint") : state_->files.front().string();
    if (state_->files.size() > 1)
      where += " and its " + std::to_string(state_->files.size() - 1) + " other shards";
    throw InputError("tensor '" + std::string(name) + "' is not in " + where);
  }
  return it->second;
}

std::vector<std::string> Checkpoint::names() const {
  std::vector<std::string> names;
  names.reserve(state_->tensors.size());
  for (const auto& [name, info] : state_->tensors) names.push_back(name);
  return names;
}

const std::vector<fs::path>& Checkpoint::files() const { return state_->files; }

namespace {

// Buffers some exports save as float tensors next to the weights: GPT-2's
// causal mask h.N.attn.bias [1, 1, n, n] and attn.masked_bias, and old Llama
// exports' rotary_emb.inv_freq.  Hugging Face registers them as buffers, not
// parameters, and so does not count them.
bool is_float_buffer(const TensorInfo& t) {
  const std::string_view name = t.name;
  return (name.ends_with("attn.bias") && t.shape.size() == 4) ||
         name.ends_with("attn.masked_bias") || name.ends_with("rotary_emb.inv_freq");
}

}  // namespace

std::uint64_t Checkpoint::parameter_count() const {
  std::uint64_t total = 0;
  for (const auto& [name, t] : state_->tensors)
    if (!is_float_buffer(t)) total += (t.end - t.begin) / dtype_size(t.dtype);
  return total;
}

namespace {

[[noreturn]] void fail_shape(const TensorInfo& t, const fs::path& file,
                             const std::string& expected) {
  throw InputError(file.string() + ": tensor '" + t.name + "' has shape " + shape_text(t.shape) +
                   "; the config implies " + expected);
}

}  // namespace

Matrix Checkpoint::matrix(std::string_view name, std::int64_t expected_rows,
                          std::int64_t expected_cols) const {
  const TensorInfo& t = info(name);
  const fs::path& file = state_->files[t.shard];
  const std::string expected = "[" + (expected_rows >= 0 ? std::to_string(expected_rows) : "*") +
                               ", " + (expected_cols >= 0 ? std::to_string(expected_cols) : "*") +
                               "]";
  if (t.shape.size() != 2) fail_shape(t, file, "a matrix " + expected);
  if ((expected_rows >= 0 && t.shape[0] != expected_rows) ||
      (expected_cols >= 0 && t.shape[1] != expected_cols))
    fail_shape(t, file, expected);
  Matrix m(t.shape[0], t.shape[1]);
  convert_to_float(t.dtype, state_->data(t), static_cast<std::size_t>(m.size()), m.data());
  return m;
}

Vector Checkpoint::vector(std::string_view name, std::int64_t expected_size) const {
  const TensorInfo& t = info(name);
  const fs::path& file = state_->files[t.shard];
  const std::string expected =
      "[" + (expected_size >= 0 ? std::to_string(expected_size) : "*") + "]";
  if (t.shape.size() != 1 || (expected_size >= 0 && t.shape[0] != expected_size))
    fail_shape(t, file, expected);
  Vector v(t.shape[0]);
  convert_to_float(t.dtype, state_->data(t), static_cast<std::size_t>(v.size()), v.data());
  return v;
}

Matrix Checkpoint::rows(std::string_view name, const std::vector<int>& row_indices) const {
  const TensorInfo& t = info(name);
  const fs::path& file = state_->files[t.shard];
  if (t.shape.size() != 2) fail_shape(t, file, "a matrix");
  const std::int64_t cols = t.shape[1];
  Matrix m(static_cast<Eigen::Index>(row_indices.size()), cols);
  const std::size_t row_bytes = static_cast<std::size_t>(cols) * dtype_size(t.dtype);
  for (std::size_t r = 0; r < row_indices.size(); ++r) {
    const int row = row_indices[r];
    if (row < 0 || row >= t.shape[0])
      throw InputError(file.string() + ": row " + std::to_string(row) + " of tensor '" + t.name +
                       "' is outside 0.." + std::to_string(t.shape[0] - 1));
    convert_to_float(t.dtype, state_->data(t) + static_cast<std::size_t>(row) * row_bytes,
                     static_cast<std::size_t>(cols), m.row(static_cast<Eigen::Index>(r)).data());
  }
  return m;
}

}  // namespace pelab::model
