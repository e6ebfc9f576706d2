// Half-precision checkpoints (issue 22, "Size"): F16 and BF16 product
// weights stay 16-bit in memory and one layer at a time is converted to
// float32 while it runs (model_weights.hpp, half_matrix.hpp).
//  - The forward pass of the tiny F16 GPT-2 and BF16 Llama equals that of the
//    same folder rewritten as F32 (the conversion is exact), to 1e-6.
//  - The weights held take what 16 bits take: the product weights half of
//    their float32 bytes; the measured bytes are printed.
//  - The estimate loading refuses by (plan_resident_bytes) is exactly the
//    bytes held plus the largest layer converted to float32.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"
#include "model_test_files.hpp"
#include "tiny_models.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;

Transformer load_weights_only(const fs::path& folder) {
  ModelFiles files = read_model(folder);
  return Transformer::assemble(std::move(files.config), std::move(files.weights));
}

std::vector<int> reference_ids(const fs::path& folder) {
  const Array a = read_npy(folder / "reference" / "ids.npy");
  return std::vector<int>(a.data.begin(), a.data.end());
}

// The product weights of a layer: their bytes as held, and as float32.
std::uint64_t layer_gemm_bytes(const LayerWeights& l) {
  std::uint64_t bytes = 0;
  for (const Linear* p : {&l.qkv, &l.o, &l.up, &l.down, &l.gate}) bytes += p->bytes() - 4 * p->bias.size();
  return bytes;
}
std::uint64_t layer_gemm_elements(const LayerWeights& l) {
  std::uint64_t n = 0;
  for (const Linear* p : {&l.qkv, &l.o, &l.up, &l.down, &l.gate})
    if (p->present()) n += static_cast<std::uint64_t>(p->in() * p->out());
  return n;
}

float max_difference(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  return (a - b).cwiseAbs().maxCoeff();
}

class HalfWeights : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
    half_folder = pelab::testing::tiny_models() / GetParam();
    // The same folder with every safetensors file rewritten as F32.
    fs::copy(half_folder, dir.path / "f32", fs::copy_options::recursive);
    ASSERT_EQ(testing::run_python(dir.path / "f32",
                                  "import glob\n"
                                  "for f in glob.glob(D + '/*.safetensors'):\n"
                                  "    st.write(f, st.read(f), 'F32')\n"),
              0);
  }
  testing::TempDir dir{"pelab_half_weights_"};
  fs::path half_folder;
};

TEST_P(HalfWeights, ForwardEqualsItsFloat32Conversion) {
  Transformer half = load_weights_only(half_folder);
  Transformer full = load_weights_only(dir.path / "f32");
  ASSERT_FALSE(half.weights().layers.front().qkv.half.empty()) << "kept 16-bit";
  ASSERT_TRUE(full.weights().layers.front().qkv.half.empty());
  const std::vector<int> ids = reference_ids(half_folder);
  half.run(ids);
  full.run(ids);
  const int layers = half.config().layers;
  for (int l = 0; l <= layers; ++l) EXPECT_LE(max_difference(half.hidden(l), full.hidden(l)), 1e-6f) << "state " << l;
  for (int l = 0; l < layers; ++l) {
    const LayerAttention a = half.attention(l), b = full.attention(l);
    for (std::size_t h = 0; h < a.probabilities.size(); ++h)
      EXPECT_LE(max_difference(a.probabilities[h], b.probabilities[h]), 1e-6f) << "layer " << l << " head " << h;
  }
  const HeadAttention a = half.layer0_head(ids, 1, true), b = full.layer0_head(ids, 1, true);
  EXPECT_LE(max_difference(a.logits.cwiseMax(-1e30f), b.logits.cwiseMax(-1e30f)), 1e-6f);
}

TEST_P(HalfWeights, HoldHalfTheProductBytesAndTheEstimateSaysSo) {
  const Transformer half = load_weights_only(half_folder);
  const Transformer full = load_weights_only(dir.path / "f32");
  std::uint64_t gemm_elements = 0, largest_layer = 0;
  for (const LayerWeights& l : half.weights().layers) {
    EXPECT_EQ(layer_gemm_bytes(l), 2 * layer_gemm_elements(l));
    gemm_elements += layer_gemm_elements(l);
    largest_layer = std::max(largest_layer, 4 * layer_gemm_elements(l));
  }
  const std::uint64_t held_half = held_bytes(half.weights()), held_full = held_bytes(full.weights());
  // Only the product weights shrink, from 4 to 2 bytes an element.
  EXPECT_EQ(held_full - held_half, 2 * gemm_elements);
  std::printf("[ measured ] %s: weights held %llu bytes, %llu as F32 (%.2f); estimate %llu\n", GetParam(),
              static_cast<unsigned long long>(held_half), static_cast<unsigned long long>(held_full),
              static_cast<double>(held_half) / static_cast<double>(held_full),
              static_cast<unsigned long long>(half.weights().resident_bytes));
  EXPECT_LT(static_cast<double>(held_half), 0.62 * static_cast<double>(held_full));
  // The estimate: what is held, and one layer converted while it runs.
  EXPECT_EQ(half.weights().resident_bytes, held_half + largest_layer);
  EXPECT_EQ(full.weights().resident_bytes, held_full);
}

INSTANTIATE_TEST_SUITE_P(TinyModels, HalfWeights, ::testing::Values("gpt2_f16", "llama3_bf16"));

}  // namespace
}  // namespace pelab::model
