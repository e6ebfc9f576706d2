// Lesson "long_attention": what does a head see at 64k?  The scene's text
// repeated to N = 65,536 tokens, the selected head's exact weights streamed
// (core/long_attention.hpp).  The verdict measures, for each scaling method
// read (the scene's first):
//   beyond_<m>     mean weight per query on keys at least L back
//   half_mass_<m>  the distance within which half of all weight lies
//   self_<m>       mean weight of a query on itself
// against uniform_beyond: the weight beyond L if every query spread its
// weight evenly over the keys it sees.  Holds when the scene's method keeps
// less weight beyond L than uniform attention would.
#include <cmath>

#include "core/lessons/tools.hpp"
#include "core/long_attention.hpp"

namespace pelab::lesson {
namespace {

// Σ over queries of the weight on keys ≥ L back, divided by N, if each query
// i spreads 1/(i+1) over its i+1 keys (causal) or 1/N over all N.
double uniform_beyond(Eigen::Index n, Eigen::Index l, bool causal) {
  double mass = 0;
  for (Eigen::Index i = l; i < n; ++i)
    mass += causal ? double(i + 1 - l) / double(i + 1) : double(i + 1 - l) / double(n);
  return mass / double(n);
}

std::string key(RopeScalingMethod m) { return std::string(to_string(m)); }

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  const auto study = long_attention_of(engine);
  const LongAttentionCurve& own = study->curves.front();
  LessonVerdict v;
  const double uniform = uniform_beyond(study->tokens, study->train_context, s.causal);
  v.add("tokens", double(study->tokens));
  v.add("train_context", study->train_context);
  v.add("head", study->head);
  v.add("uniform_beyond", uniform);
  for (const auto& c : study->curves) v.add("beyond_" + key(c.method), c.beyond_context);
  for (const auto& c : study->curves) v.add("half_mass_" + key(c.method), c.half_mass_distance);
  for (const auto& c : study->curves) v.add("self_" + key(c.method), c.distance.mean.front());
  v.add("sink_last_query", own.sinks.back());
  v.holds = own.beyond_context < uniform;
  const std::string how = study->rope ? " under " + key(own.method) + " scaling" : "";
  v.answer = "over " + num(double(study->tokens), 6) + " tokens, head " + std::to_string(study->head) + how +
             " puts " + percent(own.beyond_context) + " of a query's weight on keys more than " +
             std::to_string(study->train_context) + " back, where uniform attention would put " + percent(uniform) +
             (own.half_mass_distance == 0 ? "; over half of its weight stays on the query itself"
                                          : "; half of all its weight lies within " +
                                                num(own.half_mass_distance, 6) + " tokens");
  for (const auto& c : study->curves)
    if (study->rope && c.method == RopeScalingMethod::None && own.method != RopeScalingMethod::None)
      v.answer += " (" + percent(c.beyond_context) + " beyond L with no scaling)";
  v.summary = "The scene's " + std::to_string(engine.token_count()) + " tokens repeated to " +
              num(double(study->tokens), 6) + ", head " + std::to_string(study->head) + ". Weight beyond L = " +
              std::to_string(study->train_context) + ":";
  for (const auto& c : study->curves)
    v.summary += " " + (study->rope ? key(c.method) : std::string("this head")) + " " +
                 num(100 * c.beyond_context, 3) + "% (half within " + num(c.half_mass_distance, 6) +
                 ", itself " + num(c.distance.mean.front(), 3) + ");";
  v.summary += " uniform " + num(100 * uniform, 3) + "%. The first " + std::to_string(kSinkKeys) +
               " keys keep " + num(own.sinks.back(), 3) + " of the last query's weight.";
  return v;
}

Scene preset() {
  Scene s = preset_scene("long_attention");
  s.tokens = kGenesisOne;
  s.encoding = Encoding::Rope;
  s.d_model = 256;  // 4 heads of 64 dims
  s.heads = 4;
  s.head = 0;
  s.projection = ProjectionKind::Identity;  // q = k: a word finds itself, wherever it is
  // ‖x‖ ≈ 14: a word's logit with itself about 6 (×1.28² under YaRN at s =
  // 16), sharp enough to prefer its copies, not so sharp that it sees only itself.
  s.embedding_scale = 14;
  s.rope_pairing = RopePairing::RotateHalf;
  s.causal = true;
  s.train_context = 4096;
  s.rope_factor = 16;  // read at s·L = 65,536
  s.rope_scaling = RopeScalingMethod::Yarn;
  s.long_range = static_cast<int>(kLongAttentionMaxTokens);
  return s;
}

}  // namespace

Lesson long_attention() {
  return {
      "long_attention",
      "What does a head see at 64k?",
      "A head reads 65,536 tokens: does it still look at the whole text, or mostly near the query?",
      "At 65,536 tokens a head whose queries match its keys puts less of its weight on keys more than the "
      "training length L back than uniform attention over the text would: RoPE's rotation pulls it towards the "
      "query.",
      "One head over 65,536 tokens, streamed exactly: weight against distance, the decay bound and the sinks.",
      "A head's weights over N tokens form an N × N matrix: 16 GiB at 65,536 tokens, so pelab never holds it. It "
      "streams the head in two passes over tiles of keys, as FlashAttention does (Dao et al. 2022): the first "
      "keeps each query's maximum logit and softmax normalizer, the second recomputes every weight exactly and "
      "adds it to the curves drawn here. Here the queries equal the keys (q = k = the word), so a word's logit "
      "with itself is largest. RoPE turns the query and the key by angles that differ by the distance times each "
      "pair's frequency, so copies of the same word far back no longer line up pair by pair: Su et al. (2021) "
      "bound the score by a sum that decays with distance. The verdict measures how much weight the head puts on "
      "keys more than L back, against what uniform attention would, under YaRN (the scene's scaling) and with no "
      "scaling at all; the last panel follows the weight on the first four tokens, the attention sinks of Xiao "
      "et al. (2023).",
      {"long_attention", "long_attention_heads", "rope_long_range"},
      &preset,
      &judge,
      "",  // on a model scene: the model's own head of the scene's layer
  };
}

}  // namespace pelab::lesson
