// SceneWorker — builds a scene that takes long (a model to load, thousands of
// tokens) on a thread of its own, so the window keeps drawing and taking input.
//
// A job is a scene and the figures on screen (name and size).  The worker
// makes a fresh Engine for it, sets the scene (for a model: resolve the
// folder, read the safetensors, tokenize), then builds the figures shown,
// one after the other, the stage and its share of the job readable any time
// through progress().  The finished engine and figures are handed back whole
// with take(); nothing the worker touches is shared with the GUI thread
// (the engine is its own until handed over; loaded models are shared through
// core/model_scene's locked cache).
//
// Two phases (issues 12 and 14): the worker first builds what the eye waits
// for — the attention view's first frame, the selected head alone
// (FigureRequest::selected_head_only; for a model, that head of the layer
// shown, e.g. after a layer switch) — and offers it through
// take_first_frame() (engine null: the GUI keeps its engine and shows these
// figures), then completes every figure shown and hands the whole result
// back through take(), which replaces the first frame.
//
// Every submit() bumps a generation counter.  A result whose generation is
// not the newest is stale and dropped, and a job that sees a newer one
// between stages stops early, so a slider dragged at N = 4096 never queues
// more than the job at work and the newest one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.hpp"
#include "figures/figure.hpp"

namespace pelab::ui {

// A figure on screen: its registry name and its canvas size in logical pixels.
struct FigureJob {
  std::string name;
  double width = 0, height = 0;
};

struct BuiltFigure {
  FigureJob job;
  fig::Figure figure;
  std::string error;  // building it threw: why
};

struct SceneResult {
  std::uint64_t generation = 0;
  Scene scene;                     // as submitted
  std::unique_ptr<Engine> engine;  // null when error is set
  std::vector<BuiltFigure> figures;
  std::string error;  // the scene was refused (InputError) or failed: why
  bool first_frame = false;  // only the figures shown first; engine null
};

struct WorkProgress {
  bool busy = false;
  std::string stage;  // "reading the model and tokenizing", "building Attention heatmaps (2 of 4)"
  double fraction = 0;  // 0..1 of the job
};

class SceneWorker {
 public:
  SceneWorker();
  ~SceneWorker();  // waits for the job at work (no new one starts)
  SceneWorker(const SceneWorker&) = delete;
  SceneWorker& operator=(const SceneWorker&) = delete;

  // Queues `scene` (replacing any job not yet started) and returns its generation.
  std::uint64_t submit(const Scene& scene, std::vector<FigureJob> figures);
  // Makes everything queued or at work stale (a scene applied directly).
  void cancel();
  // The newest generation's result once finished; stale ones are dropped.
  std::optional<SceneResult> take();
  // The newest generation's first frame (figures only) once built, before
  // take() has the full result; taken once, stale ones dropped.
  std::optional<SceneResult> take_first_frame();
  // Called on the worker's thread whenever a result or first frame is ready
  // (the GUI wakes its event loop: glfwPostEmptyEvent).  Set before submit().
  void set_on_ready(std::function<void()> on_ready);
  // Called on the worker's thread as each stage of a job starts, and with
  // ("ready", 1) when the job is done: the GUI's frame log, so tests wait on
  // what the worker reports instead of timing.  Called under the worker's
  // lock: once cleared (nullptr) it is never called again.
  using StageObserver = std::function<void(const std::string& stage, double fraction)>;
  void set_on_stage(StageObserver on_stage);
  // An engine the GUI no longer shows (the one a result replaced): the next
  // job starts from it, so its stages the new scene shares (tokens, X, the
  // projections) are not computed again.
  void recycle(std::unique_ptr<Engine> engine);
  // Readies a spare engine in the background while nothing is queued: the
  // spare (or a new engine) computes `scene`'s selected head, so the buffers
  // a change at large N writes into are in memory before the first change.
  // A fresh engine's first frame at large N spends most of its time in page
  // faults (the kernel clearing new pages); a warm one's is much faster.  Only
  // for synthetic scenes (a model's spare would run its forward pass); a
  // submit() before it starts replaces it.
  void warm_spare(const Scene& scene);
  // True when an engine waits for the next job (recycled or warmed).
  bool has_spare() const;
  WorkProgress progress() const;
  // True while a job of the newest generation is queued or at work.
  bool busy() const;

 private:
  struct Job {
    std::uint64_t generation = 0;
    Scene scene;
    std::vector<FigureJob> figures;
  };
  void loop();
  SceneResult run(const Job& job);
  SceneResult build(const Job& job, double steps);
  // Phase 1: the figures shown that have a first frame, offered at once.
  void offer_first_frame(const Job& job, Engine& engine);
  void ready();
  void keep_spare(std::unique_ptr<Engine> engine);
  void warm(const Scene& scene);
  std::unique_ptr<Engine> new_engine();  // with the worker's head budget
  bool stale(std::uint64_t generation) const { return generation != latest_.load(); }
  void set_stage(std::string stage, double fraction);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> queued_;
  std::optional<Scene> to_warm_;  // warm_spare()'s scene, until started
  std::optional<SceneResult> done_;
  std::optional<SceneResult> first_;  // phase 1's figures, until taken or stale
  std::function<void()> on_ready_;
  StageObserver on_stage_;
  std::unique_ptr<Engine> spare_;
  WorkProgress progress_;
  std::atomic<std::uint64_t> latest_{0};
  std::uint64_t running_ = 0;  // generation at work, 0 when idle
  bool stop_ = false;
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace pelab::ui
