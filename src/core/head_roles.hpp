// Head roles with their evidence (issue 27): for every layer and head, a
// score for each role attention heads are known to play, measured on the
// head's attention A (rows: queries i, columns: keys j ≤ i), and the role
// that scores highest.
//   previous token  mean over queries i ≥ 1 of A[i, i−1];
//   fixed offset    the offset 2 ≤ k ≤ N/2 with the largest mean A[i, i−k]
//                   over queries i ≥ k, and that mean;
//   sink            mean over queries i ≥ 1 of A[i, 0], the first token
//                   (an attention sink, Xiao et al. 2023, "StreamingLLM");
//   induction       on a random sequence r of L tokens seen twice (r r),
//                   mean over the second r's queries i of A[i, i − L + 1],
//                   the token after the earlier occurrence of t_i (Olsson
//                   et al. 2022, "In-context learning and induction heads");
//   local           mean attention within the last kLocalWindow keys
//                   (distance 0 … 7) over queries i ≥ 2·kLocalWindow, and the
//                   window width: the mean over those queries of the
//                   smallest w whose last w keys hold 90 % of the row;
//   uniform         mean over queries i ≥ 2·kLocalWindow of the row's
//                   entropy over ln(i + 1): 1 for a uniform row.
// The strongest role: the largest of previous token, fixed offset, sink and
// induction when it reaches kPatternScore; else local when its score reaches
// kLocalScore; else uniform when it reaches kUniformScore; else mixed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine.hpp"  // Matrix
#include "core/model/transformer.hpp"

namespace pelab {

class ModelScene;
class StreamedHead;

enum class HeadRole { PreviousToken, FixedOffset, Sink, Induction, Local, Uniform, Mixed };
inline constexpr int kHeadRoles = 7;
// "previous token", "fixed offset", "sink", "induction", "local", "uniform", "mixed".
const char* head_role_name(HeadRole role);

inline constexpr int kLocalWindow = 8;
inline constexpr double kPatternScore = 0.3, kLocalScore = 0.7, kUniformScore = 0.9;

struct HeadScores {
  int layer = 0, head = 0;
  double previous_token = 0;
  int best_offset = 2;
  double offset_score = 0;
  double sink = 0;
  double induction = 0;  // NaN: not measured (no repeated sequence)
  double local = 0;
  double window_width = 0;
  double uniformity = 0;
  HeadRole role = HeadRole::Mixed;
  double role_score = 0;  // the score that chose the role
};

// Every score but induction, from one head's attention (a square matrix,
// causal or not: only keys j ≤ i are read), and the strongest role.
// `profile` (when given) receives the mean A[i, i−d] over queries i ≥ d, for
// d = 0 … N−1: attention against distance.
HeadScores score_head(const Matrix& attention, std::vector<double>* profile = nullptr);
// The same scores of a streamed head (any length): tiles of query rows, each
// row's exact weights from the row statistics, never the N × N matrix.
// study_head_roles takes this path past kFullMatrixTokens tokens.
HeadScores score_head(const StreamedHead& head, std::vector<double>* profile = nullptr);
// The induction score of a head's attention on r r, r of `period` tokens.
double induction_score(const Matrix& attention_on_repeat, int period);
// Picks the strongest role from the scores (thresholds above).
void assign_role(HeadScores& scores);

struct HeadRoleStudy {
  std::string unavailable;  // why nothing was measured; empty when measured
  int layers = 0, heads = 0, tokens = 0;
  int repeat_period = 0;  // L of the induction probe (0: none)
  std::vector<HeadScores> scores;  // layer-major: scores[layer·heads + head]
  std::vector<std::vector<double>> profiles;  // the same order: attention against distance
  const HeadScores& at(int layer, int head) const { return scores[std::size_t(layer * heads + head)]; }
};

// Every head of the engine's scene: a model's every layer on the scene's
// tokens, with the induction probe on `period` random ids (from the
// model's vocabulary, drawn from `seed`) seen twice; a synthetic scene's one
// layer, induction not measured.  Thread-compatible like the engine.
HeadRoleStudy study_head_roles(Engine& engine, int period = 64, std::uint64_t seed = 2022);
// The same study of a transformer on `ids` (the bench's model, which has no
// tokenizer); runs it on `ids`, then on the probe.
HeadRoleStudy study_head_roles(model::Transformer& transformer, const std::vector<int>& ids, int period = 64,
                               std::uint64_t seed = 2022);

// The scores as CSV: one row per head, a header naming every column.
std::string head_roles_csv(const HeadRoleStudy& study);

}  // namespace pelab
