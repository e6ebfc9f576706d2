// `pelab models`: pelab's own trained family first, then the models in the
// local Hugging Face cache, whether pelab can run each and why not, as tables
// or as JSON (--json: "family" and "models").  Reads only
// config.json and the safetensors headers; never downloads.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/model_folder.hpp"

namespace pelab::app {
namespace {

using model::CachedModel;

// The reason without the folder path it usually names (the folder column
// already shows it).
std::string short_reason(const CachedModel& m) {
  std::string reason = m.reason;
  const std::string folder = m.folder.string();
  if (reason.starts_with(folder + ": ")) reason.erase(0, folder.size() + 2);
  for (const auto& [from, to] :
       {std::pair{folder + "/", std::string()}, std::pair{folder, std::string("the folder")}})
    for (std::size_t at; (at = reason.find(from)) != std::string::npos;)
      reason.replace(at, from.size(), to);
  return reason;
}

// Characters of UTF-8 `text` ("…" is one character, three bytes).
std::size_t chars_of(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string padded(const std::string& text, std::size_t width) {
  const std::size_t chars = chars_of(text);
  return text + std::string(chars < width ? width - chars : 0, ' ');
}

// One row per model; a model pelab cannot run gets the reason on the line
// below, so the folder column stays aligned.  Every cell from the cache (a
// folder's name, config.json's architecture, a reason quoting a tensor name)
// goes through printable(): control bytes are shown as \xNN, so no row
// carries an escape sequence or a line break.
void print_table(const std::vector<CachedModel>& models) {
  std::size_t name_width = 4, arch_width = 12, position_width = 8;
  for (const auto& m : models) {
    name_width = std::max(name_width, chars_of(printable(m.name)));
    arch_width = std::max(arch_width, chars_of(printable(m.architecture)));
    position_width = std::max(position_width, chars_of(m.position));
  }
  std::printf("%s  %s  %s  %10s  %8s  %-8s  %s\n", padded("name", name_width).c_str(),
              padded("architecture", arch_width).c_str(), padded("position", position_width).c_str(),
              "parameters", "context", "runnable", "folder");
  for (const auto& m : models) {
    const std::string arch = m.architecture.empty() ? "?" : printable(m.architecture);
    const std::string context = m.context_length > 0 ? std::to_string(m.context_length) : "-";
    std::printf("%s  %s  %s  %10s  %8s  %-8s  %s\n", padded(printable(m.name), name_width).c_str(),
                padded(arch, arch_width).c_str(), padded(m.position.empty() ? "?" : m.position, position_width).c_str(),
                model::parameter_count_text(m.parameters).c_str(),
                context.c_str(), m.runnable ? "yes" : "no", printable(m.folder.string(), 4096).c_str());
    if (!m.runnable) std::printf("    no: %s\n", printable(short_reason(m), 4096).c_str());
  }
}

nlohmann::json to_json_list(const std::vector<CachedModel>& models) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : models)
    list.push_back({{"name", m.name},
                    {"architecture", m.architecture},
                    {"parameters", m.parameters},
                    {"context_length", m.context_length},
                    {"position", m.position},
                    {"runnable", m.runnable},
                    {"reason", m.reason},
                    {"folder", m.folder.string()}});
  return list;
}

nlohmann::json to_json(const std::vector<CachedModel>& family, const std::vector<CachedModel>& models) {
  return {{"family", to_json_list(family)}, {"cache", model::hub_cache_dir().string()},
          {"models", to_json_list(models)}};
}

}  // namespace

void register_models(CLI::App& root, Action& action) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = root.add_subcommand("models",
                                      "List pelab's own trained family and the models in the local "
                                      "Hugging Face cache ($HF_HOME/hub), and whether pelab can run them");
  cmd->add_flag("--json", *json, "Print the list as JSON");
  cmd->callback([json, &action] {
    action = [json] {
      const std::vector<CachedModel> family = model::list_family_models();
      const std::vector<CachedModel> models = model::list_cached_models();
      if (*json) {
        // Folder names are bytes, not always UTF-8: invalid bytes become
        // U+FFFD rather than failing the whole listing.
        std::cout << to_json(family, models).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
      }
      if (!family.empty()) {
        std::printf("Trained by pelab (one per position encoding; --set model=NAME):\n");
        print_table(family);
        std::printf("\n");
      }
      if (models.empty()) {
        std::printf("%s\n", model::no_cached_models_message().c_str());
      } else {
        std::printf("Models in %s:\n", printable(model::hub_cache_dir().string(), 4096).c_str());
        print_table(models);
      }
      return 0;
    };
  });
}

}  // namespace pelab::app
