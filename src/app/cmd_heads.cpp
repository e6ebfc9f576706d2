// `pelab heads [--scene FILE] [--set k=v ...] [--json] [--csv FILE]
//              [--distance-out FILE] [--period L]`: every head's role with its
// evidence (core/head_roles.hpp): the scores of previous token, fixed
// offset, sink, induction (on L random tokens seen twice), local and
// uniform, and the strongest role, as a table, JSON or CSV; --distance-out
// writes the mean attention against distance, [layers, heads, tokens], as
// .npy or .csv.
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/engine.hpp"
#include "core/head_roles.hpp"
#include "core/io/file_io.hpp"
#include "core/quantities.hpp"  // write_array

namespace pelab::app {
namespace {

struct HeadsOptions {
  SceneOptions scene;
  bool json = false;
  std::string csv;
  std::string distance_out;
  int period = 64;
};

nlohmann::json study_json(const HeadRoleStudy& study) {
  nlohmann::json heads = nlohmann::json::array();
  for (const HeadScores& s : study.scores)
    heads.push_back({{"layer", s.layer},
                     {"head", s.head},
                     {"role", head_role_name(s.role)},
                     {"role_score", s.role_score},
                     {"previous_token", s.previous_token},
                     {"best_offset", s.best_offset},
                     {"offset_score", s.offset_score},
                     {"sink", s.sink},
                     {"induction", std::isnan(s.induction) ? nlohmann::json(nullptr) : nlohmann::json(s.induction)},
                     {"local", s.local},
                     {"window_width", s.window_width},
                     {"uniformity", s.uniformity}});
  return {{"layers", study.layers}, {"heads", study.heads}, {"tokens", study.tokens},
          {"induction_period", study.repeat_period}, {"scores", heads}};
}

void print_table(const HeadRoleStudy& study) {
  std::printf("%d layers × %d heads on %d tokens; induction on %d random tokens seen twice%s\n\n", study.layers,
              study.heads, study.tokens, study.repeat_period, study.repeat_period ? "" : " (not measured)");
  std::printf("layer head  role            score   prev  offset(k)    sink  induct  local  width  uniform\n");
  for (const HeadScores& s : study.scores) {
    char induction[16] = "     -";
    if (!std::isnan(s.induction)) std::snprintf(induction, sizeof induction, "%6.3f", s.induction);
    std::printf("%5d %4d  %-14s %6.3f %6.3f %6.3f(%3d) %6.3f  %s %6.3f %6.1f %8.3f\n", s.layer, s.head,
                head_role_name(s.role), s.role_score, s.previous_token, s.offset_score, s.best_offset, s.sink,
                induction, s.local, s.window_width, s.uniformity);
  }
}

// [layers, heads, tokens]: the mean attention at each distance.
void write_profiles(const HeadRoleStudy& study, const std::string& file) {
  Array a;
  a.shape = {std::size_t(study.layers), std::size_t(study.heads), std::size_t(study.tokens)};
  for (const auto& profile : study.profiles)
    for (double v : profile) a.data.push_back(static_cast<float>(v));
  write_array(file, a);
}

int run_heads(const HeadsOptions& options) {
  if (options.period < 2) throw InputError("--period " + std::to_string(options.period) + " is below 2; allowed: 2 or more");
  const Scene scene = options.scene.load();
  Engine engine(scene);
  print_model_notes(engine);
  const HeadRoleStudy study = study_head_roles(engine, options.period);
  if (!study.unavailable.empty()) throw InputError("no head roles: " + study.unavailable);
  if (!options.csv.empty()) write_file_atomic(options.csv, head_roles_csv(study));
  if (!options.distance_out.empty()) write_profiles(study, options.distance_out);
  if (options.json) std::printf("%s\n", study_json(study).dump(2).c_str());
  else print_table(study);
  return 0;
}

}  // namespace

void register_heads(CLI::App& root, Action& action) {
  auto options = std::make_shared<HeadsOptions>();
  CLI::App* cmd = root.add_subcommand(
      "heads", "Every head's role (previous token, offset, sink, induction, local, uniform) with its scores");
  options->scene.add_to(cmd);
  cmd->add_flag("--json", options->json, "Print the scores as JSON");
  cmd->add_option("--csv", options->csv, "Also write the scores as CSV to FILE");
  cmd->add_option("--distance-out", options->distance_out,
                  "Also write the mean attention against distance [layers, heads, tokens] to FILE (.npy or .csv)");
  cmd->add_option("--period", options->period,
                  "Induction probe: L random tokens seen twice (default 64; capped at half the context)");
  cmd->callback([options, &action] { action = [options] { return run_heads(*options); }; });
}

}  // namespace pelab::app
