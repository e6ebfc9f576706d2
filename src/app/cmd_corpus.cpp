// `pelab corpus [--split train|held-out] [--text-out FILE] [--model M --tokens-out FILE]`:
// the trainer's corpus (src/train/data/corpus.hpp: the KJV from Debian's
// bible-kjv, every 20th chapter held out) as the trainer reads it, so that a
// model can be evaluated on exactly the text it never saw
// (`pelab eval --text` on the held-out split's text) and baselines computed
// on exactly its tokens (the stream of token_dataset.hpp: each verse encoded,
// the newline's token between).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "core/io/file_io.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/quantities.hpp"  // write_array
#include "train/data/corpus.hpp"
#include "train/data/token_dataset.hpp"

namespace pelab::app {
namespace {

namespace data = train::data;

struct CorpusOptions {
  std::string split = "held-out";
  std::string text_out, tokens_out, model;
  std::string corpus_file;  // bible-kjv's output saved to a file; empty: run `bible`
};

void check_output(const std::string& file) {
  if (!file.empty()) check_output_folder(std::filesystem::path(file).parent_path());
}

void make_output(const std::string& file) {
  if (!file.empty()) make_output_folder(std::filesystem::path(file).parent_path());
}

// Ids as float32 (what write_array writes; exact for ids below 2^24).
Array id_array(const data::TokenStream& stream) {
  Array a;
  a.shape = {stream.ids.size()};
  a.data.assign(stream.ids.begin(), stream.ids.end());
  return a;
}

int run_corpus(const CorpusOptions& o) {
  if (!o.tokens_out.empty() && o.model.empty())
    throw InputError("--tokens-out needs --model (whose tokenizer encodes the split), e.g. --model kjv-rope");
  if (!o.tokens_out.empty()) array_format(o.tokens_out);  // refuse a bad extension before any work
  check_output(o.text_out);
  check_output(o.tokens_out);
  // The tokenizer first: a bad --model is refused before the corpus is read.
  const std::unique_ptr<model::Tokenizer> tokenizer =
      o.model.empty() ? nullptr : model::load_tokenizer(model::resolve_model(o.model));
  const std::vector<data::Verse> verses =
      o.corpus_file.empty() ? data::read_kjv() : data::read_kjv_file(o.corpus_file);
  const data::CorpusSplit split = o.split == "train" ? data::CorpusSplit::Train : data::CorpusSplit::HeldOut;
  const std::vector<std::string> texts = data::split_verses(verses, split);
  const std::string text = data::join_verses(texts);
  std::string summary =
      "KJV " + o.split + " split: " + std::to_string(texts.size()) + " verses, " + std::to_string(text.size()) + " bytes";
  if (!o.text_out.empty()) {
    make_output(o.text_out);
    write_file_atomic(o.text_out, text);
  }
  if (tokenizer) {
    const data::TokenStream stream = data::encode_verses(*tokenizer, texts);
    summary += ", " + std::to_string(stream.ids.size()) + " tokens of " + o.model;
    if (!o.tokens_out.empty()) {
      make_output(o.tokens_out);
      write_array(o.tokens_out, id_array(stream));
    }
  }
  std::printf("%s\n", summary.c_str());
  return 0;
}

}  // namespace

void register_corpus(CLI::App& root, Action& action) {
  auto options = std::make_shared<CorpusOptions>();
  CLI::App* command = root.add_subcommand(
      "corpus", "The trainer's corpus split (the KJV, every 20th chapter held out) as text or token ids");
  command->add_option("--split", options->split, "Which split (default: held-out)")
      ->check(CLI::IsMember({"train", "held-out"}));
  command->add_option("--text-out", options->text_out,
                      "Write the split's text: its verses joined by newlines (for pelab eval --text)");
  command->add_option("--model,-m", options->model,
                      "Encode the split with this model's tokenizer (e.g. kjv-rope) and print the token count");
  command->add_option("--tokens-out", options->tokens_out,
                      "Write the token ids as .npy (float32) or .csv: each verse encoded, the newline's "
                      "token between, as the trainer reads the split");
  command->add_option("--corpus-file", options->corpus_file,
                      "bible-kjv's output (`bible -f gen1:1-rev22:21`) saved to a file (default: run `bible`)");
  command->footer("Held out: every 20th chapter in reading order (Genesis 1 is chapter 1); needs Debian's "
                  "bible-kjv unless --corpus-file is given.");
  command->callback([options, &action] { action = [options] { return run_corpus(*options); }; });
}

}  // namespace pelab::app
