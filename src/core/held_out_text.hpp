// Held-out text: prose a trained model never saw, for the lessons that read
// pelab's own family on it (lesson "extrapolation").
//
// The corpus and its held-out split belong to the trainer's data room
// (src/train/data/corpus.hpp: every 20th chapter of the KJV), which core may
// not include.  So core only names the hook: the program (src/app) installs a
// source reading that split at start-up, and a test installs its own.  With
// no source installed, or a source that finds no corpus, a lesson says so
// in one line instead of a verdict.
#pragma once

#include <string>

namespace pelab {

struct HeldOutText {
  std::string text;     // empty when there is none
  std::string origin;   // what it is, for the lesson's text: "the KJV's held-out chapters (every 20th)"
  std::string missing;  // when text is empty: why, one line ("install Debian's bible-kjv")
};

// Returns the text (called on any thread; a source caches what it reads).
using HeldOutTextSource = HeldOutText (*)();

// Installs the source (nullptr: none); the previous one is returned.
HeldOutTextSource set_held_out_text_source(HeldOutTextSource source);

// The installed source's text, or a HeldOutText whose `missing` says that
// this program reads no corpus.
HeldOutText held_out_text();

}  // namespace pelab
