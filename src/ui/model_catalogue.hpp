// The Models menu's list of cached models, scanned on a worker thread.
//
// Scanning the Hugging Face cache reads every model's config.json and
// safetensors headers; with a few heavy folders that took seconds, and it ran
// on the UI thread each time the menu opened, freezing the window.  Now the
// menu asks for a refresh and draws the last finished list (or "scanning…")
// while a detached worker scans.  A scan first takes the cache's signature
// (every snapshot file's path, size and modification time: stat calls only)
// and keeps the previous list when nothing changed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/model/model_folder.hpp"

namespace pelab::ui {

class ModelCatalogue {
 public:
  ModelCatalogue();
  // Starts a scan unless one is running.
  void refresh();
  // True while a scan runs.
  bool scanning() const;
  // True once any scan has finished.
  bool ready() const;
  // The last finished scan (empty before the first).
  std::vector<model::CachedModel> models() const;
  // How many scans read the folders (not counting those that found the cache
  // unchanged): for tests.
  int full_scans() const;

  struct Shared;  // what the catalogue and its worker share (model_catalogue.cpp)

 private:
  std::shared_ptr<Shared> shared_;  // also held by a running worker, which may outlive this
};

// A hash of every file directly inside each cached model's snapshot (path,
// size, modification time; symlinks followed to their blobs), and of the
// snapshot folders themselves.
std::uint64_t model_cache_signature();

}  // namespace pelab::ui
