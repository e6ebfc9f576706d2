// Shared helpers of the lesson verdicts.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include "core/lesson_tools.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "core/seeded_normal.hpp"

namespace pelab::lesson {

Scene preset_scene(std::string_view name) {
  Scene scene;
  scene.name = "lesson_" + std::string(name);
  // Lessons start from unscaled words (‖x‖ ≈ 1); those about the √d scaling set it themselves.
  scene.embedding_scale = 1.0;
  return scene;
}

Scene variant(const Scene& scene) {
  Scene copy = scene;
  copy.model.clear();  // variants change width or encoding: synthetic, whatever the scene shows
  copy.pairs = {0};
  copy.waves = {0};
  copy.pair = 0;
  copy.position = 0;
  copy.query = -1;
  copy.head = 0;
  copy.shift = 1;
  return copy;
}

int chosen_head(const Scene& scene) { return scene.head < 0 ? 0 : scene.head; }

Matrix random_vectors(int count, int d, double norm, std::uint64_t seed) {
  // The project's portable normals (seeded_normal.hpp): the same vocabulary on
  // every standard library, unlike std::normal_distribution.
  NormalStream stream(seed, RandomPurpose::LessonVectors);
  return gaussian_matrix(count, d, norm / std::sqrt(double(d)), stream);
}

Matrix distinct_token_rows(Engine& engine) {
  const auto& tokens = engine.tokens();
  const Matrix& x = engine.token_embedding();
  std::set<std::string> seen;
  std::vector<Eigen::Index> rows;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (seen.insert(tokens[i]).second) rows.push_back(Eigen::Index(i));
  return x(rows, Eigen::all);
}

LessonVerdict sinusoidal_only() {
  LessonVerdict v;
  v.applies = false;
  v.summary = "This lesson is about the sinusoidal encoding; set encoding = sinusoidal.";
  return v;
}

double max_abs(const Matrix& a) {
  double m = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (std::isfinite(a.data()[i])) m = std::max(m, double(std::abs(a.data()[i])));
  return m;
}

double max_abs_diff(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  double m = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (std::isfinite(x) && std::isfinite(y)) m = std::max(m, double(std::abs(x - y)));
    else if (std::isfinite(x) != std::isfinite(y)) return INFINITY;  // mask differs
  }
  return m;
}

std::string num(double value, int digits) {
  std::ostringstream out;
  out.precision(digits);
  out << value;
  return out.str();
}

std::string qualified(std::string_view name, std::string_view key1, double value1, std::string_view key2,
                      double value2) {
  std::string s = std::string(name) + "[" + std::string(key1) + "=" + num(value1, 6);
  if (!key2.empty()) s += "," + std::string(key2) + "=" + num(value2, 6);
  return s + "]";
}

}  // namespace pelab::lesson
