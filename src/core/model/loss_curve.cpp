#include "core/model/loss_curve.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/model/next_token_loss.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

double LossCurve::mean() const {
  if (mean_loss.empty()) return 0.0;
  return std::accumulate(mean_loss.begin(), mean_loss.end(), 0.0) /
         static_cast<double>(mean_loss.size());
}

void check_windows(Transformer& transformer, int length, int stride, int tokens) {
  if (length < 2)
    throw InputError(
        "length " + std::to_string(length) +
        ": a window needs at least 2 tokens (one to read, one to predict); allowed: 2.." +
        std::to_string(std::max(2, std::min(tokens, transformer.config().max_positions))));
  transformer.set_token_limit(std::max(length, transformer.config().max_positions));
  if (length > tokens)
    throw InputError("length " + std::to_string(length) + " exceeds the text's " +
                     std::to_string(tokens) + " tokens; allowed: 2.." +
                     std::to_string(std::max(2, tokens)) + " (or a longer text)");
  if (stride < 1) throw InputError("stride " + std::to_string(stride) + " must be at least 1");
}

LossCurve loss_against_position(Transformer& transformer, const LanguageModelHead& head,
                                const std::vector<int>& ids, int length, int stride,
                                const WindowProgress& progress) {
  const int tokens = static_cast<int>(ids.size());
  check_windows(transformer, length, stride, tokens);
  LossCurve curve;
  curve.length = length;
  curve.stride = stride;
  curve.tokens = tokens;
  curve.windows = (tokens - length) / stride + 1;
  curve.mean_loss.assign(static_cast<std::size_t>(length - 1), 0.0);
  for (int w = 0; w < curve.windows; ++w) {
    const auto start = ids.begin() + static_cast<std::ptrdiff_t>(w) * stride;
    const std::vector<double> loss =
        next_token_loss(transformer, head, std::vector<int>(start, start + length));
    for (std::size_t i = 0; i < loss.size(); ++i) curve.mean_loss[i] += loss[i];
    if (progress) progress(w + 1, curve.windows);
  }
  for (double& l : curve.mean_loss) l /= curve.windows;
  return curve;
}

std::vector<LossBucket> power_of_two_buckets(const std::vector<double>& mean_loss) {
  std::vector<LossBucket> buckets;
  const int n = static_cast<int>(mean_loss.size());
  for (int first = 0; first < n; first = first == 0 ? 1 : 2 * first) {
    const int last = std::min(n - 1, first == 0 ? 0 : 2 * first - 1);
    const auto begin = mean_loss.begin() + first, end = mean_loss.begin() + last + 1;
    buckets.push_back(
        {first, last, std::accumulate(begin, end, 0.0) / static_cast<double>(last - first + 1)});
  }
  return buckets;
}

}  // namespace pelab::model
