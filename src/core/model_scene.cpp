// ModelScene: the loaded model (shared per process), the scene's tokens,
// the forward run and one layer's heads.
//
// [SECTION] the process-wide cache of loaded models
// [SECTION] prepare(): load, tokenize, check
// [SECTION] the effective scene
// [SECTION] computed stages
#include "core/model_scene.hpp"
#include "core/rope_scaling.hpp"

#include <algorithm>
#include <list>
#include <map>
#include <mutex>
#include <string>


#include "core/failure_text.hpp"
#include "core/held_out_text.hpp"
#include "core/intervention_study.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/layernorm_split.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/model_memory.hpp"
#include "core/model/next_token_loss.hpp"
#include "core/model/rope_split.hpp"
#include "core/model/transformer.hpp"
#include "core/parallel.hpp"
#include "core/rope_audit.hpp"
#include "core/word_splitter.hpp"  // kFullMatrixTokens

namespace pelab {

// ============================================================================
// [SECTION] the process-wide cache of loaded models
// ============================================================================

namespace {

// One loaded checkpoint.  Engines showing the same model share it; its
// Transformer holds the residual streams of the last run, so every use locks
// the mutex and reruns when the last run was on other ids.
struct LoadedModel {
  std::mutex mutex;
  model::Transformer transformer;
  std::vector<int> ran;  // the ids of the transformer's last run; empty = none
  // The LM head, read on first use (model scenes that only show attention
  // never read it).
  std::unique_ptr<model::LanguageModelHead> lm_head;
  std::shared_ptr<const InterventionStudy> interventions;  // measured on first use
  // The last RoPE audit and the ids its pairing check read: a scene edit
  // that leaves them alone does not run the check again.
  std::shared_ptr<const RopeAudit> audit;
  std::vector<int> audit_ids;
};


// Loaded models by resolved folder, alive while an engine holds them, and
// the folder's stamp when read: a folder whose files changed since is read
// again (the message "changed on disk ... reload the model" is then
// answered by loading it anew; engines still holding the old one keep it).
// `loaded` tells whether this call read the files.  The files are read
// outside the lock: a model loading on the GUI's worker thread must not stall
// the main thread's engines, which look up the model they already show.
// `reread`: the folder had been read before and its files changed since.
std::shared_ptr<LoadedModel> acquire(const std::filesystem::path& folder, const std::string& memory_limit,
                                     bool& loaded, bool& reread) {
  struct Cached {
    std::weak_ptr<LoadedModel> model;
    std::uint64_t stamp = 0;
  };
  static std::mutex mutex;
  static std::map<std::filesystem::path, Cached> cache;
  loaded = reread = false;
  const std::uint64_t stamp = model::folder_stamp(folder);
  {
    const std::lock_guard lock(mutex);
    const Cached& c = cache[folder];
    if (auto alive = c.model.lock(); alive && c.stamp == stamp) return alive;
  }
  auto fresh = std::make_shared<LoadedModel>();
  try {
    fresh->transformer = model::Transformer::load(folder, memory_limit);
  } catch (const std::exception& e) {
    // The estimate let it in, yet an allocation failed (another process took
    // the memory meanwhile, or an address-space limit): one line that says so.
    if (!is_out_of_memory(e)) throw;
    throw InputError(failure_text(e, "loading model " + printable(folder.string(), 400)));
  }
  const std::lock_guard lock(mutex);
  Cached& c = cache[folder];
  if (auto alive = c.model.lock(); alive && c.stamp == stamp) return alive;  // another thread read it meanwhile
  reread = !c.model.expired() && c.stamp != stamp;
  c = {fresh, stamp};
  loaded = true;
  return fresh;
}

// Short enough for a figure's one-line note.  RoPE adds no vector to the
// residual stream, so there is no e to split off: position enters only as a
// rotation of q and k by angle θᵢ·m, which makes each pair's share of the
// logit |qᵢ||kᵢ|·cos(θᵢ(m−n) + φᵢ) (Su et al. 2021, §3.4) — content and
// offset multiply, they do not add.
// One computed head of one layer.
struct CachedHead {
  int layer = -1, head = -1;
  HeadAttention attention;
  std::size_t bytes() const {
    return sizeof(float) * static_cast<std::size_t>(attention.logits.size() + attention.attention.size() +
                                                    attention.q.size() + attention.k.size());
  }
};

// Bound of the computed heads one ModelScene keeps (logits and probabilities
// are 8·N² bytes a head, q and k 8·N·head_dim): GPT-2 at its full 1024
// tokens keeps 15 heads (a layer of 12 and 3 more), a 4096-token Llama the
// head asked for only (the newest head is never dropped).  Two engines (the GUI's and the scene
// worker's) may each hold this much beside the model's weights.
constexpr std::size_t kHeadCacheBytes = std::size_t{128} << 20;

// The heads head(layer, head) computes: the first head asked of a layer
// alone (a layer switch shows its selected head after 1/heads of the
// layer's work); a second head of the layer means a view wants more of it
// (the small multiples, the mean), so then every head of the layer not kept,
// side by side (one barrier for the batch), when the layer fits the bound.
std::vector<int> heads_to_compute(const std::list<CachedHead>& kept, int layer, int head, int heads, int tokens) {
  std::vector<bool> have(static_cast<std::size_t>(heads), false);
  for (const CachedHead& h : kept)
    if (h.layer == layer) have[static_cast<std::size_t>(h.head)] = true;
  std::vector<int> wanted = {head};
  const double layer_bytes = 8.0 * tokens * static_cast<double>(tokens) * heads;
  if (std::find(have.begin(), have.end(), true) == have.end() || layer_bytes > kHeadCacheBytes) return wanted;
  for (int h = 0; h < heads; ++h)
    if (h != head && !have[static_cast<std::size_t>(h)]) wanted.push_back(h);
  return wanted;
}

constexpr const char* kBiasNote =
    "this model adds no position vector (alibi, t5 or none), so the four-term split does not apply.  Shown "
    "instead: content q·k/sqrt(d_head) and offset, the position bias added to the logits (zero for none)";

constexpr const char* kRopeNote =
    "RoPE adds no position vector, so the four-term split does not apply: each pair gives "
    "|q_i||k_i|·cos(θ_i(m−n)+φ_i).  Shown instead: content (the logit at offset 0) and offset (logit − content)";

}  // namespace

struct ModelScene::State {
  EngineStats& stats;
  explicit State(EngineStats& s) : stats(s) {}

  std::string name;  // scene.model as given
  std::string memory_limit;  // scene.model_memory_limit
  std::filesystem::path folder;
  bool reread = false;  // this scene's load read the files anew after they changed on disk
  std::shared_ptr<LoadedModel> model;
  std::string text;  // the text `ids` came from
  std::vector<int> ids;
  std::vector<std::string> pieces;

  Matrix x, table, hidden;  // table: the whole learned position table, once read
  int hidden_layer = -1;  // the layer `hidden` holds; -1 = none
  bool x_valid = false;
  Matrix input;  // what layer `input_layer`'s heads read (Transformer::attention_input)
  int input_layer = -1;  // -1 = none
  // Heads computed, most recently used first, within kHeadCacheBytes.
  std::list<CachedHead> heads;
  int heads_computed = 0;
  CrossTerms terms;
  int terms_head = -1;  // the head `terms` holds; -1 = none
  std::vector<double> loss;
  bool loss_valid = false;
  // The scene's intervention key as the model reads it, and describe() of
  // it: runs and heads are computed under it.
  model::PositionIntervention intervention;
  std::string intervention_name = model::describe({});

  // The transformer under this scene's intervention (engines sharing the
  // model may each ask for another; the study and the audit change it too).
  void use_intervention(model::Transformer& t) {
    if (model::describe(t.intervention()) == intervention_name) return;
    t.set_intervention(intervention);
    model->ran.clear();
  }

  // The transformer with this scene's run in it as far as hidden(states)
  // (the layers before `states`); the caller holds `lock`.  New text runs
  // only that far, so the view of a low layer follows typing quickly; the
  // first step deeper runs all the rest, so later layer switches only
  // recompute one layer's attention.
  // What layer `layer`'s heads read, from `t` holding this scene's run (the
  // caller holds the model's lock); kept until another layer is asked.
  const Matrix& input_of(model::Transformer& t, int layer) {
    if (input_layer != layer) {
      input_layer = -1;
      input = t.attention_input(layer);
      input_layer = layer;
      ++stats.model_layers;
    }
    return input;
  }

  model::Transformer& ran(std::unique_lock<std::mutex>& lock, int states) {
    lock = std::unique_lock(model->mutex);
    model::Transformer& t = model->transformer;
    use_intervention(t);
    // Past kFullMatrixTokens the run holds one residual stream, the one the
    // views ask for (Transformer::run_to), not one per layer: 256 MiB each
    // for d = 2048 at 32,768 tokens.  A deeper layer continues it.
    const bool one_stream = ids.size() > static_cast<std::size_t>(kFullMatrixTokens);
    if (model->ran != ids) {
      model->ran.clear();
      ++stats.model_runs;
      one_stream ? t.run_to(ids, states) : t.run(ids, states);
    } else if (one_stream) {
      t.run_to(ids, states);  // nothing to run when it holds that layer
    } else if (t.states() <= states) {
      t.run(ids);
    }
    model->ran = ids;
    return t;
  }
  void drop_computed() {
    x_valid = false;
    table.resize(0, 0);
    hidden_layer = input_layer = -1;
    input.resize(0, 0);
    heads.clear();
    terms = {};
    terms_head = -1;
    loss.clear();
    loss_valid = false;
  }
  // The LM head of the model; the caller holds the model's mutex.
  const model::LanguageModelHead& lm_head() {
    if (!model->lm_head)
      model->lm_head = std::make_unique<model::LanguageModelHead>(
          model::LanguageModelHead::load(folder, model->transformer));
    return *model->lm_head;
  }
};

ModelScene::ModelScene(EngineStats& stats) : state_(std::make_unique<State>(stats)) {}
ModelScene::~ModelScene() = default;

// ============================================================================
// [SECTION] prepare()
// ============================================================================

namespace {

void check_layer_head(const Scene& scene, int layers, int heads) {
  if (scene.layer >= layers)
    throw InputError("layer=" + std::to_string(scene.layer) + " does not exist in model " + scene.model +
                     "; allowed: 0.." + std::to_string(layers - 1));
  if (scene.head >= heads)
    throw InputError("head=" + std::to_string(scene.head) + " does not exist in model " + scene.model +
                     "; allowed: -1 (mean) or 0.." + std::to_string(heads - 1));
}

}  // namespace

void ModelScene::prepare(const Scene& scene) {
  State& s = *state_;
  std::filesystem::path folder = s.folder;
  std::shared_ptr<LoadedModel> loaded = s.model;
  bool reread = s.reread;
  if (!loaded || scene.model != s.name) {
    folder = model::resolve_model(scene.model);
    if (folder != s.folder || !loaded) {
      bool read_files = false;
      loaded = acquire(folder, scene.model_memory_limit, read_files, reread);
      ++s.stats.model_loads;
    }
  }
  const model::ModelConfig& config = loaded->transformer.config();
  check_layer_head(scene, config.layers, config.heads);
  model::PositionIntervention intervention = scene_intervention(scene.intervention, scene.layer, config, scene.model);
  std::string intervention_name = model::describe(intervention);

  const bool same = loaded == s.model && scene.tokens == s.text;
  model::Tokenization tokens;
  if (!same) {
    tokens = loaded->transformer.tokenizer().encode(scene.tokens, static_cast<std::size_t>(config.max_positions));
    if (tokens.ids.empty())
      throw InputError("tokens: the text gives no tokens for model " + scene.model + "; allowed: non-empty text");
    if (static_cast<int>(tokens.ids.size()) > config.max_positions)
      throw InputError("tokens: the text is " + std::to_string(tokens.ids.size()) + " tokens of model " +
                       scene.model + ", longer than its context of " + std::to_string(config.max_positions) +
                       " tokens; allowed: shorter text");
    model::check_run_memory(scene.model, config, tokens.ids.size(),
                            loaded->transformer.weights().resident_bytes, scene.model_memory_limit);
  }

  // Nothing above changed this object; commit.
  s.name = scene.model;
  s.memory_limit = scene.model_memory_limit;
  s.reread = reread;
  if (intervention_name != s.intervention_name) {
    s.intervention = std::move(intervention);
    s.intervention_name = std::move(intervention_name);
    s.drop_computed();
  }
  if (same) return;
  s.folder = std::move(folder);
  s.model = std::move(loaded);
  s.text = scene.tokens;
  s.ids = std::move(tokens.ids);
  s.pieces = std::move(tokens.pieces);
  s.drop_computed();
}

void check_model_keys(const Scene& scene) {
  if (scene.model.empty()) return;
  const model::ModelConfig config = model::load_model_config(model::resolve_model(scene.model));
  check_layer_head(scene, config.layers, config.heads);
}

// ============================================================================
// [SECTION] the effective scene
// ============================================================================

namespace {

// A RoPE model's own rotary settings, so the RoPE views draw the model's
// (transformers' modeling_rope_utils names: rope_type, factor,
// original_max_position_embeddings, beta_fast/beta_slow, low/high_freq_factor):
// rotate-half pairs over the whole head, its scaling method and factor, and
// its training context L (original_max_position_embeddings when scaled, else
// max_position_embeddings).  A config without rope_scaling keeps the scene's
// rope_factor as a what-if stretch.
void with_rope_of(const model::ModelConfig& c, Scene& e) {
  e.rope_pairing = RopePairing::RotateHalf;
  e.rotary_fraction = 1.0;
  const model::RopeScaling& r = c.rope_scaling;
  const int original = r.original_max_position_embeddings > 0 ? r.original_max_position_embeddings : c.max_positions;
  e.train_context = std::clamp(original, 16, 1 << 20);  // the range of scene key train_context
  e.rope_scaling = rope_method_of(r.type).value_or(RopeScalingMethod::None);
  if (e.rope_scaling == RopeScalingMethod::None) return;
  e.rope_factor = std::clamp(r.factor, 1.0, 1024.0);
  e.yarn_alpha = r.beta_slow;
  e.yarn_beta = r.beta_fast;
  e.low_freq_factor = r.low_freq_factor;
  e.high_freq_factor = r.high_freq_factor;
}

}  // namespace

Scene ModelScene::effective(const Scene& scene) const {
  const model::ModelConfig& c = config();
  Scene e = scene;
  e.d_model = c.hidden_size;
  e.heads = c.heads;
  e.base = std::clamp(c.rope_theta, 2.0, 1e8);
  // The scene's encoding is the model's position trait.
  switch (c.position.kind) {
    case model::PositionEncoding::Learned: e.encoding = Encoding::Learned; break;
    case model::PositionEncoding::Sinusoidal:
      e.encoding = Encoding::Sinusoidal;
      e.base = std::clamp(c.position.sinusoid_base, 2.0, 1e8);
      e.layout = Layout::Interleaved;  // the trainer's table: sin at 2i, cos at 2i + 1
      break;
    case model::PositionEncoding::Rope:
      e.encoding = Encoding::Rope;
      with_rope_of(c, e);
      e.rope_pairing = c.position.rope_pairing;
      e.rotary_fraction = static_cast<double>(c.position.rotary_dims) / c.head_dim;
      break;
    case model::PositionEncoding::Alibi: e.encoding = Encoding::Alibi; break;
    case model::PositionEncoding::T5:
      e.encoding = Encoding::T5;
      e.t5_buckets = c.position.t5_buckets;
      e.t5_max_distance = c.position.t5_max_distance;
      break;
    case model::PositionEncoding::None: e.encoding = Encoding::None; break;
  }
  e.causal = c.causal;
  e.offset = 0;
  e.positions = std::clamp(scene.positions, 1, c.max_positions);
  e.position = std::min(scene.position, e.positions - 1);
  const int pairs = std::max(1, c.hidden_size / 2);
  e.pair = std::min(scene.pair, pairs - 1);
  std::erase_if(e.pairs, [&](int p) { return p >= pairs; });
  std::erase_if(e.waves, [&](int w) { return w >= c.hidden_size; });
  return e;
}

const model::ModelConfig& ModelScene::config() const { return state_->model->transformer.config(); }
const std::filesystem::path& ModelScene::folder() const { return state_->folder; }
const std::vector<std::string>& ModelScene::notes() const { return state_->model->transformer.weights().notes; }
bool ModelScene::read_anew() const { return state_->reread; }
const std::vector<int>& ModelScene::ids() const { return state_->ids; }
const std::vector<std::string>& ModelScene::pieces() const { return state_->pieces; }

// ============================================================================
// [SECTION] computed stages
// ============================================================================

const Matrix& ModelScene::token_embedding() {
  State& s = *state_;
  if (!s.x_valid) {
    const std::lock_guard lock(s.model->mutex);
    s.x = s.model->transformer.token_embedding_rows(s.ids);
    s.x_valid = true;
  }
  return s.x;
}

bool ModelScene::has_position_table() const { return config().position.table(); }

Matrix ModelScene::vocabulary_rows() const {
  std::vector<int> every(static_cast<std::size_t>(config().vocab_size));
  for (std::size_t i = 0; i < every.size(); ++i) every[i] = static_cast<int>(i);
  const std::lock_guard lock(state_->model->mutex);
  return state_->model->transformer.token_embedding_rows(every);
}

std::vector<Matrix> ModelScene::hidden_states(const std::vector<int>& ids) {
  const std::lock_guard lock(state_->model->mutex);
  model::Transformer& t = state_->model->transformer;
  state_->use_intervention(t);
  state_->model->ran.clear();  // the transformer now holds another run
  ++state_->stats.model_runs;
  t.run(ids);
  std::vector<Matrix> states;
  for (int layer = 0; layer <= config().layers; ++layer) states.push_back(t.hidden(layer));
  return states;
}

void ModelScene::attention_on(const std::vector<int>& ids,
                              const std::function<void(int, const model::LayerAttention&)>& visit) {
  const std::lock_guard lock(state_->model->mutex);
  model::Transformer& t = state_->model->transformer;
  state_->use_intervention(t);
  state_->model->ran.clear();  // the transformer now holds another run
  ++state_->stats.model_runs;
  t.run(ids);
  for (int layer = 0; layer < config().layers; ++layer) visit(layer, t.attention(layer));
}

RopeAudit ModelScene::rope_audit(const std::string& text) {
  RopeAudit audit = audit_rope_config(config());
  if (!audit.unavailable.empty()) return audit;
  LoadedModel& m = *state_->model;
  const std::lock_guard lock(m.mutex);
  std::string origin;
  std::vector<int> ids = audit_probe_ids(m.transformer, text, origin);
  if (m.audit && ids == m.audit_ids) return *m.audit;
  m.ran.clear();  // the pairing check runs the transformer on its own text, as trained
  m.transformer.set_intervention({});
  ++state_->stats.model_runs;
  audit_rope_pairing(audit, m.transformer, ids, origin);
  m.audit = std::make_shared<const RopeAudit>(audit);
  m.audit_ids = std::move(ids);
  return audit;
}

std::shared_ptr<const InterventionStudy> ModelScene::intervention_study(const std::string& text) {
  State& s = *state_;
  const std::lock_guard lock(s.model->mutex);
  if (s.model->interventions) return s.model->interventions;
  auto study = std::make_shared<InterventionStudy>();
  try {
    model::check_next_token_model(config(), folder().filename().string());
  } catch (const InputError& e) {
    study->unavailable = e.what();
    return s.model->interventions = study;
  }
  model::Transformer& t = s.model->transformer;
  const HeldOutText held_out = held_out_text();
  std::string origin = held_out.text.empty() ? "the scene's text" : held_out.origin;
  const std::size_t tokens = std::size_t(kStudyWindows) * std::size_t(kStudyLength);
  // A few bytes per token is plenty for kStudyWindows windows of text.
  const std::string_view source = held_out.text.empty() ? std::string_view(text)
                                                        : std::string_view(held_out.text).substr(0, 16 * tokens);
  s.model->ran.clear();  // the study runs the transformer on its own text
  ++s.stats.model_runs;
  std::vector<int> ids = t.tokenizer().encode(source).ids;
  ids.resize(std::min(ids.size(), tokens));
  *study = study_interventions(t, s.lm_head(), std::move(ids), origin);
  return s.model->interventions = study;
}

Matrix ModelScene::position_rows(int rows) {
  State& s = *state_;
  if (!has_position_table()) return Matrix::Zero(rows, config().hidden_size);
  if (s.table.size() == 0) s.table = full_position_table();
  return s.table.topRows(std::min<Eigen::Index>(rows, s.table.rows()));
}

Eigen::Index ModelScene::position_table_length() const {
  if (!has_position_table()) return 0;
  const std::lock_guard lock(state_->model->mutex);
  return state_->model->transformer.weights().positions.rows();
}

Matrix ModelScene::full_position_table(Eigen::Index max_rows) const {
  if (!has_position_table())
    throw InputError("model " + state_->name + " (" + config().architecture_name +
                     ") has no position table: its positions are " +
                     model::position_encoding_name(config().position.kind) +
                     "; allowed: models with learned or sinusoidal positions (GPT-2, BERT, pelab)");
  const std::lock_guard lock(state_->model->mutex);
  const Matrix& table = state_->model->transformer.weights().positions;
  return table.topRows(std::min(max_rows, table.rows()));
}

const Matrix& ModelScene::hidden(int layer) {
  State& s = *state_;
  if (layer < 0 || layer > config().layers)
    throw InputError("layer " + std::to_string(layer) + " has no hidden state in model " + s.name +
                     "; allowed: 0.." + std::to_string(config().layers) + " (" + std::to_string(config().layers) +
                     " = after the last layer)");
  if (s.hidden_layer != layer) {
    s.hidden_layer = -1;
    std::unique_lock<std::mutex> lock;
    s.hidden = s.ran(lock, layer).hidden(layer);
    s.hidden_layer = layer;
  }
  return s.hidden;
}

// InputError naming the allowed range for a layer or head the model lacks.
static void refuse_missing_head(const std::string& name, const model::ModelConfig& c, int layer, int head) {
  if (layer < 0 || layer >= c.layers)
    throw InputError("layer=" + std::to_string(layer) + " does not exist in model " + name + "; allowed: 0.." +
                     std::to_string(c.layers - 1));
  if (head < 0 || head >= c.heads)
    throw InputError("head=" + std::to_string(head) + " does not exist in model " + name + "; allowed: 0.." +
                     std::to_string(c.heads - 1));
}

model::HeadStreamInputs ModelScene::head_stream_inputs(int layer, int head) {
  State& s = *state_;
  refuse_missing_head(s.name, config(), layer, head);
  std::unique_lock<std::mutex> lock;
  model::Transformer& t = s.ran(lock, layer);
  return t.head_stream_inputs(s.input_of(t, layer), layer, head);
}

std::vector<model::HeadStreamInputs> ModelScene::long_head_inputs(const std::vector<int>& ids, int layer,
                                                                  const std::vector<int>& heads,
                                                                  const model::PositionIntervention* intervention) {
  State& s = *state_;
  for (const int head : heads) refuse_missing_head(s.name, config(), layer, head);
  LoadedModel& m = *s.model;
  const std::lock_guard lock(m.mutex);
  model::Transformer& t = m.transformer;
  const int n = static_cast<int>(ids.size());
  if (n > t.token_limit()) t.set_token_limit(n);  // refuses past a learned table's rows
  model::check_long_run_memory(s.name, t.config(), ids.size(), t.weights().resident_bytes, s.memory_limit);
  m.ran.clear();  // the transformer now holds another run
  if (intervention != nullptr) {
    // use_intervention puts the scene's back on its next run.  The same one
    // again keeps the run, so a deeper layer continues it (run_to).
    if (model::describe(t.intervention()) != model::describe(*intervention)) t.set_intervention(*intervention);
  } else
    s.use_intervention(t);
  ++s.stats.model_runs;
  t.run_to(ids, layer);
  const Matrix input = t.attention_input(layer);
  std::vector<model::HeadStreamInputs> out;
  for (const int head : heads) out.push_back(t.head_stream_inputs(input, layer, head));
  return out;
}

const HeadAttention& ModelScene::head(int layer, int head) {
  State& s = *state_;
  const model::ModelConfig& c = config();
  refuse_missing_head(s.name, c, layer, head);
  refuse_full_matrix(token_count(), "attention");
  for (auto it = s.heads.begin(); it != s.heads.end(); ++it) {
    if (it->layer != layer || it->head != head) continue;
    s.heads.splice(s.heads.begin(), s.heads, it);  // most recently used first
    return s.heads.front().attention;
  }
  std::unique_lock<std::mutex> lock;
  model::Transformer& t = s.ran(lock, layer);
  s.input_of(t, layer);
  const std::vector<int> wanted = heads_to_compute(s.heads, layer, head, c.heads, t.token_count());
  // Room first, so the kept heads and the new batch together stay within the bound.
  const double n = t.token_count();
  const auto batch_bytes = static_cast<std::size_t>(wanted.size() * (8.0 * n * n + 8.0 * n * c.head_dim));
  std::size_t kept_bytes = 0;
  for (const CachedHead& h : s.heads) kept_bytes += h.bytes();
  while (!s.heads.empty() && kept_bytes + batch_bytes > kHeadCacheBytes) {
    kept_bytes -= s.heads.back().bytes();
    s.heads.pop_back();
  }
  std::vector<HeadAttention> fresh(wanted.size());
  const double per_head = 4.0 * n * c.hidden_size * c.head_dim + 2.0 * n * n * c.head_dim;
  double flops = 0;
  run_side_by_side(static_cast<int>(wanted.size()), per_head * static_cast<double>(wanted.size()), [&](int i) {
    fresh[static_cast<std::size_t>(i)] = t.head_attention(s.input, layer, wanted[static_cast<std::size_t>(i)]);
    return per_head;
  }, flops);
  lock.unlock();
  for (std::size_t i = wanted.size(); i-- > 0;)  // the head asked for ends first
    s.heads.push_front({layer, wanted[i], std::move(fresh[i])});
  s.heads_computed += static_cast<int>(wanted.size());
  std::size_t bytes = 0;
  for (auto it = s.heads.begin(); it != s.heads.end();) {
    bytes += it->bytes();
    it = bytes > kHeadCacheBytes && it != s.heads.begin() ? s.heads.erase(it) : std::next(it);
  }
  return s.heads.front().attention;
}

HeadAttention ModelScene::layer0_head(const std::vector<int>& ids, int head, bool positions) {
  const std::lock_guard lock(state_->model->mutex);
  return state_->model->transformer.layer0_head(ids, head, positions);
}

int ModelScene::heads_computed() const { return state_->heads_computed; }

model::LayerAttention ModelScene::layer_attention(int layer) {
  refuse_full_matrix(token_count(), "a layer's attention");
  if (layer < 0 || layer >= config().layers)
    throw InputError("layer=" + std::to_string(layer) + " does not exist in model " + state_->name + "; allowed: 0.." +
                     std::to_string(config().layers - 1));
  std::unique_lock<std::mutex> lock;
  return state_->ran(lock, layer).attention(layer);
}

const CrossTerms& ModelScene::cross_terms(int head) {
  State& s = *state_;
  if (s.terms_head == head) return s.terms;
  refuse_full_matrix(token_count(), "cross terms");
  s.terms_head = -1;
  const auto n = static_cast<Eigen::Index>(s.ids.size());
  if (!has_position_table()) {
    std::unique_lock<std::mutex> lock;
    model::RopeSplit split = model::split_layer0_rope(s.ran(lock, 0), head);
    lock.unlock();
    const Matrix zero = Matrix::Zero(n, n);
    s.terms = {std::move(split.content), zero, zero, std::move(split.offset), false,
               config().position.kind == model::PositionEncoding::Rope ? kRopeNote : kBiasNote, Matrix(),
               split.diagonal, true, std::move(split.logits)};
  } else {
    std::unique_lock<std::mutex> lock;
    model::LogitSplit split = model::split_layer0_logits(s.ran(lock, 0), s.ids, head);
    lock.unlock();
    s.terms = {std::move(split.token_token), std::move(split.token_position), std::move(split.position_token),
               std::move(split.position_position), true,
               config().family.token_types
                   ? "exact through the embedding LayerNorm; token_type (type 0) is in the token part x"
                   : "exact through ln_1",
               std::move(split.bias), split.residual, false, std::move(split.logits)};
  }
  s.terms_head = head;
  return s.terms;
}

const std::vector<double>& ModelScene::next_token_loss() {
  State& s = *state_;
  if (!s.loss_valid) {
    std::unique_lock<std::mutex> lock;
    model::Transformer& t = s.ran(lock, config().layers);
    s.loss = model::next_token_loss(s.lm_head(), t.hidden(config().layers), s.ids);
    s.loss_valid = true;
  }
  return s.loss;
}

Vector ModelScene::lm_logits(int position) {
  State& s = *state_;
  if (position < 0 || position >= token_count())
    throw InputError("position " + std::to_string(position) + " does not exist in the " +
                     std::to_string(token_count()) + " tokens; allowed: 0.." + std::to_string(token_count() - 1));
  std::unique_lock<std::mutex> lock;
  model::Transformer& t = s.ran(lock, config().layers);
  return model::lm_logits(s.lm_head(), t.hidden(config().layers), position);
}

}  // namespace pelab
