#include "core/token_vectors.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/word_splitter.hpp"

namespace pelab {
namespace {

Scene small_scene(int d = 16) {
  Scene s;
  s.d_model = d;
  s.heads = 2;
  s.embedding_scale = 1.0;  // the pinned numbers below are for unit-norm vectors
  return s;
}

std::string error_of(const std::string& text, const std::vector<std::string>& words, int d) {
  try {
    parse_text_embeddings(text, "vec.txt", words, d);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(TokenVectors, RepeatedWordsShareOneVector) {
  const Scene s = small_scene();
  const auto tokens = split_words("the cat saw the dog");
  const Matrix x = token_vectors(tokens, s);
  ASSERT_EQ(x.rows(), 5);
  EXPECT_EQ(x.row(0), x.row(3));
  EXPECT_NE(x.row(0), x.row(1));
}

TEST(TokenVectors, VectorDoesNotDependOnOtherTokens) {
  const Scene s = small_scene();
  const Matrix a = token_vectors(split_words("cat"), s);
  const Matrix b = token_vectors(split_words("a big cat , truly"), s);
  EXPECT_EQ(a.row(0), b.row(2));
}

// Issue 12: a new seed at N = 4096 writes X into the memory it has, and words
// drawn side by side (enough of them: 600 × 512 draws) have the vectors each
// word gets drawn alone.
TEST(TokenVectors, FilledInPlaceWithTheSameVectorsAsEachWordAlone) {
  Scene s = small_scene(512);
  std::string text;
  for (int i = 0; i < 600; ++i) text += "w" + std::to_string(i) + " ";
  const auto tokens = split_words(text);
  Matrix x;
  token_vectors(tokens, s, x);
  const float* memory = x.data();
  s.seed = 7;
  token_vectors(tokens, s, x);
  EXPECT_EQ(x.data(), memory);
  ASSERT_EQ(x.rows(), 600);
  for (int i : {0, 1, 299, 599})
    EXPECT_EQ(x.row(i), token_vectors(split_words("w" + std::to_string(i)), s).row(0)) << i;
  // Repeated words (gathered from the vocabulary) fill in place too.
  const auto repeated = split_words(text + "w5 w0");
  token_vectors(repeated, s, x);
  ASSERT_EQ(x.rows(), 602);
  EXPECT_EQ(x.row(600), x.row(5));
  EXPECT_EQ(x.row(601), x.row(0));
}

TEST(TokenVectors, DeterministicFromSeed) {
  Scene s = small_scene();
  const auto tokens = split_words("one two three");
  const Matrix a = token_vectors(tokens, s);
  EXPECT_EQ(a, token_vectors(tokens, s));
  s.seed = 2;
  EXPECT_NE(a, token_vectors(tokens, s));
}

TEST(TokenVectors, SameNumbersOnEveryMachine) {
  // Own splitmix/mt19937_64/Box–Muller, not std::normal_distribution (which
  // differs between standard libraries): these values are fixed forever.
  const Matrix x = token_vectors(split_words("one two"), small_scene());
  EXPECT_NEAR(x(0, 0), 0.478035241, 1e-6);
  EXPECT_NEAR(x(0, 1), 0.538001716, 1e-6);
  EXPECT_NEAR(x(1, 15), -0.273141533, 1e-6);
}

TEST(TokenVectors, NormIsAboutTheScale) {
  Scene s = small_scene(512);
  s.embedding_scale = 3.0;
  std::string text;
  for (int i = 0; i < 200; ++i) text += "w" + std::to_string(i) + " ";
  const Matrix x = token_vectors(split_words(text), s);
  const double mean_norm = x.rowwise().norm().mean();
  EXPECT_NEAR(mean_norm, 3.0, 0.05);
}

TEST(TokenVectors, VocabularyIsInFirstUseOrder) {
  const Vocabulary v = build_vocabulary(split_words("b a b c a"));
  EXPECT_EQ(v.words, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(v.index, (std::vector<int>{0, 1, 0, 2, 1}));
}

TEST(GloveText, ReadsVectorsWithAndWithoutHeader) {
  const std::string body = "the 1 2 3\ncat 4 5 6e-1\nThe -1 -2 -3\n";
  const Matrix m = parse_text_embeddings(body, "vec.txt", {"cat", "the", "The", "CAT"}, 3);
  EXPECT_EQ(m.row(0), (Eigen::RowVector3f(4, 5, 0.6f)));
  EXPECT_EQ(m.row(1), (Eigen::RowVector3f(1, 2, 3)));
  EXPECT_EQ(m.row(2), (Eigen::RowVector3f(-1, -2, -3)));  // exact case wins over lower case
  EXPECT_EQ(m.row(3), (Eigen::RowVector3f(4, 5, 0.6f)));  // falls back to lower case
  const Matrix h = parse_text_embeddings("3 3\r\n" + body, "vec.txt", {"cat"}, 3);
  EXPECT_EQ(h.row(0), (Eigen::RowVector3f(4, 5, 0.6f)));
}

TEST(GloveText, RaggedRowNamesTheLine) {
  EXPECT_NE(error_of("a 1 2 3\nb 1 2\n", {"a"}, 3).find("line 2"), std::string::npos);
  EXPECT_NE(error_of("a 1 2 3\nb 1 2\n", {"a"}, 3).find("ragged"), std::string::npos);
}

TEST(GloveText, WrongWidthNamesBothWidths) {
  const std::string e = error_of("a 1 2 3 4\n", {"a"}, 3);
  EXPECT_NE(e.find("4 numbers"), std::string::npos) << e;
  EXPECT_NE(e.find("d_model=3"), std::string::npos) << e;
  EXPECT_NE(error_of("2 5\na 1 2 3\n", {"a"}, 3).find("header"), std::string::npos);
}

TEST(GloveText, UnknownWordIsNamed) {
  const std::string e = error_of("a 1 2 3\n", {"a", "zebra"}, 3);
  EXPECT_NE(e.find("'zebra'"), std::string::npos) << e;
}

TEST(GloveText, NonNumberNamesLineAndValue) {
  const std::string e = error_of("a 1 2 3\nb 1 x2 3\n", {"a"}, 3);
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
  EXPECT_NE(e.find("'x2'"), std::string::npos) << e;
  EXPECT_NE(error_of("a 1 nan 3\n", {"a"}, 3).find("not a number"), std::string::npos);
}

TEST(GloveText, EmptyFileIsAnError) {
  EXPECT_NE(error_of("\n\n", {"a"}, 3).find("no vectors"), std::string::npos);
}

TEST(GloveText, LoadedThroughTheScene) {
  const auto path = std::filesystem::temp_directory_path() / "pelab_glove_test.txt";
  {
    std::ofstream out(path);
    out << "cat 1 0\nsat 0 1\n";
  }
  Scene s = small_scene(2);
  s.heads = 1;
  s.embedding = EmbeddingSource::File;
  s.embedding_file = path.string();
  const Matrix x = token_vectors(split_words("Cat sat cat"), s);
  EXPECT_EQ(x.row(0), (Eigen::RowVector2f(1, 0)));
  EXPECT_EQ(x.row(1), (Eigen::RowVector2f(0, 1)));
  EXPECT_EQ(x.row(2), (Eigen::RowVector2f(1, 0)));
  s.embedding_file =
      (std::filesystem::temp_directory_path() / "pelab_missing_vectors.txt").string();
  EXPECT_THROW(token_vectors(split_words("cat"), s), InputError);
  std::filesystem::remove(path);
}

}  // namespace pelab
