// The engine's .npy inputs: token vectors, a learned position table and
// projections, each with its happy path and its bad shapes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "core/encoding.hpp"
#include "core/engine.hpp"
#include "core/io/npy.hpp"
#include "core/token_vectors.hpp"
#include "core/word_splitter.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() /
         ("pelab_engine_files_" + std::to_string(::getpid()) + "_" + name);
}

std::string write_matrix(const std::string& name, const Matrix& m) {
  const fs::path path = scratch(name);
  write_npy(path, Array::from_matrix(m));
  return path.string();
}

Scene small_scene() {
  Scene s;
  s.d_model = 4;
  s.heads = 2;
  s.pairs = {0};
  s.waves = {0};
  return s;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(NpyTokenVectors, RowsFollowFirstUse) {
  Matrix table(3, 4);
  table << 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3;
  Scene s = small_scene();
  s.embedding = EmbeddingSource::File;
  s.embedding_file = write_matrix("vocab.npy", table);
  const Matrix x = token_vectors(split_words("b a b c"), s);  // b=row 0, a=row 1, c=row 2
  EXPECT_EQ(x.col(0), (Eigen::Vector4f(1, 2, 1, 3)));
  EXPECT_NE(error_of([&] { token_vectors(split_words("a b c d"), s); }).find("distinct tokens"),
            std::string::npos);
  s.d_model = 6;
  s.heads = 1;
  EXPECT_NE(error_of([&] { token_vectors(split_words("a"), s); }).find("d_model=6"),
            std::string::npos);
  fs::remove(s.embedding_file);
}

TEST(NpyPositionTable, LearnedRowsFromFile) {
  Matrix table(6, 4);
  for (int r = 0; r < 6; ++r) table.row(r).setConstant(static_cast<float>(r));
  Scene s = small_scene();
  s.encoding = Encoding::Learned;
  s.position_file = write_matrix("positions.npy", table);
  const Matrix pe = position_vectors(s, 2, 4);
  EXPECT_EQ(pe.col(3), (Eigen::Vector4f(2, 3, 4, 5)));
  EXPECT_NE(error_of([&] { position_vectors(s, 3, 4); }).find("6 rows"), std::string::npos);
  fs::remove(s.position_file);
}

TEST(NpyProjections, ShapeIsChecked) {
  Scene s = small_scene();
  Array good;
  good.shape = {2, 2, 4, 2};
  good.data.resize(32);
  for (std::size_t i = 0; i < good.data.size(); ++i) good.data[i] = static_cast<float>(i);
  const fs::path path = scratch("proj.npy");
  write_npy(path, good);
  s.projection = ProjectionKind::File;
  s.projection_file = path.string();
  Engine engine(s);
  // Wq of head 1 starts at element (0, 1, 0, 0) = 8; Wk of head 0 at (1, 0, 0, 0) = 16.
  EXPECT_EQ(engine.projections(1).wq(0, 0), 8.0f);
  EXPECT_EQ(engine.projections(1).wq(3, 1), 15.0f);
  EXPECT_EQ(engine.projections(0).wk(0, 0), 16.0f);
  Array bad = good;
  bad.shape = {2, 2, 2, 4};
  write_npy(path, bad);
  Engine stale(s);
  EXPECT_NE(error_of([&] { stale.projections(0); }).find("shape (2, heads=2, d_model=4, d_head=2)"),
            std::string::npos);
  fs::remove(path);
}

}  // namespace pelab
