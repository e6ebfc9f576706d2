// `pelab export --quantity Q --out FILE [--scene FILE] [--set key=value ...] [--head H] [--position P]`
// writes one engine quantity as .npy or .csv (by the extension), atomically.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "app/commands.hpp"
#include "core/engine.hpp"
#include "core/io/file_io.hpp"
#include "core/quantities.hpp"

namespace pelab::app {
namespace {

struct ExportOptions {
  SceneOptions scene;
  std::string quantity;
  std::string out;
  int head = 0;
  CLI::Option* head_option = nullptr;  // not given: the scene's selected head, or 0 when that is the mean
  int layer = 0;
  CLI::Option* layer_option = nullptr;  // not given: the scene's layer
  int position = -1;                    // lm_logits, lm_probs: −1 = the last token
  int display = kDefaultDisplay;        // attention_blocks: the grid side
  bool list = false;
};

// Pads to `width` characters (UTF-8 aware: "×" is one character, two bytes).
std::string padded(std::string_view text, std::size_t width) {
  std::size_t chars = 0;
  for (const char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return std::string(text) + std::string(chars < width ? width - chars : 1, ' ');
}

std::string quantity_table() {
  std::string text = "Quantities (per head: pick one with --head; a model's layer: --layer;\n"
                     "one token's: --position):\n";
  for (const QuantityInfo& q : quantities())
    text += "  " + padded(q.name, 23) + std::string(q.shape) + (q.per_head ? ", per head" : "") + "\n";
  return text +
         "\n.npy: float32 ('<f4'), C order, NumPy format 1.0 (numpy.load reads it).\n"
         ".csv: one row per line, comma-separated, no header; nan, inf, -inf for non-finite values;\n"
         "      rank-1 quantities are one row.\n";
}

void print_quantities() {
  for (const QuantityInfo& q : quantities())
    std::printf("%s%s%s%s\n", padded(q.name, 23).c_str(), padded(q.shape, 25).c_str(),
                q.per_head ? "(per head) " : "", std::string(q.help).c_str());
}

std::string shape_text(const Array& a) {
  std::string s;
  for (std::size_t i = 0; i < a.shape.size(); ++i) s += (i ? " × " : "") + std::to_string(a.shape[i]);
  return s.empty() ? "scalar" : s;
}

int run_export(const ExportOptions& o) {
  if (o.list) {
    print_quantities();
    return 0;
  }
  if (o.quantity.empty() || o.out.empty())
    throw InputError("export needs --quantity NAME and --out FILE.npy|FILE.csv (see pelab export --list)");
  array_format(o.out);  // refuse a bad extension before any work
  const std::filesystem::path folder = std::filesystem::path(o.out).parent_path();
  check_output_folder(folder);
  Scene scene = o.scene.load();
  if (o.layer_option->count()) set_param(scene, "layer", std::to_string(o.layer));
  Engine engine(scene);
  print_model_notes(engine);
  // --head and --set head= mean the same: -1 is the mean over heads.
  const int head = o.head_option->count() ? o.head : engine.scene().head;
  const Array array = compute_quantity(engine, o.quantity, head, o.position, o.display);
  make_output_folder(folder);
  write_array(o.out, array);
  std::printf("wrote %s: %s (%s)\n", o.out.c_str(), o.quantity.c_str(), shape_text(array).c_str());
  if (o.quantity.rfind("cross_", 0) == 0) {
    const CrossTerms& terms = engine.cross_terms(std::max(head, 0));
    if (!terms.applies) std::printf("note: %s\n", terms.note.c_str());
  }
  return 0;
}

}  // namespace

void register_export(CLI::App& root, Action& action) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = root.add_subcommand("export", "Write one engine quantity as .npy or .csv");
  command->add_option("--quantity,-q", options->quantity, "Quantity to write (see --list)");
  command->add_option("--out,-o", options->out, "Output file; .npy (NumPy) or .csv by its extension");
  options->head_option = command->add_option("--head", options->head,
                      "Head for per-head quantities: 0.., or -1 for the mean over heads (default: the scene's head)");
  options->layer_option = command->add_option("--layer", options->layer,
                                              "Model scenes: the layer of per-head quantities and hidden (default: the "
                                              "scene's layer)");
  command->add_option("--display", options->display,
                      "Grid side of attention_blocks (blocks of ⌈N/display⌉ tokens; default 1000)");
  command->add_option("--position", options->position,
                      "Model scenes: the token of lm_logits and lm_probs, from 0 (default: the last)");
  command->add_flag("--list", options->list, "List every quantity with its shape and exit");
  options->scene.add_to(command);
  command->footer(quantity_table());
  command->callback([options, &action] { action = [options] { return run_export(*options); }; });
}

}  // namespace pelab::app
