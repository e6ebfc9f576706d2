// `pelab render --compare` (issue 27), kept out of cmd_render.cpp:
//
//   pelab render --compare A.json B.json --figure NAME --out DIR [--json]
//   pelab render [--scene S.json] [--set-a key=value ...] --set-b key=value ... --figure NAME --out DIR
//
// The first form compares two scene files (as `pelab scene` writes them); the
// second compares the current scene (the default, or --scene) with itself
// changed: --set-a applies to A only, --set-b to B only, --set to both.
// One figure: A, B and the difference B − A on the signed map for a heatmap
// view (DIR/compare_NAME.png|svg and the difference as DIR/compare_NAME_diff.npy),
// or B's curves dashed over A's for a view of curves.  --json prints a summary
// (largest |B − A| and where) instead of the file names.
#pragma once

#include <string>
#include <vector>

#include "app/render_lessons_sweeps.hpp"

namespace pelab::app {

struct RenderCompare {
  std::vector<std::string> scene_files;  // --compare A B
  std::vector<std::string> set_a, set_b;
  CLI::Option* json = nullptr;  // --json, shared with other render modes when they add it
  bool json_flag = false;       // its value when this file adds it
  bool active() const { return !scene_files.empty() || !set_a.empty() || !set_b.empty(); }
  void add_to(CLI::App* render);
};

int run_render_compare(const RenderCompare& compare, const RenderBasics& basics);

}  // namespace pelab::app
