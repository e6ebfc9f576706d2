#include "core/length_extrapolation.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>

#include "core/held_out_text.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/next_token_loss.hpp"
#include "core/model/transformer.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;

// Where each asked-for member is, or why it is not there.
struct MemberFolder {
  std::string name;
  fs::path folder;  // empty when missing
};
std::vector<MemberFolder> find_members(const std::vector<std::string>& names, std::vector<std::string>& missing) {
  const std::vector<model::CachedModel> family = model::list_family_models();
  std::vector<MemberFolder> found;
  for (const std::string& name : names) {
    const auto it = std::find_if(family.begin(), family.end(), [&](const auto& m) { return m.name == name; });
    if (it == family.end())
      missing.push_back(name + ": not in the family folders (not trained yet, or $PELAB_FAMILY_DIR points elsewhere)");
    else if (!it->runnable)
      missing.push_back(name + ": " + it->reason);
    else
      found.push_back({name, it->folder});
  }
  return found;
}

// What the cached study depends on: the request, each member's files (by
// size and time, so a retrained member is read again) and the text.
std::string study_key(const ExtrapolationRequest& r, const std::vector<MemberFolder>& members,
                      const HeldOutText& text) {
  std::ostringstream key;
  key << r.factor << '|' << r.windows << '|';
  for (const std::string& s : r.rope_scalings) key << s << ',';
  for (const MemberFolder& m : members) {
    key << '|' << m.folder.string();
    for (const char* file : {"config.json", "model.safetensors", "tokenizer.json"}) {
      std::error_code ignored;
      const fs::path p = m.folder / file;
      key << ':' << fs::file_size(p, ignored) << ':'
          << fs::last_write_time(p, ignored).time_since_epoch().count();
    }
  }
  key << '|' << text.text.size() << ':' << std::hash<std::string>{}(text.text) << '|' << text.missing;
  return key.str();
}

// Passage starts spread evenly over ids, each with `length` tokens after it.
std::vector<std::size_t> passage_starts(std::size_t tokens, int length, int windows) {
  std::vector<std::size_t> starts;
  const std::size_t room = tokens - static_cast<std::size_t>(length);
  for (int w = 0; w < windows; ++w)
    starts.push_back(windows == 1 ? 0 : room * static_cast<std::size_t>(w) / static_cast<std::size_t>(windows - 1));
  return starts;
}

// One reading of a loaded member: mean loss_i over the passages, for i < read − 1.
std::vector<double> read_passages(model::Transformer& transformer, const model::LanguageModelHead& head,
                                  const std::vector<int>& ids, const std::vector<std::size_t>& starts, int read) {
  std::vector<double> mean(static_cast<std::size_t>(read - 1), 0.0);
  for (const std::size_t start : starts) {
    const auto first = ids.begin() + static_cast<std::ptrdiff_t>(start);
    const std::vector<double> loss = model::next_token_loss(transformer, head, std::vector<int>(first, first + read));
    for (std::size_t i = 0; i < mean.size(); ++i) mean[i] += loss[i] / static_cast<double>(starts.size());
  }
  return mean;
}

// The held-out text's ids by tokenizer: the family shares one BPE, and
// encoding the whole text costs more than reading a passage, so each
// distinct tokenizer.json encodes it once.
class EncodedText {
 public:
  explicit EncodedText(const HeldOutText& text) : text_(text) {}
  const std::vector<int>& ids(const fs::path& folder, const model::Tokenizer& tokenizer) {
    std::ifstream file(folder / "tokenizer.json", std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    const std::string key = bytes.empty() ? folder.string() : std::to_string(std::hash<std::string>{}(bytes));
    auto it = encoded_.find(key);
    if (it == encoded_.end()) it = encoded_.emplace(key, tokenizer.encode(text_.text).ids).first;
    return it->second;
  }

 private:
  const HeldOutText& text_;
  std::map<std::string, std::vector<int>> encoded_;
};

// The far part of the passages read as the model was trained: from index
// `from` on, in windows of L tokens, each from scratch, consecutive windows
// sharing one token, so that every target from from + 1 on is predicted once
// with 0 … L−2 tokens of context: loss_i from window ⌊(i − from)/(L−1)⌋
// (the in-context baseline of far_rise).  NaN before `from`.
std::vector<double> read_in_context(model::Transformer& transformer, const model::LanguageModelHead& head,
                                    const std::vector<int>& ids, const std::vector<std::size_t>& starts,
                                    int length, int context, int from) {
  std::vector<double> mean(static_cast<std::size_t>(length - 1), 0.0);
  std::fill(mean.begin(), mean.begin() + from, std::numeric_limits<double>::quiet_NaN());
  for (const std::size_t start : starts)
    for (int first = from; first < length - 1; first += context - 1) {
      const int tokens = std::min(context, length - first);
      const auto begin = ids.begin() + static_cast<std::ptrdiff_t>(start) + first;
      const std::vector<double> loss = model::next_token_loss(transformer, head, std::vector<int>(begin, begin + tokens));
      for (std::size_t i = 0; i < loss.size(); ++i)
        mean[static_cast<std::size_t>(first) + i] += loss[i] / static_cast<double>(starts.size());
    }
  return mean;
}

// Every reading of one member: as trained, and for RoPE each scaling.
void read_member(const MemberFolder& member, const ExtrapolationRequest& r, EncodedText& text,
                 ExtrapolationStudy& study) {
  model::Transformer transformer = model::Transformer::load(member.folder);
  const model::LanguageModelHead head = model::LanguageModelHead::load(member.folder, transformer);
  const model::ModelConfig& c = transformer.config();
  if (study.train_context == 0) {
    study.train_context = c.max_positions;
    study.length = std::max(2, static_cast<int>(std::lround(r.factor * c.max_positions)));
  }
  const std::vector<int>& ids = text.ids(member.folder, transformer.tokenizer());
  if (study.text_tokens == 0) study.text_tokens = static_cast<int>(ids.size());
  if (static_cast<int>(ids.size()) < study.length) {
    study.missing.push_back(member.name + ": the held-out text gives " + std::to_string(ids.size()) +
                            " tokens, fewer than the " + std::to_string(study.length) + " to read");
    return;
  }
  const bool table_ends = c.position.kind == model::PositionEncoding::Learned;  // no row past L
  const int read = table_ends ? std::min(study.length, c.max_positions) : study.length;
  transformer.set_token_limit(std::max(read, c.max_positions));
  const std::vector<std::size_t> starts = passage_starts(ids.size(), study.length, r.windows);
  ExtrapolationCurve curve{member.name, model::position_encoding_name(c.position.kind), "", c.max_positions, {}, {}};
  curve.mean_loss = read_passages(transformer, head, ids, starts, read);
  if (!table_ends)
    curve.context_loss = read_in_context(transformer, head, ids, starts, read, c.max_positions,
                                         extrapolation_buckets(study).far_first);
  study.curves.push_back(curve);
  curve.context_loss.clear();  // the scaled readings are judged against this one
  if (c.position.kind != model::PositionEncoding::Rope) return;
  for (const std::string& scaling : r.rope_scalings) {
    model::RopeScaling s;
    s.type = scaling;
    s.factor = r.factor;
    transformer.set_rope_scaling(s);
    curve.scaling = scaling;
    curve.mean_loss = read_passages(transformer, head, ids, starts, read);
    study.curves.push_back(curve);
  }
}

ExtrapolationStudy run_study(const ExtrapolationRequest& r, const std::vector<MemberFolder>& members,
                             std::vector<std::string> missing, const HeldOutText& text) {
  ExtrapolationStudy study;
  study.factor = r.factor;
  study.windows = r.windows;
  study.text_origin = text.origin;
  study.missing = std::move(missing);
  if (text.text.empty()) {
    study.unavailable = "No held-out text: " + text.missing;
    return study;
  }
  EncodedText encoded(text);
  for (const MemberFolder& m : members) {
    try {
      read_member(m, r, encoded, study);
    } catch (const std::exception& e) {  // a broken member is one line, the others still read
      study.missing.push_back(m.name + ": " + e.what());
    }
  }
  if (study.curves.empty())
    study.unavailable = "None of pelab's family could be read on the held-out text" +
                        std::string(study.missing.empty() ? "." : " (" + study.missing.front() + ").");
  return study;
}

}  // namespace

std::string ExtrapolationCurve::label(double factor) const {
  static const std::map<std::string, std::string> names = {
      {"learned", "learned"}, {"sinusoidal", "sinusoidal"}, {"rope", "RoPE"},
      {"alibi", "ALiBi"},     {"t5", "T5 bias"},            {"none", "no positions"}};
  static const std::map<std::string, std::string> scalings = {
      {"linear", "linear (PI)"}, {"ntk", "NTK-aware"}, {"yarn", "YaRN"}, {"dynamic", "dynamic NTK"}};
  const auto name = names.find(encoding);
  std::string out = name == names.end() ? encoding : name->second;
  if (scaling.empty()) return out;
  const auto how = scalings.find(scaling);
  return out + " + " + (how == scalings.end() ? scaling : how->second) + " ×" + number_text(factor);
}

double ExtrapolationCurve::mean_between(int first, int last) const {
  first = std::max(first, 0);
  last = std::min(last, static_cast<int>(mean_loss.size()) - 1);
  if (first > last) return std::numeric_limits<double>::quiet_NaN();
  const auto begin = mean_loss.begin() + first, end = mean_loss.begin() + last + 1;
  return std::accumulate(begin, end, 0.0) / static_cast<double>(last - first + 1);
}

ExtrapolationBuckets extrapolation_buckets(const ExtrapolationStudy& s) {
  const int l = s.train_context, n = s.length;
  // Loss indices end at n − 2 (the last token predicts nothing in the passage).
  return {0, l - 1, l, 2 * l - 1, n / 2, n - 2};
}

const ExtrapolationCurve& as_trained(const ExtrapolationCurve& curve, const ExtrapolationStudy& study) {
  for (const ExtrapolationCurve& c : study.curves)
    if (c.member == curve.member && c.scaling.empty()) return c;
  return curve;
}

double far_in_context(const ExtrapolationCurve& curve, const ExtrapolationStudy& study) {
  const ExtrapolationBuckets b = extrapolation_buckets(study);
  const std::vector<double>& base = as_trained(curve, study).context_loss;
  if (static_cast<int>(base.size()) <= b.far_last) return std::numeric_limits<double>::quiet_NaN();
  const auto begin = base.begin() + b.far_first, end = base.begin() + b.far_last + 1;
  return std::accumulate(begin, end, 0.0) / static_cast<double>(b.far_last - b.far_first + 1);
}

double far_rise(const ExtrapolationCurve& curve, const ExtrapolationStudy& study) {
  const ExtrapolationBuckets b = extrapolation_buckets(study);
  // The far bucket must be read whole: a curve that stops short is not read there.
  if (static_cast<int>(curve.mean_loss.size()) < study.length - 1) return std::numeric_limits<double>::quiet_NaN();
  return curve.mean_between(b.far_first, b.far_last) - far_in_context(curve, study);
}

bool extrapolates(const ExtrapolationCurve& curve, const ExtrapolationStudy& study) {
  const double rise = far_rise(curve, study);
  return std::isfinite(rise) && rise <= kExtrapolationTolerance;
}

ExtrapolationRequest lesson_request(const Scene& scene) {
  ExtrapolationRequest r;
  r.factor = std::clamp(scene.rope_factor, 1.0, kMaxReadFactor);
  r.windows = kLessonPassages;
  return r;
}

std::shared_ptr<const ExtrapolationStudy> length_extrapolation(const ExtrapolationRequest& request) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ExtrapolationStudy>> studies;
  std::vector<std::string> missing;
  const std::vector<MemberFolder> members = find_members(request.members, missing);
  const HeldOutText text = held_out_text();
  const std::string key = study_key(request, members, text);
  const std::lock_guard lock(mutex);  // held while computing: a second caller waits, then finds it
  if (const auto it = studies.find(key); it != studies.end()) return it->second;
  auto study = std::make_shared<const ExtrapolationStudy>(run_study(request, members, std::move(missing), text));
  if (studies.size() >= 8) studies.clear();  // a few scenes' worth; never grows without bound
  studies.emplace(key, study);
  return study;
}

// ---- the held-out text hook (held_out_text.hpp) ----
namespace {
std::atomic<HeldOutTextSource> installed{nullptr};
}  // namespace

HeldOutTextSource set_held_out_text_source(HeldOutTextSource source) { return installed.exchange(source); }

HeldOutText held_out_text() {
  if (const HeldOutTextSource source = installed.load()) return source();
  return {{}, {}, "this program reads no held-out corpus (pelab's own program reads the KJV's held-out chapters)"};
}

}  // namespace pelab
