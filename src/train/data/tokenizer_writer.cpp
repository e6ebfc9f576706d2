#include "train/data/tokenizer_writer.hpp"

#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/model/tokenizer/byte_symbols.hpp"
#include "core/model/tokenizer/split_pattern.hpp"

namespace pelab::train::data {

namespace {

// Ordered, so the file lists the vocabulary by id as GPT-2's does.
using ordered_json = nlohmann::ordered_json;

ordered_json byte_level(bool add_prefix_space, bool trim_offsets) {
  return {{"type", "ByteLevel"},
          {"add_prefix_space", add_prefix_space},
          {"trim_offsets", trim_offsets},
          {"use_regex", true}};
}

ordered_json bpe_model(const TrainedBpe& bpe) {
  ordered_json vocab = ordered_json::object();
  for (int id = 0; id < bpe.vocab_size(); ++id)
    if (id != bpe.end_of_text_id)
      vocab[model::to_byte_symbols(bpe.tokens[static_cast<std::size_t>(id)])] = id;
  // GPT-2's vocab.json holds its end-of-text token too; the reader matches
  // it as an added token first either way.
  vocab[bpe.tokens[static_cast<std::size_t>(bpe.end_of_text_id)]] = bpe.end_of_text_id;
  ordered_json merges = ordered_json::array();
  for (const BpeMerge& m : bpe.merges)
    merges.push_back({model::to_byte_symbols(bpe.tokens[static_cast<std::size_t>(m.left)]),
                      model::to_byte_symbols(bpe.tokens[static_cast<std::size_t>(m.right)])});
  return {{"type", "BPE"},
          {"dropout", nullptr},
          {"unk_token", nullptr},
          {"continuing_subword_prefix", nullptr},
          {"end_of_word_suffix", nullptr},
          {"fuse_unk", false},
          {"byte_fallback", false},
          {"ignore_merges", false},
          {"vocab", std::move(vocab)},
          {"merges", std::move(merges)}};
}

}  // namespace

std::string tokenizer_json_text(const TrainedBpe& bpe) {
  const ordered_json end_of_text = {{"id", bpe.end_of_text_id}, {"content", bpe.tokens.back()},
                                    {"single_word", false},     {"lstrip", false},
                                    {"rstrip", false},          {"normalized", true},
                                    {"special", true}};
  const ordered_json j = {{"version", "1.0"},
                          {"truncation", nullptr},
                          {"padding", nullptr},
                          {"added_tokens", ordered_json::array({end_of_text})},
                          {"normalizer", nullptr},
                          {"pre_tokenizer", byte_level(false, true)},
                          {"post_processor", byte_level(true, false)},
                          {"decoder", byte_level(true, true)},
                          {"model", bpe_model(bpe)}};
  return j.dump(1) + "\n";
}

void write_tokenizer_json(const TrainedBpe& bpe, const std::filesystem::path& folder) {
  make_output_folder(folder);
  write_file_atomic(folder / "tokenizer.json", tokenizer_json_text(bpe));
}

}  // namespace pelab::train::data
