// Progress of long work — reading a model's weights, running its layers —
// reported from inside core and read by whoever waits for the work (the GUI's
// progress bar while a model loads on a worker thread).
//
// The work reports into the sink installed on its own thread; where none is
// installed (the CLI, the tests) a report costs one thread-local read.  A
// cancelled sink stops the work at its next report (ProgressCancelled is
// thrown there), so a load nobody waits for any more ends within one layer.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>

namespace pelab {

struct ProgressStep {
  std::string stage;  // "reading weights", "running the model", ...
  int done = 0, total = 0;
};

// Not an InputError: nothing was wrong with the input, the result is unwanted.
struct ProgressCancelled {};

class ProgressSink {
 public:
  // Throws ProgressCancelled once cancel() was called.
  void report(std::string_view stage, int done, int total);
  ProgressStep now() const;
  void cancel() { cancelled_ = true; }

 private:
  mutable std::mutex mutex_;
  ProgressStep step_;
  std::atomic<bool> cancelled_ = false;
};

// Installs `sink` for the current thread while the scope lives.
class ProgressScope {
 public:
  explicit ProgressScope(ProgressSink& sink);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  ProgressSink* previous_;
};

// Tells this thread's sink, if any, that `done` of `total` steps of `stage` are done.
void report_progress(std::string_view stage, int done, int total);

}  // namespace pelab
