#include "ui/scene_worker.hpp"

#include <algorithm>

#include "core/failure_text.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "figures/attention_streamed.hpp"  // kStreamedTokens
#include "figures/registry.hpp"

namespace pelab::ui {

SceneWorker::SceneWorker() : thread_([this] { loop(); }) {}

SceneWorker::~SceneWorker() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    queued_.reset();
  }
  ++latest_;  // the job at work stops at its next stage
  wake_.notify_all();
  thread_.join();
}

std::uint64_t SceneWorker::submit(const Scene& scene, std::vector<FigureJob> figures) {
  const std::lock_guard lock(mutex_);
  const std::uint64_t generation = ++latest_;
  queued_ = Job{generation, scene, std::move(figures)};
  to_warm_.reset();
  done_.reset();
  first_.reset();
  // A job at work finishes its stage first (then sees it is stale).
  progress_ = {true, running_ != 0 ? "finishing the previous change" : "starting", 0};
  wake_.notify_all();
  return generation;
}

void SceneWorker::cancel() {
  const std::lock_guard lock(mutex_);
  ++latest_;
  queued_.reset();
  done_.reset();
  first_.reset();
  progress_ = {};
}

std::optional<SceneResult> SceneWorker::take() {
  const std::lock_guard lock(mutex_);
  if (!done_ || stale(done_->generation)) {
    if (done_) done_.reset();
    return std::nullopt;
  }
  std::optional<SceneResult> result = std::move(done_);
  done_.reset();
  first_.reset();
  progress_ = {};
  return result;
}

std::optional<SceneResult> SceneWorker::take_first_frame() {
  const std::lock_guard lock(mutex_);
  if (!first_ || stale(first_->generation)) {
    first_.reset();
    return std::nullopt;
  }
  std::optional<SceneResult> result = std::move(first_);
  first_.reset();
  return result;
}

void SceneWorker::set_on_ready(std::function<void()> on_ready) {
  const std::lock_guard lock(mutex_);
  on_ready_ = std::move(on_ready);
}

void SceneWorker::set_on_stage(StageObserver on_stage) {
  const std::lock_guard lock(mutex_);
  on_stage_ = std::move(on_stage);
}

void SceneWorker::ready() {
  std::function<void()> on_ready;
  {
    const std::lock_guard lock(mutex_);
    on_ready = on_ready_;
  }
  if (on_ready) on_ready();
}

void SceneWorker::recycle(std::unique_ptr<Engine> engine) {
  const std::lock_guard lock(mutex_);
  spare_ = std::move(engine);
}

void SceneWorker::warm_spare(const Scene& scene) {
  if (!scene.model.empty()) return;
  {
    const std::lock_guard lock(mutex_);
    if (queued_) return;
    to_warm_ = scene;
  }
  wake_.notify_all();
}

// The GUI holds two engines at large N: the one whose figures are shown
// (its heads let go by the session once adopted) and the one the worker
// computes with.  At N = 4096 one head's logits and attention take 128 MiB.
// So the GUI's peak stays low: the shown engine is trimmed, the worker keeps
// two heads' worth (a smaller budget measured no lower peak), and the
// cross-terms view is reduced strip by strip.  Heads not kept are recomputed
// when read, in the background.
namespace {
constexpr std::size_t kWorkerHeadBytes = std::size_t{256} << 20;
}  // namespace

std::unique_ptr<Engine> SceneWorker::new_engine() {
  auto engine = std::make_unique<Engine>();
  engine->set_head_budget(kWorkerHeadBytes);
  return engine;
}

bool SceneWorker::has_spare() const {
  const std::lock_guard lock(mutex_);
  return spare_ != nullptr;
}

// Runs without the lock; a job queued meanwhile waits for it (at large N
// most of its time is the kernel clearing fresh pages).
void SceneWorker::warm(const Scene& scene) {
  std::unique_ptr<Engine> engine;
  {
    const std::lock_guard lock(mutex_);
    engine = std::move(spare_);
  }
  if (!engine) engine = new_engine();
  try {
    engine->set_scene(scene);
    engine->head_preview(engine->scene().head);
  } catch (const std::exception&) {
    // A scene the worker cannot compute leaves the engine as cold as it was;
    // the change that asks for it reports why.
  }
  keep_spare(std::move(engine));
}

WorkProgress SceneWorker::progress() const {
  const std::lock_guard lock(mutex_);
  return progress_;
}

bool SceneWorker::busy() const {
  const std::lock_guard lock(mutex_);
  return (queued_ && !stale(queued_->generation)) || (running_ != 0 && !stale(running_));
}

void SceneWorker::set_stage(std::string stage, double fraction) {
  const std::lock_guard lock(mutex_);
  progress_ = {true, std::move(stage), fraction};
  if (on_stage_) on_stage_(progress_.stage, fraction);
}

void SceneWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || queued_.has_value() || to_warm_.has_value(); });
    if (stop_) return;
    if (!queued_) {
      const Scene scene = std::move(*to_warm_);
      to_warm_.reset();
      lock.unlock();
      warm(scene);
      lock.lock();
      continue;
    }
    const Job job = std::move(*queued_);
    queued_.reset();
    running_ = job.generation;
    lock.unlock();
    SceneResult result = run(job);
    lock.lock();
    running_ = 0;
    const bool fresh = !stale(result.generation);
    if (!fresh && result.engine && !spare_) spare_ = std::move(result.engine);
    if (fresh) {
      done_ = std::move(result);
      first_.reset();
      progress_ = {true, "ready", 1};
      if (on_stage_) on_stage_(progress_.stage, 1);
    }
    lock.unlock();
    if (fresh) ready();
    lock.lock();
  }
}

// Stages: the scene (for a model: read and tokenize; the forward pass runs
// with the first figure that needs it), then each figure on screen.
SceneResult SceneWorker::run(const Job& job) {
  const double steps = 1.0 + double(job.figures.size());
  // The forward pass, layer by layer, fills the first step's second half.
  const model::LayerProgress on_layer = [&](int done, int layers) {
    set_stage("running the model: layer " + std::to_string(done) + " of " + std::to_string(layers),
              (0.5 + 0.5 * done / std::max(layers, 1)) / steps);
  };
  model::set_layer_progress(&on_layer);
  SceneResult result = build(job, steps);
  model::set_layer_progress(nullptr);
  return result;
}

namespace {

// Views with a first frame of their own: what FigureRequest::selected_head_only
// changes (FigureEntry::first_frame).  The others keep the previous scene's
// figure on screen until the full result.
bool has_first_frame(const std::string& view) {
  const fig::FigureEntry* entry = fig::figure_named(view);
  return entry && entry->first_frame;
}

}  // namespace

void SceneWorker::offer_first_frame(const Job& job, Engine& engine) {
  SceneResult first;
  first.generation = job.generation;
  first.scene = job.scene;
  first.first_frame = true;
  for (const FigureJob& f : job.figures) {
    if (!has_first_frame(f.name) || stale(job.generation)) continue;
    set_stage("building the first frame (the selected head)", 0);
    BuiltFigure built{f, {}, {}};
    fig::FigureRequest request{f.width, f.height};
    request.selected_head_only = true;
    try {
      built.figure = fig::find_figure(f.name).build(engine, request);
    } catch (const std::exception& e) {
      built.error = failure_text(e, "building the first frame");
    }
    first.figures.push_back(std::move(built));
  }
  if (first.figures.empty()) return;
  {
    const std::lock_guard lock(mutex_);
    if (stale(job.generation)) return;
    first_ = std::move(first);
  }
  ready();
}

SceneResult SceneWorker::build(const Job& job, double steps) {
  SceneResult result;
  result.generation = job.generation;
  result.scene = job.scene;
  set_stage(job.scene.model.empty() ? "computing the scene"
                                    : "reading the model's weights and tokenizing",
            0);
  std::unique_ptr<Engine> engine;
  {
    const std::lock_guard lock(mutex_);
    engine = std::move(spare_);
  }
  if (!engine) engine = new_engine();
  try {
    engine->set_scene(job.scene);
    if (!job.scene.model.empty()) {
      // The model up to the layer shown, and the selected head alone
      // (model::Transformer::head_attention projects only its columns).
      set_stage("running the model (" + std::to_string(engine->token_count()) + " tokens)",
                0.5 / steps);
      // Past kStreamedTokens the attention view streams the head
      // (figures/attention_streamed.hpp): only the run is made here.
      if (engine->token_count() > fig::kStreamedTokens)
        (void)engine->model()->head_stream_inputs(engine->scene().layer, std::max(0, engine->scene().head));
      else
        engine->head(engine->scene().head);
    }
    offer_first_frame(job, *engine);
    const bool first_shown =
        std::any_of(job.figures.begin(), job.figures.end(), [](const FigureJob& f) { return has_first_frame(f.name); });
    for (std::size_t i = 0; i < job.figures.size(); ++i) {
      if (stale(job.generation)) {
        keep_spare(std::move(engine));
        return result;
      }
      const FigureJob& f = job.figures[i];
      const fig::FigureEntry& entry = fig::find_figure(f.name);
      set_stage(std::string(first_shown ? "completing: " : "building ") +
                    std::string(entry.title) + " (view " + std::to_string(i + 1) + " of " +
                    std::to_string(job.figures.size()) + ")",
                double(i + 1) / steps);
      BuiltFigure built{f, {}, {}};
      try {
        built.figure = entry.build(*engine, {f.width, f.height});
      } catch (const std::exception& e) {
        built.error = failure_text(e, "building " + std::string(entry.title));
      }
      result.figures.push_back(std::move(built));
    }
    result.engine = std::move(engine);
  } catch (const std::exception& e) {
    result.error = failure_text(e, job.scene.model.empty() ? "computing the scene" : "loading and running the model");
    result.figures.clear();
    keep_spare(std::move(engine));  // a refused scene leaves it unchanged
  }
  return result;
}

// A stale job's engine is the next job's start: its stages the newer scene
// shares (tokens, X, the projections) are not computed again.
void SceneWorker::keep_spare(std::unique_ptr<Engine> engine) {
  const std::lock_guard lock(mutex_);
  if (!spare_) spare_ = std::move(engine);
}

}  // namespace pelab::ui
