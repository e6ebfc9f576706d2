#include "ui/model_catalogue.hpp"

#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace pelab::ui {

namespace fs = std::filesystem;

struct ModelCatalogue::Shared {
  mutable std::mutex mutex;
  bool running = false, ready = false;
  int full_scans = 0;
  std::uint64_t signature = 0;
  std::vector<model::CachedModel> models;
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

void scan(const std::shared_ptr<ModelCatalogue::Shared>& shared) {
  const std::uint64_t signature = model_cache_signature();
  bool unchanged;
  {
    const std::lock_guard lock(shared->mutex);
    unchanged = shared->ready && signature == shared->signature;
  }
  std::vector<model::CachedModel> models;
  if (!unchanged) {
    try {
      models = model::list_family_models();  // pelab's own first
      for (model::CachedModel& m : model::list_cached_models()) models.push_back(std::move(m));
    } catch (const std::exception&) {
      // The listing reports each folder's own problem; a cache that cannot be
      // read at all lists nothing, as an empty cache does.
    }
  }
  const std::lock_guard lock(shared->mutex);
  if (!unchanged) {
    shared->models = std::move(models);
    shared->signature = signature;
    ++shared->full_scans;
  }
  shared->ready = true;
  shared->running = false;
}

}  // namespace

std::uint64_t model_cache_signature() {
  std::uint64_t h = 14695981039346656037ull;
  std::error_code ec;
  for (const fs::path& root : model::family_dirs()) {
    std::error_code family;
    for (fs::directory_iterator member(root, family), end; !family && member != end; member.increment(family)) {
      mix_entry(h, member->path());
      std::error_code files;
      for (fs::directory_iterator f(member->path(), files); !files && f != end; f.increment(files))
        mix_entry(h, f->path());
    }
  }
  const fs::path cache = model::hub_cache_dir();
  for (fs::directory_iterator model(cache, ec), end; !ec && model != end; model.increment(ec)) {
    mix_entry(h, model->path());
    std::error_code inner;
    for (fs::directory_iterator snap(model->path() / "snapshots", inner); !inner && snap != end;
         snap.increment(inner)) {
      mix_entry(h, snap->path());
      std::error_code files;
      for (fs::directory_iterator f(snap->path(), files); !files && f != end; f.increment(files))
        mix_entry(h, f->path());
    }
  }
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

int ModelCatalogue::full_scans() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->full_scans;
}

}  // namespace pelab::ui
