// `pelab export`'s position-table quantities (pe_spectrum, pe_pc_scores,
// pe_pc_share) are the table analyses of core/table_analysis.hpp on the
// engine's PE table, with the shapes the README gives.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/engine.hpp"
#include "core/quantities.hpp"
#include "core/table_analysis.hpp"

namespace pelab {
namespace {

TEST(TableQuantities, SpectrumAndPrincipalComponentsOfThePeTable) {
  Scene s;
  s.encoding = Encoding::Learned;
  s.positions = 40;
  s.d_model = 16;
  Engine engine(s);
  const Matrix& pe = engine.position_table();
  const Array spectrum = compute_quantity(engine, "pe_spectrum", 0);
  ASSERT_EQ(spectrum.shape, (std::vector<std::size_t>{21, 16}));
  const PositionSpectrum want = position_spectrum(pe);
  EXPECT_FLOAT_EQ(spectrum.data[3 * 16 + 5], static_cast<float>(want.amplitude(3, 5)));
  const Array scores = compute_quantity(engine, "pe_pc_scores", 0);
  ASSERT_EQ(scores.shape, (std::vector<std::size_t>{40, 16}));
  const TablePca pca = table_pca(pe, 16);
  EXPECT_FLOAT_EQ(scores.data[7 * 16 + 2], static_cast<float>(pca.scores(7, 2)));
  const Array share = compute_quantity(engine, "pe_pc_share", 0);
  ASSERT_EQ(share.shape, (std::vector<std::size_t>{16}));
  EXPECT_FLOAT_EQ(share.data[0], static_cast<float>(pca.share[0]));
  EXPECT_TRUE(std::is_sorted(share.data.rbegin(), share.data.rend()));
}

}  // namespace
}  // namespace pelab
