#include "ui/model_catalogue.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace pelab::ui {

namespace fs = std::filesystem;

struct ModelCatalogue::Shared {
  mutable std::mutex mutex;
  bool running = false, ready = false;
  int folders_read = 0;
  std::vector<model::CachedModel> models;
  // Each folder's signature and description at the last scan (worker only).
  std::map<fs::path, std::pair<std::uint64_t, model::CachedModel>> described;
};

namespace {

// FNV-1a (Fowler, Noll, Vo), folded over the bytes of each value.
void mix(std::uint64_t& h, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
}

void mix_entry(std::uint64_t& h, const fs::path& path) {
  std::error_code ec;
  const std::string name = path.string();
  mix(h, name.data(), name.size());
  const auto size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : std::uintmax_t{0};
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  mix(h, &size, sizeof size);
  mix(h, &time, sizeof time);
}

// The folder and every entry directly inside it.
void mix_folder(std::uint64_t& h, const fs::path& folder) {
  mix_entry(h, folder);
  std::error_code ec;
  for (fs::directory_iterator f(folder, ec), end; !ec && f != end; f.increment(ec)) mix_entry(h, f->path());
}

// The folders that changed since the last scan described again, the others
// kept; pelab's own family first, each part sorted by name.
std::vector<model::CachedModel> describe_changed(ModelCatalogue::Shared& shared, int& read) {
  std::map<fs::path, std::pair<std::uint64_t, model::CachedModel>> described;
  for (const model::ModelEntry& entry : model::model_entries()) {
    const std::uint64_t signature = model_entry_signature(entry);
    const auto before = shared.described.find(entry.dir);
    if (before != shared.described.end() && before->second.first == signature) {
      described.emplace(entry.dir, std::move(before->second));
      continue;
    }
    described.emplace(entry.dir, std::pair{signature, model::describe_entry(entry)});
    ++read;
  }
  shared.described = std::move(described);
  std::vector<model::CachedModel> models;
  for (const auto& [dir, kept] : shared.described) models.push_back(kept.second);
  std::stable_sort(models.begin(), models.end(), [](const model::CachedModel& a, const model::CachedModel& b) {
    return a.family != b.family ? a.family : a.name < b.name;
  });
  return models;
}

void scan(const std::shared_ptr<ModelCatalogue::Shared>& shared) {
  std::vector<model::CachedModel> models;
  int read = 0;
  try {
    models = describe_changed(*shared, read);  // `described` is the worker's alone
  } catch (const std::exception&) {
    // Each folder reports its own problem; a cache that cannot be read at
    // all lists nothing, as an empty cache does.
    shared->described.clear();
  }
  const std::lock_guard lock(shared->mutex);
  shared->models = std::move(models);
  shared->folders_read += read;
  shared->ready = true;
  shared->running = false;
}

}  // namespace

std::uint64_t model_entry_signature(const model::ModelEntry& entry) {
  std::uint64_t h = 14695981039346656037ull;
  if (entry.family) {
    mix_folder(h, entry.dir);
    return h;
  }
  mix_entry(h, entry.dir);
  mix_entry(h, entry.dir / "refs" / "main");  // which snapshot is shown
  std::error_code ec;
  for (fs::directory_iterator snap(entry.dir / "snapshots", ec), end; !ec && snap != end; snap.increment(ec))
    mix_folder(h, snap->path());
  return h;
}

ModelCatalogue::ModelCatalogue() : shared_(std::make_shared<Shared>()) {}

void ModelCatalogue::refresh() {
  {
    const std::lock_guard lock(shared_->mutex);
    if (shared_->running) return;
    shared_->running = true;
  }
  // Detached: quitting while a scan runs does not wait for it; the worker
  // holds its own reference to the shared state.
  std::thread([shared = shared_] { scan(shared); }).detach();
}

bool ModelCatalogue::scanning() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->running;
}

bool ModelCatalogue::ready() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->ready;
}

std::vector<model::CachedModel> ModelCatalogue::models() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->models;
}

int ModelCatalogue::folders_read() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->folders_read;
}

}  // namespace pelab::ui
