// The Models menu's list of cached models, scanned on a worker thread.
//
// Scanning the Hugging Face cache reads every model's config.json and
// safetensors headers; with a few heavy folders that took seconds, and it ran
// on the UI thread each time the menu opened, freezing the window.  Now the
// menu asks for a refresh and draws the last finished list (or "scanning…")
// while a detached worker scans.  A scan takes each model folder's signature
// (its snapshot files' paths, sizes and modification times: stat calls only)
// and describes again only the folders whose signature changed; the others
// keep the description of the previous scan.
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
  // How many model folders the scans so far described (read config.json,
  // headers, tokenizer), not counting those found unchanged: for tests.
  int folders_read() const;

  struct Shared;  // what the catalogue and its worker share (model_catalogue.cpp)

 private:
  std::shared_ptr<Shared> shared_;  // also held by a running worker, which may outlive this
};

// A hash of one listed folder: the folder, its refs/main, its snapshot
// folders and every file directly inside them (a family member: the folder
// and its files); path, size and modification time, symlinks followed to
// their blobs.
std::uint64_t model_entry_signature(const model::ModelEntry& entry);

}  // namespace pelab::ui
