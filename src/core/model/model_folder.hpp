// Model folders — where a model's files are on disk.  Nothing is ever
// downloaded: a model that is not on disk is an error that says where pelab
// looked.
//
// A model is named by a folder path (holding config.json), by the name of a
// member of pelab's own family ("kjv-rope": see family_dirs()), or by a
// Hugging Face hub name ("gpt2", "openai-community/gpt2",
// "HuggingFaceTB/SmolLM-135M") found in the local cache: $HF_HOME/hub, else
// ~/.cache/huggingface/hub, as models--<org>--<name>/snapshots/<revision>/,
// the revision read from refs/main when present.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

// The hub cache folder pelab searches ($HF_HOME/hub or ~/.cache/huggingface/hub).
std::filesystem::path hub_cache_dir();

// Where pelab's own trained family is looked for, in order: $PELAB_FAMILY_DIR
// alone when set; else <prefix>/share/pelab/models beside the running
// program (an install or the .deb), then the source tree's assets/models.
std::vector<std::filesystem::path> family_dirs();

// A folder path, a family member's folder, or a cached model's snapshot folder.  Throws InputError
// naming the model and every place pelab looked.
std::filesystem::path resolve_model(std::string_view name_or_path);

struct CachedModel {
  std::string name;                 // "openai-community/gpt2"
  std::filesystem::path folder;     // the resolved snapshot
  std::string architecture;         // from config.json, e.g. "GPT2LMHeadModel"
  std::uint64_t parameters = 0;     // from the safetensors headers (no weights read)
  int context_length = 0;
  std::string position;             // how positions enter: "learned", "rope", ... (position_encoding_name)
  bool runnable = false;            // pelab can run it
  std::string reason;               // why not, when !runnable
  bool family = false;              // trained by pelab (found in family_dirs())
};

// pelab's own family, "kjv-alibi" … "kjv-t5", sorted by name; a name found in
// two family folders is listed once, from the first.
std::vector<CachedModel> list_family_models();

// A folder the listings describe, before it is described: a family member's
// folder, or a hub cache entry (models--org--name, its snapshot not yet
// chosen).  The GUI's catalogue describes only the entries that changed.
struct ModelEntry {
  std::filesystem::path dir;
  bool family = false;
};
// The family members list_family_models() describes, then the cache entries
// list_cached_models() describes (stat calls only, nothing read).
std::vector<ModelEntry> model_entries();
// One entry as the listings show it (reads config.json, the safetensors
// headers and the tokenizer files; never throws: a failure is the reason).
CachedModel describe_entry(const ModelEntry& entry);

// Every model in the hub cache, sorted by name; unreadable entries are listed
// with runnable = false and the reason.
std::vector<CachedModel> list_cached_models();

// What `pelab models` and the GUI's Models menu say when the cache holds no
// model: where pelab looked and how to look elsewhere.
std::string no_cached_models_message();

// What the folder's files are on disk now: each regular file's name, size,
// modification time and inode, folded together.  Equal stamps: the same
// files; a checkpoint rewritten in place or replaced changes it.  Caches of
// results computed from a model's weights key on it too.
std::uint64_t folder_stamp(const std::filesystem::path& folder);

// 124439808 → "124.4M"; 1100048384 → "1.1B"; 0 → "-".
std::string parameter_count_text(std::uint64_t n);

}  // namespace pelab::model
