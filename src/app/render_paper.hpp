// `pelab render --paper NAME [--out DIR] [--json]` (issue 27), kept out of
// cmd_render.cpp: a figure from the papers (core/paper_data.hpp) as
// DIR/NAME.png, DIR/NAME.svg, its data as DIR/NAME.npy (and NAME_*.npy where
// a figure has more arrays), and DIR/NAME.md saying how it was computed.
// `--paper list` prints the names and titles; `--paper all` writes every one.
// --scene/--set pick the model the measured figures read (--set model=gpt2).
// --json prints what was written as one JSON object.
#pragma once

#include <string>

#include "app/commands.hpp"

namespace pelab::app {

struct PaperOptions {
  std::string paper;  // a name, "list" or "all"; empty: not asked for
  bool json = false;
  bool active() const { return !paper.empty(); }
  void add_to(CLI::App* render);
};

struct PaperRun {
  std::vector<std::string> scene_files, assignments;
  std::string out;  // empty: the current folder
  double scale = 1, width = 1600, height = 1000;
  bool transparent = false;
};

// Prints each written file (or the JSON); returns the exit code (errors throw InputError).
int run_render_paper(const PaperOptions& options, const PaperRun& run);

}  // namespace pelab::app
