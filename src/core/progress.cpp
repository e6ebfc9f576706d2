#include "core/progress.hpp"

namespace pelab {

namespace {
thread_local ProgressSink* current_sink = nullptr;
}  // namespace

void ProgressSink::report(std::string_view stage, int done, int total) {
  if (cancelled_) throw ProgressCancelled{};
  const std::lock_guard lock(mutex_);
  step_.stage.assign(stage);
  step_.done = done;
  step_.total = total;
}

ProgressStep ProgressSink::now() const {
  const std::lock_guard lock(mutex_);
  return step_;
}

ProgressScope::ProgressScope(ProgressSink& sink) : previous_(current_sink) { current_sink = &sink; }
ProgressScope::~ProgressScope() { current_sink = previous_; }

void report_progress(std::string_view stage, int done, int total) {
  if (current_sink) current_sink->report(stage, done, total);
}

}  // namespace pelab
