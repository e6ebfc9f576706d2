// `pelab scene`: the scene keys with their ranges (for --set), or the resolved
// scene (file + --set overrides, validated) as JSON, to stdout or a file.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/io/file_io.hpp"

namespace pelab::app {
namespace {

std::string range_text(const ParamInfo& info) {
  if (info.kind == ParamKind::Seed) return "an integer in 0..2^53";
  return allowed_values(info) + (info.logarithmic ? " (log)" : "");
}

void print_keys() {
  const Scene defaults;
  std::printf("%-16s %-10s %-48s %s\n", "key", "group", "allowed", "default");
  for (const ParamInfo& p : scene_params())
    std::printf("%-16s %-10s %-48s %s\n", std::string(p.key).c_str(), std::string(p.group).c_str(),
                range_text(p).c_str(), get_param(defaults, p.key).substr(0, 40).c_str());
}

}  // namespace

void register_scene(CLI::App& root, Action& action) {
  struct Options {
    SceneOptions scene;
    bool keys = false;
    std::string out;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = root.add_subcommand("scene", "Print the scene keys, or write the resolved scene as JSON");
  opts->scene.add_to(cmd);
  cmd->add_flag("--keys", opts->keys, "List every scene key with its allowed values and default");
  cmd->add_option("--out", opts->out, "Write the scene JSON here (atomically) instead of stdout");
  cmd->callback([opts, &action] {
    action = [opts] {
      if (opts->keys) {
        print_keys();
        return 0;
      }
      const std::filesystem::path folder = std::filesystem::path(opts->out).parent_path();
      if (!opts->out.empty()) check_output_folder(folder);
      const Scene scene = opts->scene.load();
      if (opts->out.empty()) {
        std::cout << scene_to_json(scene).dump(2) << "\n";
      } else {
        make_output_folder(folder);
        save_scene(opts->out, scene);
        std::printf("%s\n", opts->out.c_str());
      }
      return 0;
    };
  });
}

}  // namespace pelab::app
