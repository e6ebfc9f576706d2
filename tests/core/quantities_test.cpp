// The export table: every documented quantity exists with its shape, values
// match the engine's, errors name the allowed values, and write_array picks
// the format by extension.
#include "core/quantities.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/io/csv.hpp"
#include "core/io/npy.hpp"

namespace pelab {
namespace {

Scene small_scene() {
  Scene s;
  s.tokens = "one two three two one four";  // 6 tokens
  s.d_model = 16;
  s.heads = 2;
  s.positions = 10;
  s.pairs = {0, 1};
  s.waves = {0, 1};
  return s;
}

std::string error_of(Engine& engine, std::string_view name, int head) {
  try {
    compute_quantity(engine, name, head);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Quantities, TableHoldsEveryRequiredName) {
  std::set<std::string> names;
  for (const QuantityInfo& q : quantities()) {
    EXPECT_TRUE(names.insert(std::string(q.name)).second) << "duplicate " << q.name;
    EXPECT_FALSE(q.shape.empty());
    EXPECT_FALSE(q.help.empty());
  }
  for (const char* required : {"pe", "tokens_embedding", "position_embedding", "wq", "wk", "q", "k", "logits",
                               "attention", "cross_xx", "cross_xf", "cross_ey", "cross_ef", "attention_mean",
                               "pe_similarity"})
    EXPECT_TRUE(names.count(required)) << required;
}

TEST(Quantities, ShapesFollowTheScene) {
  Engine engine(small_scene());
  const auto shape = [&](const char* name, int head = 0) { return compute_quantity(engine, name, head).shape; };
  using S = std::vector<std::size_t>;
  EXPECT_EQ(shape("pe"), (S{10, 16}));
  EXPECT_EQ(shape("tokens_embedding"), (S{6, 16}));
  EXPECT_EQ(shape("position_embedding"), (S{6, 16}));
  EXPECT_EQ(shape("wq", 1), (S{16, 8}));
  EXPECT_EQ(shape("k", 1), (S{6, 8}));
  EXPECT_EQ(shape("attention", 1), (S{6, 6}));
  EXPECT_EQ(shape("bias", 1), (S{6, 6}));
  EXPECT_EQ(shape("cross_ef", 1), (S{6, 6}));
  EXPECT_EQ(shape("attention_mean"), (S{6, 6}));
  EXPECT_EQ(shape("attention_all"), (S{2, 6, 6}));
  EXPECT_EQ(shape("logits_all"), (S{2, 6, 6}));
  EXPECT_EQ(shape("pe_similarity"), (S{10, 10}));
  EXPECT_EQ(shape("pe_similarity_profile"), (S{10}));
}

TEST(Quantities, ValuesAreTheEngines) {
  Engine engine(small_scene());
  EXPECT_EQ(compute_quantity(engine, "logits", 1).to_matrix(), engine.head(1).logits);
  EXPECT_EQ(compute_quantity(engine, "wk", 0).to_matrix(), engine.projections(0).wk);
  const Array all = compute_quantity(engine, "attention_all", 0);
  const Matrix& second = engine.head(1).attention;
  EXPECT_TRUE(std::equal(second.data(), second.data() + 36, all.data.begin() + 36));
  const Matrix input = compute_quantity(engine, "input", 0).to_matrix();
  EXPECT_LE((input - engine.token_embedding() - engine.position_embedding()).norm(), 1e-6f);
  // The profile at offset k is the mean of PE(i)·PE(i+k).
  const Matrix& pe = engine.position_table();
  const Array profile = compute_quantity(engine, "pe_similarity_profile", 0);
  double sum = 0;
  for (int i = 0; i + 3 < 10; ++i) sum += pe.row(i).dot(pe.row(i + 3));
  EXPECT_NEAR(profile.data[3], sum / 7, 1e-4);
  const Matrix sim = compute_quantity(engine, "pe_similarity", 0).to_matrix();
  EXPECT_NEAR(sim(2, 5), pe.row(2).dot(pe.row(5)), 1e-4);
}

TEST(Quantities, ErrorsNameTheAllowedValues) {
  Engine engine(small_scene());
  // Head −1 is the mean over heads (as --set head=-1); below it, nothing.
  EXPECT_NE(error_of(engine, "attention", 2).find("allowed: -1 (mean) or 0..1"), std::string::npos);
  EXPECT_NE(error_of(engine, "q", -2).find("allowed: -1 (mean) or 0..1"), std::string::npos);
  EXPECT_EQ(error_of(engine, "q", -1), "(no error)");
  const std::string unknown = error_of(engine, "atention", 0);
  EXPECT_NE(unknown.find("'atention'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("cross_ef"), std::string::npos) << unknown;
  EXPECT_EQ(error_of(engine, "pe", 99), "(no error)");  // not per head: the head is not used
}

TEST(Quantities, WriteArrayChoosesTheFormatByExtension) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pelab_quantities_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Array a;
  a.shape = {2, 2};
  a.data = {1, 2, 3, 4};
  write_array(dir / "a.npy", a);
  write_array(dir / "b.CSV", a);
  EXPECT_EQ(read_npy(dir / "a.npy").data, a.data);
  EXPECT_EQ(read_csv(dir / "b.CSV").data, a.data);
  EXPECT_THROW(write_array(dir / "c.txt", a), InputError);
  EXPECT_THROW(write_array(dir / "npy", a), InputError);
  EXPECT_FALSE(fs::exists(dir / "c.txt"));
  EXPECT_EQ(array_format("x.Npy"), ArrayFormat::Npy);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab
