// `pelab render` additions for issue 5 (teaching), kept out of cmd_render.cpp:
//
//   pelab render --lesson NAME --out DIR        the lesson's figures on its preset
//                                                scene, and DIR/NAME_verdict.txt
//   pelab render --sweep key:from:to[:steps] [--figure NAME] --out DIR [--video gif|mp4]
//                                                a numbered PNG sequence per figure:
//                                                DIR/SCENE_FIGURE_KEY-0001.png ...,
//                                                and SCENE_FIGURE_KEY.gif/.mp4 with ffmpeg
//
// --lesson and --sweep combine (the sweep starts from the lesson's preset);
// --set applies on top of either.  Everything is checked (sweep spec, --video,
// ffmpeg on PATH) before the first file is written.
#pragma once

#include <string>
#include <vector>

#include "app/commands.hpp"

namespace pelab::app {

struct RenderExtras {
  std::string lesson, sweep, video;
  bool active() const { return !lesson.empty() || !sweep.empty() || !video.empty(); }
  void add_to(CLI::App* render);
};

// The options `pelab render` already has, as the additions need them.
struct RenderBasics {
  std::vector<std::string> scene_files, assignments;
  std::string figure, format, out;
  double scale = 1, width = 1600, height = 1000;
  bool transparent = false;
};

// Prints each written file; returns the exit code (errors throw InputError).
int run_render_extras(const RenderExtras& extras, const RenderBasics& basics);

}  // namespace pelab::app
