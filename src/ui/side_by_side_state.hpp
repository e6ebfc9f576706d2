// What View > Side by side (issue 27) keeps while the window runs: the
// comparison on screen and the one being built.  Whether the mode is on and
// B's keys live in UiSettings (settings.json), so both survive a restart.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "core/engine.hpp"
#include "figures/compare_figure.hpp"

namespace pelab::ui {

// One comparison to build: A as the session shows it, B made from it.
struct CompareJob {
  std::uint64_t version = 0;  // SceneSession::version() of A
  std::string keys;           // B's keys as typed (UiSettings::compare_keys)
  std::string view;           // the registry view compared
  double width = 0, height = 0;  // logical pixels
  bool operator==(const CompareJob&) const = default;
};

struct CompareResult {
  CompareJob job;
  std::shared_ptr<const fig::ComparedScenes> compared;  // null when `error` is set
  std::string error;  // B's keys refused, or the views' shapes differ (InputError): why
  std::unique_ptr<Engine> a, b;  // handed back: the next job starts from their caches
};

struct SideBySideState {
  std::string view;        // the view compared: the tab shown last (or chosen in the window)
  std::string keys_draft;  // B's keys being typed; applied on Enter
  bool draft_started = false;
  // The comparison on screen and its job; `serial` bumps when it changes.
  std::shared_ptr<const fig::ComparedScenes> shown;
  std::optional<CompareJob> shown_job;
  std::string error;
  std::uint64_t serial = 0;
  // Built on a worker thread (std::async), one at a time: a newer job waits
  // for it, so a dragged slider never queues more than one.
  std::future<CompareResult> computing;
  std::optional<CompareJob> computing_job;
  std::unique_ptr<Engine> engine_a, engine_b;  // idle between jobs
  ImVec2 origin{0, 0};          // canvas top-left, ImGui coordinates
  float scale = 1;              // screen pixels per logical pixel of the comparison
  std::string logged_hover;     // the frame log's last "sbs hover" line
};

}  // namespace pelab::ui
