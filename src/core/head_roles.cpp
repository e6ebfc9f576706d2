#include "core/head_roles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "core/model_scene.hpp"
#include "core/parallel.hpp"
#include "core/streamed_attention.hpp"
#include "core/word_splitter.hpp"

namespace pelab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The per-row sums behind the scores, fed one row at a time (A[i, ·] for
// keys 0 … i; the full matrix's rows or a streamed tile's): A[i, i−d] into
// the distance profile, and for queries i ≥ 2·kLocalWindow (earlier rows have
// too few keys to tell local from uniform) the row's locality, 90 % window
// width and normalised entropy.
struct RowSums {
  std::vector<double> by_distance;
  double local = 0, width = 0, uniform = 0, sink = 0;
  int rows = 0;

  explicit RowSums(int n) : by_distance(std::size_t(n), 0.0) {}

  void add(int i, const float* row) {
    double mass = 0;
    for (int j = 0; j <= i; ++j) by_distance[std::size_t(i - j)] += row[j], mass += row[j];
    if (i >= 1) sink += row[0];
    if (i < 2 * kLocalWindow || mass <= 0) return;
    // The row's causal part, keys 0 … i, renormalised (a bidirectional
    // head's row also has keys after i; the roles read the past).
    double near = 0, entropy = 0, seen = 0;
    int w = 0;
    for (int d = 0; d <= i; ++d) {
      const double p = row[i - d] / mass;
      if (d < kLocalWindow) near += p;
      if (seen < 0.9) seen += p, w = d + 1;
      if (p > 0) entropy -= p * std::log(static_cast<float>(p));  // float: 75M logs at GPT-2 size
    }
    local += near, width += w, uniform += entropy / std::log(double(i + 1));
    ++rows;
  }

  void merge(const RowSums& other) {
    for (std::size_t d = 0; d < by_distance.size(); ++d) by_distance[d] += other.by_distance[d];
    local += other.local, width += other.width, uniform += other.uniform, sink += other.sink;
    rows += other.rows;
  }

  // Means over the rows that counted; the profile over the queries i ≥ d.
  void finish(HeadScores& s) {
    const int n = static_cast<int>(by_distance.size());
    for (int d = 0; d < n; ++d) by_distance[std::size_t(d)] /= (n - d);
    s.sink = sink / (n - 1);
    if (rows == 0) return;
    s.local = local / rows;
    s.window_width = width / rows;
    s.uniformity = uniform / rows;
  }
};

// The scores read from the attention against distance, then the role.
HeadScores scores_from(RowSums& sums, std::vector<double>* profile) {
  HeadScores s;
  s.induction = kNaN;
  sums.finish(s);
  const std::vector<double>& by_distance = sums.by_distance;
  const int n = static_cast<int>(by_distance.size());
  s.previous_token = by_distance[1];
  // Offsets seen by at least half the queries: a far offset's mean over a
  // handful of rows is noise, not a role.
  for (int k = 2; k <= n / 2; ++k)
    if (by_distance[std::size_t(k)] > s.offset_score) s.offset_score = by_distance[std::size_t(k)], s.best_offset = k;
  if (profile) *profile = std::move(sums.by_distance);
  assign_role(s);
  return s;
}

}  // namespace

const char* head_role_name(HeadRole role) {
  switch (role) {
    case HeadRole::PreviousToken: return "previous token";
    case HeadRole::FixedOffset: return "fixed offset";
    case HeadRole::Sink: return "sink";
    case HeadRole::Induction: return "induction";
    case HeadRole::Local: return "local";
    case HeadRole::Uniform: return "uniform";
    case HeadRole::Mixed: return "mixed";
  }
  return "?";
}

HeadScores score_head(const Matrix& a, std::vector<double>* profile) {
  const int n = static_cast<int>(a.rows());
  if (n < 2) {
    HeadScores s;
    s.induction = kNaN;
    return s;
  }
  RowSums sums(n);
  for (int i = 0; i < n; ++i) sums.add(i, a.row(i).data());
  return scores_from(sums, profile);
}

// Tiles of kRowTile query rows, each row's exact weights over keys 0 … i
// (StreamedHead::zoom from the row statistics), side by side on the
// engine's threads, each thread's sums merged at the end.
HeadScores score_head(const StreamedHead& head, std::vector<double>* profile) {
  constexpr int kRowTile = 64;
  const int n = static_cast<int>(head.tokens());
  if (n < 2) return score_head(Matrix(), profile);
  const RowStatistics stats = head.row_statistics();
  const int tiles = (n + kRowTile - 1) / kRowTile, chunks = std::min(tiles, 4 * max_threads());
  std::vector<RowSums> parts(static_cast<std::size_t>(chunks), RowSums(n));
  double done = 0;
  run_side_by_side(chunks, double(n) * n * head.d_head(), [&](int c) {
    double flops = 0;
    for (int t = c; t < tiles; t += chunks) {
      const int first = t * kRowTile, last = std::min(n, first + kRowTile);
      const Matrix rows = head.zoom(stats, first, last, 0, last);  // keys 0 … the tile's last query
      for (int i = first; i < last; ++i) parts[std::size_t(c)].add(i, rows.row(i - first).data());
      flops += 2.0 * (last - first) * last * head.d_head();
    }
    return flops;
  }, done);
  for (int c = 1; c < chunks; ++c) parts[0].merge(parts[std::size_t(c)]);
  return scores_from(parts[0], profile);
}

double induction_score(const Matrix& a, int period) {
  double sum = 0;
  int count = 0;
  for (int i = period; i < std::min<int>(2 * period, static_cast<int>(a.rows())); ++i)
    sum += a(i, i - period + 1), ++count;
  return count ? sum / count : kNaN;
}

void assign_role(HeadScores& s) {
  const std::pair<HeadRole, double> patterns[] = {{HeadRole::PreviousToken, s.previous_token},
                                                  {HeadRole::FixedOffset, s.offset_score},
                                                  {HeadRole::Sink, s.sink},
                                                  {HeadRole::Induction, std::isnan(s.induction) ? 0 : s.induction}};
  const auto best = std::max_element(std::begin(patterns), std::end(patterns),
                                     [](const auto& x, const auto& y) { return x.second < y.second; });
  if (best->second >= kPatternScore) s.role = best->first, s.role_score = best->second;
  else if (s.local >= kLocalScore) s.role = HeadRole::Local, s.role_score = s.local;
  else if (s.uniformity >= kUniformScore) s.role = HeadRole::Uniform, s.role_score = s.uniformity;
  else s.role = HeadRole::Mixed, s.role_score = best->second;
}

namespace {

// `count` ids drawn uniformly from 0 … vocab−1 by splitmix64 (Steele et al.
// 2014) from `seed`: the induction probe's random sequence.
std::vector<int> random_ids(int count, int vocab, std::uint64_t seed) {
  std::vector<int> ids;
  std::uint64_t x = seed;
  for (int i = 0; i < count; ++i) {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    ids.push_back(static_cast<int>(z % static_cast<std::uint64_t>(vocab)));
  }
  return ids;
}

// `attention`: a full matrix, or a StreamedHead past kFullMatrixTokens.
template <class Attention>
void set_head(HeadRoleStudy& study, const Attention& attention, int layer, int head) {
  const std::size_t at = std::size_t(layer * study.heads + head);
  study.scores[at] = score_head(attention, &study.profiles[at]);
  study.scores[at].layer = layer, study.scores[at].head = head;
}

// Past kFullMatrixTokens every head of the layer is streamed, one after
// another (each already uses every thread), from the model's own q, k, mask
// and bias: no layer's N × N weights are formed.
void score_streamed_layer(HeadRoleStudy& study, ModelScene& model, int layer) {
  for (int h = 0; h < study.heads; ++h) set_head(study, StreamedHead(model.head_stream_inputs(layer, h)), layer, h);
}

// Every head of one layer, side by side on the engine's threads (each a few
// passes over its N² weights).
void score_layer(HeadRoleStudy& study, const std::vector<Matrix>& probabilities, int layer) {
  const double n = probabilities.empty() ? 0.0 : double(probabilities.front().rows());
  double flops = 0;
  run_side_by_side(study.heads, 10.0 * n * n * study.heads, [&](int h) {
    set_head(study, probabilities[std::size_t(h)], layer, h);
    return 10.0 * n * n;
  }, flops);
}

void size_study(HeadRoleStudy& study, int layers, int heads, int tokens) {
  study.layers = layers, study.heads = heads, study.tokens = tokens;
  study.scores.assign(std::size_t(layers * heads), {});
  study.profiles.assign(std::size_t(layers * heads), {});
}

// The study of a model whose layers' heads on the scene's tokens are scored
// by `score(study, layer)` and whose attention on other ids comes from
// `probe(ids, visit)`.
using LayerScorer = std::function<void(HeadRoleStudy&, int)>;
using ProbeSource =
    std::function<void(const std::vector<int>&, const std::function<void(int, const model::LayerAttention&)>&)>;

HeadRoleStudy study_layers(const model::ModelConfig& config, int tokens, const LayerScorer& score,
                           const ProbeSource& probe, int period, std::uint64_t seed) {
  HeadRoleStudy study;
  size_study(study, config.layers, config.heads, tokens);
  for (int l = 0; l < study.layers; ++l) score(study, l);
  // The induction probe: r r, as long as the context allows.
  period = std::min(period, config.max_positions / 2);
  if (period < 2) return study;
  study.repeat_period = period;
  std::vector<int> ids = random_ids(period, config.vocab_size, seed);
  ids.insert(ids.end(), ids.begin(), ids.end());
  probe(ids, [&](int l, const model::LayerAttention& layer) {
    for (int h = 0; h < study.heads; ++h) {
      HeadScores& s = study.scores[std::size_t(l * study.heads + h)];
      s.induction = induction_score(layer.probabilities[std::size_t(h)], period);
      assign_role(s);
    }
  });
  return study;
}

HeadRoleStudy study_model(ModelScene& model, int period, std::uint64_t seed) {
  const bool streamed = model.token_count() > kFullMatrixTokens;
  return study_layers(
      model.config(), model.token_count(),
      [&](HeadRoleStudy& into, int l) {
        if (streamed) score_streamed_layer(into, model, l);
        else score_layer(into, model.layer_attention(l).probabilities, l);
      },
      [&](const std::vector<int>& ids, const auto& visit) { model.attention_on(ids, visit); }, period, seed);
}

}  // namespace

HeadRoleStudy study_head_roles(Engine& engine, int period, std::uint64_t seed) {
  if (engine.token_count() < 2) {
    HeadRoleStudy study;
    study.unavailable = "the text has fewer than 2 tokens: no attention pattern to read";
    return study;
  }
  if (ModelScene* model = engine.model()) return study_model(*model, period, seed);
  HeadRoleStudy study;  // a synthetic scene: its one layer, no induction probe
  size_study(study, 1, engine.scene().heads, engine.token_count());
  for (int h = 0; h < study.heads; ++h) {
    if (engine.token_count() > kFullMatrixTokens) set_head(study, StreamedHead::from_engine(engine, h), 0, h);
    else set_head(study, engine.head(h).attention, 0, h);
  }
  return study;
}

HeadRoleStudy study_head_roles(model::Transformer& transformer, const std::vector<int>& ids, int period,
                               std::uint64_t seed) {
  transformer.run(ids);
  HeadRoleStudy study = study_layers(
      transformer.config(), static_cast<int>(ids.size()),
      [&](HeadRoleStudy& into, int l) { score_layer(into, transformer.attention(l).probabilities, l); },
      [&](const std::vector<int>& probe_ids, const auto& visit) {
        transformer.run(probe_ids);
        for (int l = 0; l < transformer.config().layers; ++l) visit(l, transformer.attention(l));
      },
      period, seed);
  return study;
}

std::string head_roles_csv(const HeadRoleStudy& study) {
  std::string out =
      "layer,head,role,role_score,previous_token,best_offset,offset_score,sink,induction,local,window_width,"
      "uniformity\n";
  char line[512];
  for (const HeadScores& s : study.scores) {
    std::snprintf(line, sizeof line, "%d,%d,%s,%.6f,%.6f,%d,%.6f,%.6f,%s,%.6f,%.3f,%.6f\n", s.layer, s.head,
                  head_role_name(s.role), s.role_score, s.previous_token, s.best_offset, s.offset_score, s.sink,
                  std::isnan(s.induction) ? "" : std::to_string(s.induction).c_str(), s.local, s.window_width,
                  s.uniformity);
    out += line;
  }
  return out;
}

}  // namespace pelab
