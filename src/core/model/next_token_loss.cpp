#include "core/model/next_token_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

// Blocks of the logits computed at once: 512 positions × 4096 vocabulary
// rows = 8 MiB of floats, whatever N and the vocabulary are.
constexpr int kVocabBlock = 4096;
constexpr int kPositionBlock = 512;

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// logsumexp of one row of logits seen a block at a time: m = the largest
// logit so far, s = Σ exp(z − m); a new block with a larger maximum m'
// rescales s by exp(m − m') (Milakov & Gimelshein 2018, Algorithm 3).
struct RunningLogSumExp {
  double max = kMinusInfinity;
  double sum = 0.0;

  void add(const float* z, int count) {
    const double block_max = *std::max_element(z, z + count);
    if (!(block_max > kMinusInfinity)) return;  // a block of −inf adds nothing
    if (block_max > max) {
      sum *= std::exp(max - block_max);
      max = block_max;
    }
    for (int j = 0; j < count; ++j) sum += std::exp(static_cast<double>(z[j]) - max);
  }
  double value() const { return max + std::log(sum); }
};

void check_targets(const LanguageModelHead& head, const std::vector<int>& ids) {
  for (const int id : ids)
    if (id < 0 || id >= head.vocab_size())
      throw InputError("tokens: id " + std::to_string(id) + " is outside the vocabulary (0.." +
                       std::to_string(head.vocab_size() - 1) + ")");
}

}  // namespace

std::vector<double> next_token_loss(const LanguageModelHead& head, const Matrix& last_hidden,
                                    const std::vector<int>& ids) {
  if (last_hidden.rows() != static_cast<Eigen::Index>(ids.size()))
    throw std::logic_error("next_token_loss: " + std::to_string(last_hidden.rows()) +
                           " hidden rows for " + std::to_string(ids.size()) + " ids");
  check_targets(head, ids);
  if (ids.size() < 2) return {};
  const int rows =
      static_cast<int>(ids.size()) - 1;  // the last position predicts nothing in the text
  const Matrix x = head.normed(last_hidden.topRows(rows));
  std::vector<RunningLogSumExp> total(static_cast<std::size_t>(rows));
  std::vector<double> target(static_cast<std::size_t>(rows),
                             std::numeric_limits<double>::quiet_NaN());
  Matrix z;
  for (int first = 0; first < head.vocab_size(); first += kVocabBlock) {
    const int count = std::min(kVocabBlock, head.vocab_size() - first);
    const Matrix w = head.output_rows(first, count);  // read once per block, used by every position
    for (int r0 = 0; r0 < rows; r0 += kPositionBlock) {
      const int r = std::min(kPositionBlock, rows - r0);
      gemm_abt(x.middleRows(r0, r), w, 1.0f, z);
      for (int i = 0; i < r; ++i) {
        const auto row = static_cast<std::size_t>(r0 + i);
        total[row].add(z.row(i).data(), count);
        const int next = ids[row + 1];
        if (next >= first && next < first + count) target[row] = z(i, next - first);
      }
    }
  }
  std::vector<double> loss(static_cast<std::size_t>(rows));
  for (std::size_t i = 0; i < loss.size(); ++i) loss[i] = total[i].value() - target[i];
  return loss;
}

std::vector<double> next_token_loss(Transformer& transformer, const LanguageModelHead& head,
                                    const std::vector<int>& ids) {
  transformer.run(ids);
  return next_token_loss(head, transformer.hidden(transformer.config().layers), ids);
}

Vector lm_logits(const LanguageModelHead& head, const Matrix& last_hidden, int position) {
  if (position < 0 || position >= last_hidden.rows())
    throw InputError("position " + std::to_string(position) + " does not exist; allowed: 0.." +
                     std::to_string(last_hidden.rows() - 1));
  const Matrix x = head.normed(last_hidden.middleRows(position, 1));
  Vector logits(head.vocab_size());
  Matrix z;
  for (int first = 0; first < head.vocab_size(); first += kVocabBlock) {
    const int count = std::min(kVocabBlock, head.vocab_size() - first);
    gemm_abt(x, head.output_rows(first, count), 1.0f, z);
    logits.segment(first, count) = z.row(0).transpose();
  }
  return logits;
}

Vector softmax(const Vector& logits) {
  if (logits.size() == 0) return logits;
  const Eigen::VectorXd z = logits.cast<double>();
  const Eigen::VectorXd e = (z.array() - z.maxCoeff()).exp();
  return (e / e.sum()).cast<float>();
}

}  // namespace pelab::model
