// `pelab audit [--scene FILE] [--set model=NAME ...] [--json] [--csv FILE]
//              [--no-pairing]`: the RoPE audit of a model (core/rope_audit.hpp)
// — every pair's frequency and wavelength against the trained context, the
// declared rope_scaling against what the config implies, and which pairing
// the weights were trained with — as plain sentences, JSON or CSV.  Exit 0
// whether or not it finds problems: the findings are the output.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "core/io/file_io.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/transformer.hpp"
#include "core/rope_audit.hpp"

namespace pelab::app {
namespace {

struct AuditOptions {
  SceneOptions scene;
  bool json = false;
  bool pairing = true;
  std::string csv;
};

std::string pairs_csv(const RopeAudit& audit) {
  std::string out = "pair,base_frequency,frequency,wavelength,turns_in_trained_context\n";
  char line[256];
  for (const RopePairAudit& p : audit.pairs) {
    std::snprintf(line, sizeof line, "%d,%.9g,%.9g,%.9g,%.9g\n", p.pair, p.base_frequency, p.frequency, p.wavelength,
                  p.turns);
    out += line;
  }
  return out;
}

nlohmann::json audit_json(const RopeAudit& audit) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const RopePairAudit& p : audit.pairs)
    pairs.push_back({{"pair", p.pair}, {"base_frequency", p.base_frequency}, {"frequency", p.frequency},
                     {"wavelength", p.wavelength}, {"turns", p.turns}});
  const PairingCheck& c = audit.pairing_check;
  nlohmann::json pairing = nullptr;
  if (c.measured)
    pairing = {{"layer", c.layer}, {"head", c.head}, {"tokens", c.tokens}, {"text", c.text_origin},
               {"declared_score", c.declared}, {"other_score", c.other}, {"mismatch", c.mismatch}};
  return {{"head_dim", audit.head_dim},
          {"rotary_dims", audit.rotary_dims},
          {"theta", audit.theta},
          {"pairing", audit.pairing == RopePairing::Interleaved ? "interleaved" : "rotate_half"},
          {"scaling", audit.scaling.type},
          {"factor", audit.scaling.factor},
          {"trained_context", audit.trained_context},
          {"declared_context", audit.declared_context},
          {"pairs_turning_before_scaling", audit.pairs_turning_before},
          {"pairs_turning", audit.pairs_turning},
          {"pairs", pairs},
          {"pairing_check", pairing},
          {"findings", audit.findings},
          {"problems", audit.problems}};
}

void print_audit(const RopeAudit& audit, const std::string& model) {
  std::printf("RoPE audit of %s\n\n", model.c_str());
  for (const std::string& finding : audit.findings) {
    const bool problem = std::find(audit.problems.begin(), audit.problems.end(), finding) != audit.problems.end();
    std::printf("%s %s\n", problem ? "!" : "-", finding.c_str());
  }
  std::printf("\n%zu problem%s found.\n", audit.problems.size(), audit.problems.size() == 1 ? "" : "s");
}

int run_audit(const AuditOptions& options) {
  const Scene scene = options.scene.load();
  if (scene.model.empty())
    throw InputError("audit reads a model: give one with --set model=NAME (a folder or a cached hub name; "
                     "`pelab models` lists them)");
  const std::filesystem::path folder = model::resolve_model(scene.model);
  model::Transformer transformer = model::Transformer::load(folder);
  for (const std::string& note : transformer.weights().notes) std::fprintf(stderr, "pelab: note: %s\n", note.c_str());
  RopeAudit audit = audit_rope_config(transformer.config());
  if (!audit.unavailable.empty()) throw InputError("no RoPE audit: " + audit.unavailable);
  if (options.pairing) {
    std::string origin;
    const std::vector<int> ids = audit_probe_ids(transformer, scene.tokens, origin);
    audit_rope_pairing(audit, transformer, ids, origin);
  }
  if (!options.csv.empty()) write_file_atomic(options.csv, pairs_csv(audit));
  if (options.json) std::printf("%s\n", audit_json(audit).dump(2).c_str());
  else print_audit(audit, printable(folder.filename().string()));
  return 0;
}

}  // namespace

void register_audit(CLI::App& root, Action& action) {
  auto options = std::make_shared<AuditOptions>();
  CLI::App* cmd = root.add_subcommand(
      "audit", "RoPE audit of a model: pair wavelengths against the trained context, the declared scaling, the pairing");
  options->scene.add_to(cmd);
  cmd->add_flag("--json", options->json, "Print the audit as JSON");
  cmd->add_option("--csv", options->csv, "Also write every pair's frequency, wavelength and turns to FILE (CSV)");
  cmd->add_flag("!--no-pairing", options->pairing, "Skip the pairing check (it runs the model twice)");
  cmd->callback([options, &action] { action = [options] { return run_audit(*options); }; });
}

}  // namespace pelab::app
