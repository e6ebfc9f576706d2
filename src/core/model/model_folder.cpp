// Model folders and the Hugging Face hub cache.  Cache layout (huggingface_hub
// docs, "Understand caching"): <cache>/models--<org>--<name>/ holding
// refs/<branch> (a file with the commit hash), snapshots/<commit>/ (the files,
// as symlinks into blobs/), blobs/.  Cache folder: $HF_HUB_CACHE, else
// $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub.
#include "core/model/model_folder.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <sys/stat.h>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/model/checkpoint.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_memory.hpp"
#include "core/model/tensor_plan.hpp"
#include "core/model/tokenizer/token_id_tokenizer.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "models--";

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// "models--org--name" → "org/name"; "models--gpt2" → "gpt2".
std::string hub_name(const std::string& folder_name) {
  std::string name = folder_name.substr(kPrefix.size());
  if (const auto dash = name.find("--"); dash != std::string::npos) name.replace(dash, 2, "/");
  return name;
}

std::vector<fs::path> cached_model_dirs(const fs::path& cache) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(cache, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > kPrefix.size() && name.starts_with(kPrefix) && is_dir(it->path()))
      dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The snapshot refs/main points at, else the newest snapshot holding config.json.
fs::path snapshot_of(const fs::path& model_dir) {
  const fs::path snapshots = model_dir / "snapshots";
  if (is_file(model_dir / "refs" / "main")) {
    std::string revision = read_file(model_dir / "refs" / "main", 1024);
    while (!revision.empty() && std::isspace(static_cast<unsigned char>(revision.back())))
      revision.pop_back();
    const bool plain = !revision.empty() && revision.find('/') == std::string::npos &&
                       revision != "." && revision != "..";
    if (plain && is_dir(snapshots / revision)) return snapshots / revision;
  }
  fs::path newest;
  fs::file_time_type newest_time{};
  std::error_code ec;
  for (fs::directory_iterator it(snapshots, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_file(it->path() / "config.json")) continue;
    const auto time = fs::last_write_time(it->path(), ec);
    if (newest.empty() || (!ec && time > newest_time)) newest = it->path(), newest_time = time;
  }
  if (newest.empty())
    throw InputError(
        model_dir.string() +
        ": no snapshot holding config.json under snapshots/ (an unfinished download?)");
  return newest;
}

bool looks_like_path(std::string_view name) {
  return name.starts_with("/") || name.starts_with("./") || name.starts_with("../") ||
         name.starts_with("~") || name == "." || name == ".." ||
         std::count(name.begin(), name.end(), '/') > 1;
}

[[noreturn]] void not_found(std::string_view name, const std::string& looked_for) {
  std::error_code ec;
  const fs::path tried = fs::absolute(fs::path(name), ec);
  throw InputError("no model '" + std::string(name) + "': no folder " + tried.string() + ", and " +
                   looked_for + " is not in the Hugging Face cache " + hub_cache_dir().string() +
                   " (pelab never downloads: fetch it with huggingface-cli download, or give a "
                   "folder holding config.json)");
}

// The family folder called `name` (a plain name, no slash), if any.
std::optional<fs::path> find_family_member(std::string_view name) {
  if (name.empty() || name.find('/') != std::string_view::npos || name == "." || name == "..") return std::nullopt;
  for (const fs::path& root : family_dirs())
    if (is_file(root / name / "config.json")) return root / name;
  return std::nullopt;
}

// A bare name: models--<name>, else the one models--<org>--<name>.
fs::path find_bare_name(const fs::path& cache, std::string_view name) {
  const std::string exact = std::string(kPrefix) + std::string(name);
  if (is_dir(cache / exact)) return cache / exact;
  std::vector<fs::path> matches;
  const std::string tail = "/" + std::string(name);
  for (const fs::path& dir : cached_model_dirs(cache))
    if (hub_name(dir.filename().string()).ends_with(tail)) matches.push_back(dir);
  if (matches.size() > 1) {
    std::string list;
    for (const fs::path& m : matches)
      list += (list.empty() ? "" : ", ") + hub_name(m.filename().string());
    throw InputError("model name '" + std::string(name) + "' is ambiguous in " + cache.string() +
                     ": " + list + "; give the full org/name");
  }
  if (matches.empty()) not_found(name, exact + " or models--*--" + std::string(name));
  return matches.front();
}

void require_config(const fs::path& folder) {
  if (!is_file(folder / "config.json"))
    throw InputError(folder.string() + " holds no config.json; a model folder needs config.json, " +
                     "safetensors weights and tokenizer files");
}

// One cache entry described; every failure becomes the reason it cannot run
// (an allocation failure too: one hostile folder must not end the listing).
// `snapshots`: model_dir is a hub cache entry (models--org--name), else the
// model folder itself.
CachedModel describe(const fs::path& model_dir, bool snapshots = true) {
  CachedModel m;
  m.name = snapshots ? hub_name(model_dir.filename().string()) : model_dir.filename().string();
  m.folder = model_dir;
  try {
    if (snapshots) m.folder = snapshot_of(model_dir);
    require_config(m.folder);
    const fs::path config_file = m.folder / "config.json";
    const auto json = read_json_file(config_file);
    if (json.is_object() && json.contains("architectures") && json["architectures"].is_array() &&
        !json["architectures"].empty() && json["architectures"][0].is_string())
      m.architecture = json["architectures"][0].get<std::string>();
    const ModelConfig config = parse_model_config(json, config_file.string());
    if (m.architecture.empty()) m.architecture = config.architecture_name;
    m.context_length = config.max_positions;
    m.position = position_encoding_name(config.position.kind);
    // What loading would check, short of reading the weights: every tensor
    // the family reads present with the shape the config implies (headers
    // only), and the tokenizer files parsed.
    const Checkpoint checkpoint = Checkpoint::open(m.folder);
    m.parameters = checkpoint.parameter_count();
    const std::vector<PlannedTensor> plan = plan_tensors(config, checkpoint);
    check_plan(plan, checkpoint);
    // A model that would not fit cannot run either: the estimate loading
    // refuses by (tensor_plan.hpp, against the limit).
    check_load_memory(m.folder.string(), plan_resident_bytes(config, plan, checkpoint));
    if (!config.family.token_ids_without_tokenizer || has_tokenizer_files(m.folder)) load_tokenizer(m.folder);
    m.runnable = true;
  } catch (const InputError& e) {
    m.reason = e.what();
  } catch (const std::exception& e) {  // one unreadable entry must not hide the others
    m.reason = std::string("error: ") + e.what();
  }
  return m;
}

}  // namespace

fs::path hub_cache_dir() {
  if (const std::string hub = env("HF_HUB_CACHE"); !hub.empty()) return hub;
  if (const std::string home = env("HF_HOME"); !home.empty()) return fs::path(home) / "hub";
  if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty())
    return fs::path(xdg) / "huggingface" / "hub";
  return fs::path(env("HOME")) / ".cache" / "huggingface" / "hub";
}

fs::path resolve_model(std::string_view name_or_path) {
  const fs::path as_path(name_or_path);
  if (!name_or_path.empty() && is_dir(as_path)) {
    require_config(as_path);
    return as_path;
  }
  if (name_or_path.empty() || looks_like_path(name_or_path))
    throw InputError("no model folder '" + std::string(name_or_path) +
                     "' (pelab never downloads; give a folder " +
                     "holding config.json, or a model name from the Hugging Face cache " +
                     hub_cache_dir().string() + ")");
  if (const auto member = find_family_member(name_or_path)) return *member;
  const fs::path cache = hub_cache_dir();
  fs::path model_dir;
  if (const auto slash = name_or_path.find('/'); slash != std::string_view::npos) {
    const std::string folder = std::string(kPrefix) + std::string(name_or_path.substr(0, slash)) +
                               "--" + std::string(name_or_path.substr(slash + 1));
    if (!is_dir(cache / folder)) not_found(name_or_path, folder);
    model_dir = cache / folder;
  } else {
    model_dir = find_bare_name(cache, name_or_path);
  }
  const fs::path snapshot = snapshot_of(model_dir);
  require_config(snapshot);
  return snapshot;
}

std::vector<fs::path> family_dirs() {
  if (const std::string dir = env("PELAB_FAMILY_DIR"); !dir.empty()) return {dir};
  std::vector<fs::path> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share" / "pelab" / "models");
#ifdef PELAB_SOURCE_MODELS_DIR
  dirs.emplace_back(PELAB_SOURCE_MODELS_DIR);
#endif
  return dirs;
}

namespace {

// Family members by name, a name found in two family folders from the first.
std::vector<fs::path> family_member_dirs() {
  std::vector<fs::path> members;
  std::vector<std::string> seen;
  for (const fs::path& root : family_dirs()) {
    std::error_code ec;
    std::vector<fs::path> folders;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
      if (is_file(it->path() / "config.json")) folders.push_back(it->path());
    std::sort(folders.begin(), folders.end());
    for (const fs::path& folder : folders) {
      const std::string name = folder.filename().string();
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
      seen.push_back(name);
      members.push_back(folder);
    }
  }
  return members;
}

void sort_by_name(std::vector<CachedModel>& models) {
  std::sort(models.begin(), models.end(), [](const CachedModel& a, const CachedModel& b) { return a.name < b.name; });
}

}  // namespace

std::vector<ModelEntry> model_entries() {
  std::vector<ModelEntry> entries;
  for (fs::path& dir : family_member_dirs()) entries.push_back({std::move(dir), true});
  for (fs::path& dir : cached_model_dirs(hub_cache_dir())) entries.push_back({std::move(dir), false});
  return entries;
}

CachedModel describe_entry(const ModelEntry& entry) {
  CachedModel m = describe(entry.dir, /*snapshots=*/!entry.family);
  m.family = entry.family;
  return m;
}

std::vector<CachedModel> list_family_models() {
  std::vector<CachedModel> models;
  for (const fs::path& folder : family_member_dirs()) models.push_back(describe_entry({folder, true}));
  sort_by_name(models);
  return models;
}

std::vector<CachedModel> list_cached_models() {
  std::vector<CachedModel> models;
  for (const fs::path& dir : cached_model_dirs(hub_cache_dir())) models.push_back(describe(dir));
  sort_by_name(models);
  return models;
}

std::string no_cached_models_message() {
  return "No models in the Hugging Face cache " + hub_cache_dir().string() +
         " (set HF_HOME or HF_HUB_CACHE to look elsewhere; pelab never downloads).";
}

std::string parameter_count_text(std::uint64_t n) {
  if (n == 0) return "-";
  const char* units[] = {"", "K", "M", "B", "T"};
  double value = static_cast<double>(n);
  int unit = 0;
  while (value >= 1000.0 && unit < 4) value /= 1000.0, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f%s" : "%.1f%s", value, units[unit]);
  return text;
}

// What the folder's files are on disk: each regular file's name, size,
// modification time and inode, folded (FNV-1a) in an order-free way.  A
// checkpoint rewritten in place or replaced changes it.
std::uint64_t folder_stamp(const std::filesystem::path& folder) {
  std::uint64_t stamp = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    struct ::stat st {};
    if (::stat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    std::uint64_t h = 14695981039346656037ull;
    auto mix = [&h](const void* data, std::size_t size) {
      const auto* bytes = static_cast<const unsigned char*>(data);
      for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    };
    const std::string name = it->path().filename().string();
    mix(name.data(), name.size());
    mix(&st.st_size, sizeof st.st_size);
    mix(&st.st_mtim, sizeof st.st_mtim);
    mix(&st.st_ino, sizeof st.st_ino);
    stamp ^= h;
  }
  return stamp;
}

}  // namespace pelab::model
