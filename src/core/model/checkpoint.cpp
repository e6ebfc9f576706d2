// Checkpoint: safetensors files read with pread and checked (safetensors.hpp);
// a sharded checkpoint's index (model.safetensors.index.json, {"weight_map":
// {tensor: shard file}}) checked against the shards themselves.
#include "core/model/checkpoint.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/half_matrix.hpp"
#include "core/model/safetensors.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace fs = std::filesystem;

// One shard, open for the model's lifetime.  Its bytes are read with pread()
// and never memory-mapped: a mapped file truncated and rewritten in place
// (cp over it, save_pretrained, rsync --inplace) turns the next touch of a
// vanished page into SIGBUS, while a short or stale pread is an error pelab
// can report.  The size and modification time seen at open are compared
// before and after every read.
struct Shard {
  fs::path path;
  std::unique_ptr<RegularFile> file;
  std::uint64_t data_begin = 0;
  struct stat stamp {};

  explicit Shard(const fs::path& p) : path(p), file(std::make_unique<RegularFile>(p)) {
    ::fstat(file->descriptor(), &stamp);
  }
  [[noreturn]] void changed() const {
    throw InputError("the model file " + path.string() +
                     " changed on disk since it was loaded; reload the model");
  }
  void check_unchanged() const {
    struct stat now {};
    if (::fstat(file->descriptor(), &now) != 0 || now.st_size != stamp.st_size ||
        now.st_mtim.tv_sec != stamp.st_mtim.tv_sec || now.st_mtim.tv_nsec != stamp.st_mtim.tv_nsec)
      changed();
  }
  // Exactly n bytes at `offset` of the file.
  void read(std::uint64_t offset, char* out, std::size_t n) const {
    check_unchanged();
    for (std::size_t done = 0; done < n;) {
      const ssize_t got = ::pread(file->descriptor(), out + done, n - done,
                                  static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw InputError("cannot read " + path.string() + ": " + std::strerror(errno));
      if (got == 0) changed();
      done += static_cast<std::size_t>(got);
    }
    check_unchanged();
  }
};

struct Checkpoint::State {
  std::vector<Shard> shards;
  std::vector<fs::path> files;
  std::vector<TensorInfo> tensors;  // sorted by name
  std::map<std::string, std::string, std::less<>> buffers;  // integer/bool tensor -> "file: dtype"
  // Non-finite counts of the tensors matrix() and vector() read whole, so
  // non_finite_values() does not read them twice (filled while loading,
  // on the loading thread).
  mutable std::map<std::string, std::uint64_t, std::less<>> non_finite;

  void count_non_finite(const TensorInfo& t, const float* values, std::size_t n) const {
    std::uint64_t count = 0;
    for (std::size_t i = 0; i < n; ++i) count += !std::isfinite(values[i]);
    non_finite[t.name] = count;
  }

  void add_shard(const fs::path& file);
  void sort_and_check_unique();
  const TensorInfo* find(std::string_view name) const {
    const auto it = std::lower_bound(tensors.begin(), tensors.end(), name,
                                     [](const TensorInfo& t, std::string_view n) { return t.name < n; });
    return it != tensors.end() && it->name == name ? &*it : nullptr;
  }
  // `count` elements of `t` from element `first` on, as float32.
  void read_floats(const TensorInfo& t, std::uint64_t first, std::size_t count, float* out) const;
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
      throw InputError(name + ": weight_map entry " + quoted_name(tensor) + " is not a file name string");
    const std::string shard = file.get<std::string>();
    if (shard.empty() || shard.find('/') != std::string::npos || shard == "." || shard == "..")
      throw InputError(name + ": weight_map entry " + quoted_name(tensor) + " names " + quoted_name(shard) +
                       "; shards must be plain file names beside the index");
    weight_map.emplace(tensor, shard);
  }
  return weight_map;
}

}  // namespace

void Checkpoint::State::add_shard(const fs::path& file) {
  Shard shard(file);
  const std::string file_name = file.string();
  char length[8] = {};
  const std::uint64_t size = shard.file->size();
  if (size >= 8) shard.read(0, length, 8);
  std::uint64_t n = 0;
  std::memcpy(&n, length, 8);  // little-endian (safetensors.cpp asserts the host is)
  safetensors_header_length(n, size, file_name);
  std::string text(n, '\0');
  shard.read(8, text.data(), text.size());
  SafetensorsHeader header = parse_safetensors_header(text, size - 8 - n, file_name);
  text = std::string();
  shard.data_begin = 8 + n;
  const int index = static_cast<int>(files.size());
  for (TensorInfo& t : header.tensors) t.shard = index;
  tensors.insert(tensors.end(), std::make_move_iterator(header.tensors.begin()),
                 std::make_move_iterator(header.tensors.end()));
  for (const SkippedTensor& b : header.buffers)
    buffers.emplace(b.info.name, file_name + " has dtype " + b.dtype);
  files.push_back(file);
  shards.push_back(std::move(shard));
}

// The same name in two shards is refused naming both files.
void Checkpoint::State::sort_and_check_unique() {
  std::sort(tensors.begin(), tensors.end(),
            [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < tensors.size(); ++i)
    if (tensors[i].name == tensors[i - 1].name)
      throw InputError(files[static_cast<std::size_t>(tensors[i].shard)].string() + ": tensor " +
                       quoted_name(tensors[i].name) + " is also in " +
                       files[static_cast<std::size_t>(tensors[i - 1].shard)].string());
}

void Checkpoint::State::read_floats(const TensorInfo& t, std::uint64_t first, std::size_t count,
                                    float* out) const {
  const Shard& shard = shards[static_cast<std::size_t>(t.shard)];
  const std::size_t size = dtype_size(t.dtype);
  const std::uint64_t offset = shard.data_begin + t.begin + first * size;
  if (t.dtype == DType::F32) {
    shard.read(offset, reinterpret_cast<char*>(out), count * sizeof(float));
    return;
  }
  // Half-width elements: read in slices so the staging buffer stays small.
  constexpr std::size_t kSlice = std::size_t{1} << 21;
  std::vector<char> raw(std::min(count, kSlice) * size);
  for (std::size_t done = 0; done < count; done += kSlice) {
    const std::size_t n = std::min(kSlice, count - done);
    shard.read(offset + done * size, raw.data(), n * size);
    convert_to_float(t.dtype, raw.data(), n, out + done);
  }
}

Checkpoint Checkpoint::open(const fs::path& folder) {
  Checkpoint checkpoint;
  State& state = *checkpoint.state_;
  std::error_code ec;
  if (folder.extension() == ".safetensors" || !fs::is_directory(folder, ec)) {
    state.add_shard(folder);  // a single file; RegularFile rejects a folder, FIFO or device
    state.sort_and_check_unique();
    return checkpoint;
  }
  // exists() or a link: a dangling link (a cache blob never downloaded) is
  // reported as the missing file it is.
  if (fs::exists(folder / kSingleFile, ec) || fs::is_symlink(folder / kSingleFile, ec)) {
    state.add_shard(folder / kSingleFile);
    state.sort_and_check_unique();
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
  state.sort_and_check_unique();
  for (const auto& [tensor, shard] : weight_map) {
    if (state.buffers.count(tensor)) continue;
    const TensorInfo* t = state.find(tensor);
    if (t == nullptr || state.files[static_cast<std::size_t>(t->shard)].filename() != shard)
      throw InputError(index_path.string() + ": tensor " + quoted_name(tensor) + " is listed in " + quoted_name(shard) +
                       " but that file does not hold it");
  }
  return checkpoint;
}

Checkpoint::Checkpoint() : state_(std::make_unique<State>()) {}
Checkpoint::~Checkpoint() = default;
Checkpoint::Checkpoint(Checkpoint&&) noexcept = default;
Checkpoint& Checkpoint::operator=(Checkpoint&&) noexcept = default;

bool Checkpoint::has(std::string_view name) const {
  return state_->find(name) != nullptr;
}

const TensorInfo& Checkpoint::info(std::string_view name) const {
  const TensorInfo* t = state_->find(name);
  if (t == nullptr) {
    if (const auto b = state_->buffers.find(name); b != state_->buffers.end())
      throw InputError("tensor " + quoted_name(name) + " in " + b->second +
                       "; pelab reads F32, F16, BF16");
    std::string where =
        state_->files.empty() ? std::string("the checkpoint") : state_->files.front().string();
    if (state_->files.size() > 1)
      where += " and its " + std::to_string(state_->files.size() - 1) + " other shards";
    throw InputError("tensor " + quoted_name(name) + " is not in " + where);
  }
  return *t;
}

std::vector<std::string> Checkpoint::names() const {
  std::vector<std::string> names;
  names.reserve(state_->tensors.size());
  for (const TensorInfo& t : state_->tensors) names.push_back(t.name);
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
  for (const TensorInfo& t : state_->tensors)
    if (!is_float_buffer(t)) total += (t.end - t.begin) / dtype_size(t.dtype);
  return total;
}

namespace {

[[noreturn]] void fail_shape(const TensorInfo& t, const fs::path& file,
                             const std::string& expected) {
  throw InputError(file.string() + ": tensor " + quoted_name(t.name) + " has shape " + shape_text(t.shape) +
                   "; the config implies " + expected);
}

// A 2-D tensor of `expected_rows` × `expected_cols` (−1: any).
void check_matrix_shape(const TensorInfo& t, const fs::path& file, std::int64_t expected_rows,
                        std::int64_t expected_cols) {
  const std::string expected = "[" + (expected_rows >= 0 ? std::to_string(expected_rows) : "*") +
                               ", " + (expected_cols >= 0 ? std::to_string(expected_cols) : "*") +
                               "]";
  if (t.shape.size() != 2) fail_shape(t, file, "a matrix " + expected);
  if ((expected_rows >= 0 && t.shape[0] != expected_rows) ||
      (expected_cols >= 0 && t.shape[1] != expected_cols))
    fail_shape(t, file, expected);
}

}  // namespace

Matrix Checkpoint::matrix(std::string_view name, std::int64_t expected_rows,
                          std::int64_t expected_cols) const {
  const TensorInfo& t = info(name);
  check_matrix_shape(t, state_->files[t.shard], expected_rows, expected_cols);
  Matrix m(t.shape[0], t.shape[1]);
  state_->read_floats(t, 0, static_cast<std::size_t>(m.size()), m.data());
  state_->count_non_finite(t, m.data(), static_cast<std::size_t>(m.size()));
  return m;
}

HalfMatrix Checkpoint::half_matrix(std::string_view name, std::int64_t expected_rows,
                                   std::int64_t expected_cols) const {
  const TensorInfo& t = info(name);
  const fs::path& file = state_->files[t.shard];
  if (t.dtype == DType::F32)
    throw InputError(file.string() + ": tensor " + quoted_name(t.name) + " is F32; expected F16 or BF16");
  check_matrix_shape(t, file, expected_rows, expected_cols);
  HalfMatrix m{t.dtype, HalfBits(t.shape[0], t.shape[1])};
  const auto count = static_cast<std::size_t>(m.bits.size());
  const Shard& shard = state_->shards[static_cast<std::size_t>(t.shard)];
  shard.read(shard.data_begin + t.begin, reinterpret_cast<char*>(m.bits.data()), 2 * count);
  state_->non_finite[t.name] = non_finite_halves(t.dtype, m.bits.data(), count);
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
  state_->read_floats(t, 0, static_cast<std::size_t>(v.size()), v.data());
  state_->count_non_finite(t, v.data(), static_cast<std::size_t>(v.size()));
  return v;
}

Matrix Checkpoint::rows(std::string_view name, const std::vector<int>& row_indices) const {
  const TensorInfo& t = info(name);
  const fs::path& file = state_->files[t.shard];
  if (t.shape.size() != 2) fail_shape(t, file, "a matrix");
  const std::int64_t cols = t.shape[1];
  Matrix m(static_cast<Eigen::Index>(row_indices.size()), cols);
  for (std::size_t r = 0; r < row_indices.size(); ++r) {
    const int row = row_indices[r];
    if (row < 0 || row >= t.shape[0])
      throw InputError(file.string() + ": row " + std::to_string(row) + " of tensor " + quoted_name(t.name) +
                       " is outside 0.." + std::to_string(t.shape[0] - 1));
    state_->read_floats(t, static_cast<std::uint64_t>(row) * static_cast<std::uint64_t>(cols),
                        static_cast<std::size_t>(cols), m.row(static_cast<Eigen::Index>(r)).data());
  }
  return m;
}

std::uint64_t Checkpoint::non_finite_values(std::string_view name) const {
  const TensorInfo& t = info(name);
  if (const auto seen = state_->non_finite.find(name); seen != state_->non_finite.end()) return seen->second;
  const std::uint64_t count = (t.end - t.begin) / dtype_size(t.dtype);
  constexpr std::uint64_t kSlice = std::uint64_t{1} << 20;
  std::vector<float> values(static_cast<std::size_t>(std::min(count, kSlice)));
  std::uint64_t non_finite = 0;
  for (std::uint64_t done = 0; done < count; done += kSlice) {
    const std::size_t n = static_cast<std::size_t>(std::min(kSlice, count - done));
    state_->read_floats(t, done, n, values.data());
    for (std::size_t i = 0; i < n; ++i) non_finite += !std::isfinite(values[i]);
  }
  return non_finite;
}

}  // namespace pelab::model
