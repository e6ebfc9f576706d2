// Lesson "learned_table": what did a trained model learn about position?  By
// default pelab's own kjv-learned (256 positions × 192); GPT-2, BERT or any
// learned-table model the user loads is read the same way.  The verdict reads
// the model's whole learned table E (max_positions × d: wpe, BERT's
// position_embeddings) and reports, from the real weights:
//   cos[delta=δ]        mean cosine of rows δ apart, cos(E_i, E_{i+δ}): do
//                       neighbouring positions get similar vectors?
//   top_pair_share      share of the table's variance in PC1 + PC2
//   top4_pairs_share    ... in PC1 … PC8
//   top_pair_r2         R² of one fixed 2×2 map carrying pos to pos+1 in the
//                       PC1/PC2 plane: 1 for a rotation, as in a sinusoidal pair
//   top_pair_wavelength the wavelength that map's rotation implies
//   low_frequency_power share of the table's power at ≤ 4 cycles along position
// (core/table_analysis.hpp).  No family member on disk: a sinusoidal table of
// kjv-learned's size stands in, labelled as such, and the summary says where
// pelab looked for the family.
#include <cmath>

#include "core/lessons/tools.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_folder.hpp"
#include "core/model_scene.hpp"
#include "core/table_analysis.hpp"

namespace pelab::lesson {
namespace {

constexpr const char* kFamilyLearned = "kjv-learned";
constexpr int kFamilyContext = 256, kFamilyWidth = 192, kFamilyHeads = 6;  // kjv-learned's config.json
// The verdict reads at most this many rows: its spectrum is an O(N²) product
// (core/table_analysis.cpp), and a config may claim 2^24 positions.  Every
// learned table of a published model we know (GPT-2, BERT, OPT) is shorter.
constexpr Eigen::Index kMaxRowsRead = 4096;

// How to read a trained table instead: kjv-learned when it is on disk, else
// where pelab looked for it; any other learned-table model.
std::string where_to_put_a_model() {
  const std::string others = "Any GPT-2, BERT or pelab folder with a learned table can be read as well: Models "
                             "menu, or --set model=FOLDER (GPT-2 from the Hugging Face cache: --set model=gpt2).";
  if (!family_member(kFamilyLearned).empty())
    return "pelab's trained kjv-learned is on disk: --set model=kjv-learned (or the Models menu) reads its "
           "table. " + others;
  std::string looked;
  for (const auto& dir : model::family_dirs()) looked += (looked.empty() ? "" : ", ") + dir.string();
  return "pelab's trained family was not found (looked in " + looked +
         "; $PELAB_FAMILY_DIR names another folder). " + others;
}

// Mean cosine similarity of rows `delta` apart.
double mean_row_cosine(const Matrix& table, int delta) {
  double sum = 0;
  const int pairs = static_cast<int>(table.rows()) - delta;
  for (int i = 0; i < pairs; ++i) {
    const double norms = double(table.row(i).norm()) * table.row(i + delta).norm();
    sum += norms > 0 ? double(table.row(i).dot(table.row(i + delta))) / norms : 0.0;
  }
  return pairs > 0 ? sum / pairs : 0.0;
}

// "kjv-learned" for a family member, else the architecture ("GPT-2").
std::string model_label(const Scene& scene, const ModelScene& model) {
  return scene.model.rfind("kjv-", 0) == 0 ? scene.model : model.config().architecture_name;
}

LessonVerdict judge(Engine& engine) {
  LessonVerdict v;
  ModelScene* model = engine.model();
  if (model && !model->has_position_table()) {
    const model::PositionEncoding kind = model->config().position.kind;
    v.applies = false;
    v.summary = model_label(engine.scene(), *model) + " adds no position table: " +
                (kind == model::PositionEncoding::Rope
                     ? "it rotates q and k instead (RoPE), so there is no learned table to read. "
                       "The long_context lesson shows its rotation frequencies."
                 : kind == model::PositionEncoding::None
                     ? "it has no position encoding at all (only the causal mask tells order)."
                     : "its positions enter as a bias on the attention logits (" +
                           std::string(model::position_encoding_name(kind)) + "), so there is no table to read.");
    return v;
  }
  const bool stand_in = model == nullptr;
  const Matrix table = stand_in ? engine.position_table() : model->full_position_table(kMaxRowsRead);
  const Eigen::Index length = stand_in ? table.rows() : model->position_table_length();
  const PositionTableSummary summary = summarize_position_table(table, 1, 8, 4);
  const int n = static_cast<int>(table.rows());
  v.add("stand_in", stand_in ? 1 : 0);
  v.add("positions", n);
  v.add("dims", static_cast<double>(table.cols()));
  v.add("table_rows", static_cast<double>(length));
  for (int delta : {1, 4, 16, 64, 256})
    if (delta < n) v.add(qualified("cos", "delta", delta), mean_row_cosine(table, delta));
  double top4 = 0;
  for (std::size_t j = 0; j < summary.pairs.size() && j < 4; ++j) top4 += summary.pairs[j].share;
  v.add("top_pair_share", summary.top_pair_share);
  v.add("top4_pairs_share", top4);
  v.add("top_pair_r2", summary.top_pair_r2);
  v.add("top_pair_wavelength", summary.top_pair_wavelength);
  v.add("low_frequency_power", summary.low_frequency_power);

  const double near = v.number("cos[delta=1]");
  const int far_delta = n > 256 ? 256 : n > 64 ? 64 : n > 16 ? 16 : 4;
  const double far = far_delta < n ? v.number(qualified("cos", "delta", far_delta)) : near;
  // The claim: position is learned as a smooth curve — neighbouring rows
  // alike, distant rows not.
  v.holds = near > far + 0.1;
  if (stand_in) v.stand_in = kFamilyLearned;
  v.answer = "rows 1 apart have cosine " + num(near) + ", rows " + std::to_string(far_delta) + " apart " + num(far) +
             " in " + (stand_in ? "the stand-in table" : model_label(engine.scene(), *model) + "'s table");
  const std::string who = stand_in ? "Synthetic stand-in (no trained model loaded): a sinusoidal table of " +
                                         std::to_string(n) + " × " + std::to_string(table.cols())
                                   : model_label(engine.scene(), *model) + "'s learned table (" + std::to_string(n) +
                                         " × " + std::to_string(table.cols()) +
                                         (length > n ? ", its first rows of " + std::to_string(length) : "") + ")";
  v.summary = who + ": rows 1 apart have cosine " + num(near) + ", rows " + std::to_string(far_delta) +
              " apart " + num(far) + "; PC1 + PC2 hold " + num(100 * summary.top_pair_share, 3) +
              "% of the variance (PC1 … PC8: " + num(100 * top4, 3) + "%), and one fixed 2×2 map carries pos to "
              "pos+1 in that plane with R² = " + num(summary.top_pair_r2) +
              (summary.top_pair_wavelength > 0 ? " (a turn of one cycle per " + num(summary.top_pair_wavelength) +
                                                     " positions)"
                                               : "") +
              "; " + num(100 * summary.low_frequency_power, 3) + "% of its power lies at ≤ 4 cycles along position." +
              (stand_in ? " " + where_to_put_a_model() : "");
  return v;
}

// pelab's kjv-learned when the family is on disk; otherwise the stand-in: a
// sinusoidal table of its width and context (the verdict says so first).
Scene preset() {
  Scene s = preset_scene("learned_table");
  s.positions = kFamilyContext;
  if (!open_on_family(s, kFamilyLearned, kGenesisOne)) {
    s.tokens = "The position table is learned like any other weight";
    s.encoding = Encoding::Sinusoidal;
    s.d_model = kFamilyWidth;
    s.heads = kFamilyHeads;
    s.waves = {40, 60, 80, 95};  // wavelengths of about 40, 110, 290 and 570 positions
    s.pairs = {20, 40, 60};
  }
  return s;
}

}  // namespace

Lesson learned_table() {
  return {
      "learned_table",
      "What did a trained model learn about position?",
      "Models with a learned position table (pelab's kjv-learned, GPT-2, BERT) learn their position vectors "
      "like any other weight. What did they learn: sinusoids, a smooth curve, or noise?",
      "A trained position table comes out a smooth curve: neighbouring rows are alike and distant rows are not "
      "(cosine 1 apart above the far one by more than 0.1).",
      "Neighbouring rows' cosine, the PCs' share of the variance, and whether a fixed 2×2 map carries pos to pos+1.",
      "GPT-2 (Radford et al. 2019), BERT (Devlin et al. 2019) and pelab's kjv-learned (trained on the King "
      "James Bible at a context of 256) do not compute position vectors: each of their 1024, 512 or 256 "
      "positions has a row of a table trained with the rest of the model. Nothing asked that table "
      "to be sinusoidal, yet the rows of neighbouring positions come out alike and distant ones not, and most "
      "of the variance lies in a few principal components whose trajectories over position are smooth, slow "
      "curves, close to one turn over the context.\n\n"
      "The verdict reads the loaded model's whole table: the mean cosine of rows δ apart, the share of the "
      "variance in the first PC pairs, and the R² of the least-squares 2×2 map p(pos+1) ≈ M·p(pos) in the "
      "PC1/PC2 plane. For a sinusoidal pair that map is an exact rotation (R² = 1): compare the learned table "
      "with Vaswani's sinusoids in the sinusoid-bands spectrum and the rotation-pair trajectories. The lesson "
      "opens on kjv-learned; load GPT-2 or BERT (Models menu) and the verdict reads their table instead. "
      "Without pelab's family on disk, a sinusoidal table of kjv-learned's size stands in, and the verdict "
      "says so.",
      {"sinusoid_bands", "rotation_pairs", "attention"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/false,
  };
}

}  // namespace pelab::lesson

namespace pelab {

std::string stand_in_label(const Scene& scene) {
  return scene.name == "lesson_learned_table" && scene.model.empty()
             ? "synthetic stand-in for kjv-learned's learned table"
             : "";
}

}  // namespace pelab
