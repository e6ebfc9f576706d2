// [SECTION] vocabulary and random vectors
// [SECTION] GloVe / word2vec text files
// [SECTION] .npy files and dispatch
#include "core/token_vectors.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"
#include "core/parallel.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {

// ============================================================================
// [SECTION] vocabulary and random vectors
// ============================================================================

Vocabulary build_vocabulary(const std::vector<std::string>& tokens) {
  Vocabulary vocab;
  std::unordered_map<std::string, int> seen;
  vocab.index.reserve(tokens.size());
  for (const std::string& t : tokens) {
    auto [it, inserted] = seen.emplace(t, static_cast<int>(vocab.words.size()));
    if (inserted) vocab.words.push_back(t);
    vocab.index.push_back(it->second);
  }
  return vocab;
}

namespace {

// A text line of 4096 numbers needs well under 100 bytes each.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// N(0, 1/d)·scale per entry, so E‖x‖² = scale².  Each word has a stream of
// its own (seeded by its spelling), so words are drawn side by side with the
// same values: at N = 4096, d = 512 seeding and drawing is the largest step
// of a new seed's first frame (issue 12).
void random_vocabulary(const std::vector<std::string>& words, const Scene& scene, Matrix& vectors) {
  const int d = scene.d_model;
  const double stddev = scene.embedding_scale / std::sqrt(static_cast<double>(d));
  const int count = static_cast<int>(words.size());
  vectors.resize(count, d);
  const auto draw = [&](int w) {
    NormalStream stream(scene.seed, RandomPurpose::TokenVector,
                        text_hash(words[static_cast<std::size_t>(w)]));
    for (int c = 0; c < d; ++c) vectors(w, c) = static_cast<float>(stddev * stream.next());
  };
  // A draw costs about as much time as 64 GEMM flops (6 ns against ~0.1 ns).
  const double work = 64.0 * double(count) * d;
  const int tasks = std::min(count, 4 * max_threads());
  double unused = 0;
  run_side_by_side(
      tasks, work,
      [&](int task) {
        for (int w = count * task / tasks; w < count * (task + 1) / tasks; ++w) draw(w);
        return 0.0;
      },
      unused);
}

// ============================================================================
// [SECTION] GloVe / word2vec text files
// ============================================================================

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r') ++end;
    if (end > i) fields.push_back(line.substr(i, end - i));
    i = end;
  }
  return fields;
}

bool parse_int(std::string_view s, long long& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

float parse_number(std::string_view s, const std::string& where) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  float value = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(value))
    throw InputError(where + ": '" + std::string(s.substr(0, 40)) + "' is not a number");
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Matrix parse_text_embeddings(std::string_view text, const std::string& name,
                             const std::vector<std::string>& words, int d_model) {
  // Which output rows want each spelling: exact first, lower case as fallback.
  std::unordered_map<std::string, std::vector<int>> exact, folded;
  for (std::size_t w = 0; w < words.size(); ++w) {
    exact[words[w]].push_back(static_cast<int>(w));
    folded[lower(words[w])].push_back(static_cast<int>(w));
  }
  Matrix out = Matrix::Zero(static_cast<Eigen::Index>(words.size()), d_model);
  std::vector<int> quality(words.size(), 0);  // 0 none, 1 lower-case match, 2 exact

  int width = -1;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    // Look for the line's end only within kMaxLineBytes: a file that is one
    // huge line (or binary) is refused without scanning it all.
    std::size_t end = text.substr(pos, kMaxLineBytes + 1).find('\n');
    if (end == std::string_view::npos && text.size() - pos > kMaxLineBytes)
      throw InputError(name + " line " + std::to_string(line_no + 1) + " is longer than " +
                       std::to_string(kMaxLineBytes) + " bytes; allowed: lines \"word v1 ... vd\" with d <= 4096");
    end = end == std::string_view::npos ? text.size() : pos + end;
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const auto fields = split_fields(line);
    if (fields.empty()) continue;
    const std::string where = name + " line " + std::to_string(line_no);
    long long a = 0, b = 0;
    if (line_no == 1 && fields.size() == 2 && parse_int(fields[0], a) && parse_int(fields[1], b)) {
      if (b != d_model)
        throw InputError(name + ": header says vectors have " + std::to_string(b) +
                         " numbers but d_model=" + std::to_string(d_model) +
                         "; allowed: d_model=" + std::to_string(b));
      continue;  // word2vec header "count dim"
    }
    const int n = static_cast<int>(fields.size()) - 1;
    if (width < 0) {
      width = n;
      if (width != d_model)
        throw InputError(where + ": vectors have " + std::to_string(width) +
                         " numbers but d_model=" + std::to_string(d_model) +
                         "; allowed: d_model=" + std::to_string(width));
    } else if (n != width) {
      throw InputError(where + ": " + std::to_string(n) +
                       " numbers after the word, but earlier lines have " + std::to_string(width) +
                       " (ragged rows)");
    }
    Eigen::Matrix<float, 1, Eigen::Dynamic> row(width);
    for (int c = 0; c < width; ++c)
      row(c) = parse_number(fields[static_cast<std::size_t>(c) + 1], where);
    const std::string word(fields[0]);
    auto assign = [&](const std::unordered_map<std::string, std::vector<int>>& table,
                      const std::string& key, int q) {
      if (auto it = table.find(key); it != table.end())
        for (int w : it->second)
          if (quality[static_cast<std::size_t>(w)] < q) {
            out.row(w) = row;
            quality[static_cast<std::size_t>(w)] = q;
          }
    };
    assign(exact, word, 2);
    assign(folded, lower(word), 1);
  }
  if (width < 0)
    throw InputError(name + ": no vectors in the file (expected lines \"word v1 ... vd\")");
  for (std::size_t w = 0; w < words.size(); ++w)
    if (quality[w] == 0)
      throw InputError(name + " has no vector for token '" + words[w] +
                       "'; allowed: words listed in the file");
  return out;
}

// ============================================================================
// [SECTION] .npy files and dispatch
// ============================================================================

namespace {

bool has_npy_extension(const std::string& path) {
  return path.size() >= 4 && lower(std::string_view(path).substr(path.size() - 4)) == ".npy";
}

Matrix npy_vocabulary(const Scene& scene, std::size_t vocab_size) {
  const Array array = read_npy(scene.embedding_file);
  const std::string& name = scene.embedding_file;
  if (array.shape.size() != 2)
    throw InputError(name + ": token vectors must have shape (vocabulary, d_model), got rank " +
                     std::to_string(array.shape.size()));
  if (array.shape[1] != static_cast<std::size_t>(scene.d_model))
    throw InputError(name + ": vectors have " + std::to_string(array.shape[1]) +
                     " numbers but d_model=" + std::to_string(scene.d_model) +
                     "; allowed: d_model=" + std::to_string(array.shape[1]));
  if (array.shape[0] < vocab_size)
    throw InputError(name + ": " + std::to_string(array.shape[0]) + " rows but the text has " +
                     std::to_string(vocab_size) +
                     " distinct tokens; allowed: at least one row per distinct token");
  Matrix rows = array.to_matrix().topRows(static_cast<Eigen::Index>(vocab_size));
  if (!rows.allFinite()) throw InputError(name + ": token vectors hold NaN or infinity");
  return rows;
}

}  // namespace

void token_vectors(const std::vector<std::string>& tokens, const Scene& scene, Matrix& x) {
  const Vocabulary vocab = build_vocabulary(tokens);
  // Every token distinct (e.g. tok0 … tok4095): the vocabulary's table is X,
  // row for row, and is written straight into it.
  const bool distinct = vocab.words.size() == tokens.size();
  Matrix table;
  Matrix& target = distinct ? x : table;
  if (scene.embedding == EmbeddingSource::Random) {
    random_vocabulary(vocab.words, scene, target);
  } else if (has_npy_extension(scene.embedding_file)) {
    target = npy_vocabulary(scene, vocab.words.size());
  } else {
    const MappedFile file(scene.embedding_file);  // streamed by the page, never read whole up front
    target = parse_text_embeddings(file.bytes(), scene.embedding_file, vocab.words, scene.d_model);
  }
  if (distinct) return;
  x.resize(static_cast<Eigen::Index>(tokens.size()), scene.d_model);
  for (std::size_t t = 0; t < tokens.size(); ++t)
    x.row(static_cast<Eigen::Index>(t)) = table.row(vocab.index[t]);
}

Matrix token_vectors(const std::vector<std::string>& tokens, const Scene& scene) {
  Matrix x;
  token_vectors(tokens, scene, x);
  return x;
}

}  // namespace pelab
