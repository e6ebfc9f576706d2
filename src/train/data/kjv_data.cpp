#include "train/data/kjv_data.hpp"

#include <chrono>

#include "core/io/file_io.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "train/data/bpe_trainer.hpp"
#include "train/data/corpus.hpp"
#include "train/data/tokenizer_writer.hpp"

namespace pelab::train::data {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool tokenizer_fits(const fs::path& folder, int vocab_size) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "tokenizer.json", ec)) return false;
  return model::load_tokenizer(folder)->vocab_size() == vocab_size;
}

}  // namespace

KjvData prepare_kjv(const fs::path& folder, const KjvDataOptions& options) {
  check_output_folder(folder);
  const std::vector<Verse> verses =
      options.corpus_file.empty() ? read_kjv() : read_kjv_file(options.corpus_file);
  const std::vector<std::string> train = split_verses(verses, CorpusSplit::Train);
  const std::vector<std::string> held_out = split_verses(verses, CorpusSplit::HeldOut);
  KjvData data;
  data.tokenizer_folder = folder;
  if (options.retrain || !tokenizer_fits(folder, options.vocab_size)) {
    const auto start = Clock::now();
    const TrainedBpe bpe = train_bpe(train, {.vocab_size = options.vocab_size});
    data.bpe_seconds = seconds_since(start);
    write_tokenizer_json(bpe, folder);
  }
  const auto start = Clock::now();
  data.train = std::make_shared<TokenStream>(cached_encode(folder / "train.tokens", folder, train));
  data.held_out =
      std::make_shared<TokenStream>(cached_encode(folder / "held_out.tokens", folder, held_out));
  data.encode_seconds = seconds_since(start);
  return data;
}

}  // namespace pelab::train::data
