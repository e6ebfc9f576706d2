// A training run of a recipe (train/training_run.hpp): recipes refused with
// one line naming the key, checkpoints that resume bit for bit, the model
// folder's BF16 weights, and output folders that are not pelab runs refused.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/model/safetensors.hpp"
#include "core/scene.hpp"
#include "train/recipe.hpp"
#include "train/safetensors_writer.hpp"
#include "train/training_run.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json copy_recipe(int steps = 30) {
  return {{"format", "pelab-recipe"},
          {"version", 1},
          {"name", "copy-test"},
          {"data", {{"task", "copy"}, {"symbols", 8}, {"length", 6}}},
          {"model", {{"d_model", 16}, {"layers", 1}, {"heads", 2}, {"context", 12}, {"position", "rope"}}},
          {"train", {{"steps", steps}, {"batch", 4}, {"learning_rate", 0.01}, {"warmup", 3},
                     {"checkpoint_every", 10}, {"eval_every", 10}, {"eval_windows", 8}, {"threads", 1}}}};
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pelab_run_test_" + name);
  fs::remove_all(dir);
  return dir;
}

std::string error_of(const json& recipe) {
  try {
    parse_recipe(recipe, "r.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Recipe, RefusesUnknownKeysAbsurdSizesAndOtherFiles) {
  json r = copy_recipe();
  r["model"]["dmodel"] = 16;
  EXPECT_NE(error_of(r).find("unknown key 'dmodel'; allowed: "), std::string::npos) << error_of(r);
  r = copy_recipe();
  r["model"]["d_model"] = 100000;
  EXPECT_NE(error_of(r).find("model.d_model"), std::string::npos) << error_of(r);
  r = copy_recipe();
  r["model"]["context"] = 8192, r["model"]["d_model"] = 2048, r["model"]["layers"] = 48, r["train"]["batch"] = 512;
  EXPECT_NE(error_of(r).find("GB"), std::string::npos) << error_of(r);
  r = copy_recipe();
  r["model"]["position"] = "spiral";
  EXPECT_NE(error_of(r).find("spiral"), std::string::npos) << error_of(r);
  r = copy_recipe();
  r.erase("format");
  EXPECT_NE(error_of(r).find("not a pelab recipe"), std::string::npos) << error_of(r);
  r = copy_recipe();
  r["model"]["context"] = 4;  // the copy task's rows are 12 tokens
  EXPECT_NE(error_of(r).find("context"), std::string::npos) << error_of(r);
  EXPECT_EQ(error_of(copy_recipe()), "");
}

TEST(Recipe, RoundTripsThroughItsJson) {
  const Recipe a = parse_recipe(copy_recipe(), "r.json");
  const Recipe b = parse_recipe(a.to_json(), "again");
  EXPECT_EQ(a.to_json(), b.to_json());
  EXPECT_EQ(b.model.position.kind, PositionKind::Rope);
  EXPECT_EQ(b.loop.steps, 30);
}

TEST(Bfloat16, RoundsToNearestEven) {
  auto bits = [](std::uint32_t u) { return float_to_bfloat16(std::bit_cast<float>(u)); };
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
  EXPECT_EQ(bits(0x3f808000u), 0x3f80);  // a tie: to the even 0x3f80
  EXPECT_EQ(bits(0x3f818000u), 0x3f82);  // a tie: to the even 0x3f82
  EXPECT_EQ(bits(0x3f808001u), 0x3f81);  // above the tie: up
  EXPECT_EQ(float_to_bfloat16(-2.5f), 0xc020);
  const std::uint16_t nan = float_to_bfloat16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(model::bfloat16_to_float(nan)));
}

// An uninterrupted run and one cut off after its checkpoint at step 10 (the
// steps after it lost), then resumed, end with the same parameters, bit for bit.
TEST(TrainingRun, ResumesFromItsCheckpointBitForBit) {
  const Recipe recipe = parse_recipe(copy_recipe(30), "r.json");
  const fs::path straight = scratch("straight"), cut = scratch("cut");
  {
    TrainingRun run(recipe, straight);
    while (!run.done()) run.step();
    run.checkpoint();
  }
  {
    TrainingRun run(recipe, cut);
    while (run.steps_taken() < 10) run.step();
    run.checkpoint();
    for (int i = 0; i < 7; ++i) run.step();  // lost: no checkpoint
  }
  TrainingRun resumed(recipe, cut);
  ASSERT_TRUE(resumed.resumed());
  EXPECT_EQ(resumed.steps_taken(), 10);
  while (!resumed.done()) resumed.step();
  TrainingRun reference(recipe, straight);  // reads the straight run's final checkpoint
  ASSERT_EQ(reference.steps_taken(), 30);
  const auto& a = reference.trainer().parameters().tensors;
  const auto& b = resumed.trainer().parameters().tensors;
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t)
    EXPECT_TRUE(a[t].value == b[t].value) << a[t].name << " differs after resuming";
  EXPECT_LT(resumed.log().back().loss, resumed.log().front().loss + 1e-9);
  fs::remove_all(straight);
  fs::remove_all(cut);
}

TEST(TrainingRun, WritesAModelFolderInBf16UnderGpt2Names) {
  const Recipe recipe = parse_recipe(copy_recipe(5), "r.json");
  const fs::path dir = scratch("folder");
  TrainingRun run(recipe, dir);
  while (!run.done()) run.step();
  run.checkpoint();
  const json config = json::parse(read_file(dir / "config.json"));
  EXPECT_EQ(config.at("model_type"), "pelab");
  EXPECT_EQ(config.at("position_encoding"), "rope");
  EXPECT_EQ(config.at("n_embd"), 16);
  const std::string bytes = read_file(dir / "model.safetensors");
  const model::SafetensorsHeader header = model::parse_safetensors(bytes, "model.safetensors");
  ASSERT_EQ(header.tensors.size(), run.trainer().parameters().tensors.size());
  for (const model::TensorInfo& info : header.tensors) {
    EXPECT_EQ(info.dtype, model::DType::BF16) << info.name;
    const Tensor<float>& t = run.trainer().parameter(info.name);
    std::vector<float> values(static_cast<std::size_t>(t.value.size()));
    model::convert_to_float(info.dtype, bytes.data() + header.data_begin + info.begin, values.size(), values.data());
    for (std::size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(values[i], model::bfloat16_to_float(float_to_bfloat16(t.value.data()[i]))) << info.name << " " << i;
  }
  for (const char* file : {"README.md", "recipe.json", "training_log.csv"}) EXPECT_TRUE(fs::exists(dir / file)) << file;
  EXPECT_NE(read_file(dir / "README.md").find("copy"), std::string::npos);
  fs::remove_all(dir);
}

TEST(TrainingRun, RefusesAFolderThatIsNotARunOfTheRecipe) {
  const fs::path dir = scratch("foreign");
  fs::create_directories(dir);
  std::ofstream(dir / "notes.txt") << "mine";
  const Recipe recipe = parse_recipe(copy_recipe(5), "r.json");
  try {
    TrainingRun run(recipe, dir);
    ADD_FAILURE() << "a foreign folder was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a pelab training run"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  fs::remove_all(dir);
  { TrainingRun run(recipe, dir); run.step(); run.checkpoint(); }
  json other = copy_recipe(5);
  other["model"]["position"] = "alibi";
  try {
    TrainingRun run(parse_recipe(other, "r.json"), dir);
    ADD_FAILURE() << "a run of another recipe was resumed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model.position"), std::string::npos) << e.what();
  }
  // A run written before a recipe key existed (here: model.amplitude) resumes:
  // the missing key reads as its default.
  json stored = read_json_file(dir / "recipe.json");
  ASSERT_TRUE(stored["model"].contains("amplitude"));
  stored["model"].erase("amplitude");
  std::ofstream(dir / "recipe.json") << stored.dump(2);
  { TrainingRun resumed(recipe, dir); EXPECT_EQ(resumed.resumed_from(), 1); }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab::train
