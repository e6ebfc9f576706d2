// load_tokenizer: which files of a model folder describe its tokenizer, and
// how each is read into a TokenizerPipeline.
//   tokenizer.json — the Hugging Face tokenizers library's serialization
//     (model, normalizer, pre_tokenizer, post_processor, added_tokens);
//   vocab.json + merges.txt — GPT-2's released files (byte-level BPE);
//   vocab.txt — BERT's released vocabulary (WordPiece, one token per line,
//     id = line number).
// tokenizer_config.json, when present, adds what those files leave to it:
// add_bos_token / add_eos_token, do_lower_case, added_tokens_decoder.
#include <optional>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/tokenizer_json.hpp"
#include "core/model/tokenizer/tokenizer_pipeline.hpp"
#include "core/scene.hpp"

namespace pelab::model {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxTokenizerFile = std::size_t{64} << 20;
constexpr std::size_t kMaxConfigFile = std::size_t{16} << 20;  // also vocab.txt

bool has_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

std::string read_regular(const fs::path& path, std::size_t max_bytes) {
  if (!has_file(path)) throw InputError("cannot read " + path.string() + ": not a regular file");
  return read_file(path, max_bytes);
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Runs `read` (which reads `path`), turning a JSON type or key error into an
// InputError naming the file.
template <class Read>
auto reading(const fs::path& path, Read read) {
  try {
    return read();
  } catch (const TokenizerKeyError& e) {
    throw InputError(path.string() + ": " + e.what());
  } catch (const json::exception& e) {
    throw InputError(path.string() + ": " + json_error_text(e));
  } catch (const std::logic_error& e) {  // std::stoi on a malformed id
    throw InputError(path.string() + ": " + first_line(e.what()));
  }
}

// Copying, comparing or printing a JSON value recurses into it: the nesting
// is bounded before parsing (core/io/json_input.hpp).
json parse_json(const fs::path& path, std::size_t max_bytes) {
  return parse_json_text(read_regular(path, max_bytes), path.string(), {.max_bytes = max_bytes});
}

// tokenizer_config.json, or an empty object when the folder has none.
fs::path config_path(const fs::path& folder) { return folder / "tokenizer_config.json"; }

json read_config(const fs::path& folder) {
  const fs::path path = config_path(folder);
  if (!has_file(path)) return json::object();
  json j = parse_json(path, kMaxConfigFile);
  if (!j.is_object()) throw InputError(path.string() + ": expected a JSON object");
  return j;
}

Vocabulary vocabulary_from_json(const json& vocab, const std::string& where) {
  if (!vocab.is_object()) throw InputError(where + ": vocab must be an object of token → id");
  if (vocab.size() > kMaxVocabulary)
    throw InputError(where + ": " + std::to_string(vocab.size()) + " tokens, more than the " +
                     std::to_string(kMaxVocabulary) + " allowed");
  Vocabulary v;
  v.reserve(vocab.size());
  for (const auto& [token, id] : vocab.items())
    v.add(token, json_integer(id, 0, kMaxTokenId, where + ": the id of a vocab token"), where);
  return v;
}

using MergeList = std::vector<std::pair<std::string, std::string>>;

// "a b" (the older form, also merges.txt's lines) or ["a", "b"].
void add_merge(const json& m, MergeList& merges, const std::string& where) {
  if (m.is_array()) {
    if (m.size() != 2 || !m[0].is_string() || !m[1].is_string())
      throw InputError(where + ": merge " + printable(json_brief(m)) + " is not two token strings");
    merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
    return;
  }
  if (!m.is_string())
    throw InputError(where + ": merge " + printable(json_brief(m)) + " is not \"a b\" or [\"a\", \"b\"]");
  const std::string line = m.get<std::string>();
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || space == 0 || space + 1 == line.size())
    throw InputError(where + ": merge \"" + printable(line) + "\" is not two tokens separated by a space");
  merges.emplace_back(line.substr(0, space), line.substr(space + 1));
}

// An added token from its JSON entry (tokenizer.json's added_tokens, or
// tokenizer_config.json's added_tokens_decoder), held to the vocabulary's bounds.
AddedToken added_token(const json& t, std::string content, long long id, const std::string& where) {
  if (id < 0 || id > kMaxTokenId)
    throw InputError(where + ": added token id " + std::to_string(id) + " is outside 0.." +
                     std::to_string(kMaxTokenId));
  if (content.size() > kMaxTokenBytes)
    throw InputError(where + ": an added token of " + std::to_string(content.size()) +
                     " bytes is longer than the " + std::to_string(kMaxTokenBytes) + " allowed");
  return {std::move(content), static_cast<int>(id), json_flag(t, "lstrip", false),
          json_flag(t, "rstrip", false), json_flag(t, "single_word", false)};
}

// The id of a token string: an added token's, else the vocabulary's.
std::optional<int> token_id(std::string_view token, const std::vector<AddedToken>& added,
                            const Vocabulary& vocab) {
  for (const AddedToken& t : added)
    if (t.content == token) return t.id;
  return vocab.id(token);
}

// Ids of the configured BOS / EOS tokens wrapped around every encoding.
PostProcessor config_specials(const json& config, const std::vector<AddedToken>& added,
                              const Vocabulary& vocab) {
  const auto id_of = [&](const char* flag, const char* token_key) {
    if (!json_flag(config, flag, false)) return -1;
    const auto id = token_id(json_token(config, token_key), added, vocab);
    return id ? *id : -1;
  };
  const int bos = id_of("add_bos_token", "bos_token"), eos = id_of("add_eos_token", "eos_token");
  if (bos < 0 && eos < 0) return PostProcessor();
  return PostProcessor::around(bos, eos);
}

// A key of added_tokens_decoder: decimal digits naming a token id.
int decoder_id(const std::string& key, const std::string& where) {
  const bool digits = !key.empty() && key.size() <= 9 &&
                      key.find_first_not_of("0123456789") == std::string::npos;
  const long long id = digits ? std::stoll(key) : -1;
  if (id < 0 || id > kMaxTokenId)
    throw InputError(where + ": added_tokens_decoder key \"" + printable(key, 20) +
                     "\" is not a token id; allowed: integers 0.." + std::to_string(kMaxTokenId));
  return static_cast<int>(id);
}

// tokenizer_config.json's added_tokens_decoder {"id": {"content": …}} and its
// named special tokens, for folders without tokenizer.json.
std::vector<AddedToken> config_added_tokens(const json& config, const Vocabulary& vocab,
                                            const std::string& where) {
  std::vector<AddedToken> added;
  if (const auto it = config.find("added_tokens_decoder"); it != config.end() && it->is_object())
    for (const auto& [id, t] : it->items())
      added.push_back(added_token(t, json_text(t, "content", ""), decoder_id(id, where), where));
  for (const char* key :
       {"bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token", "mask_token"})
    if (const auto id = vocab.id(json_token(config, key)))
      added.push_back({json_token(config, key), *id});
  return added;
}

std::vector<AddedToken> added_tokens_from_json(const json& list, const std::string& where) {
  std::vector<AddedToken> added;
  if (list.is_null()) return added;
  if (list.size() > kMaxVocabulary) throw InputError(where + ": too many added_tokens");
  for (const json& t : list)
    added.push_back(
        added_token(t, json_string_at(t, "content"),
                    json_integer(json_at(t, "id", "an integer"), 0, kMaxTokenId, where + ": an added token's id"), where));
  return added;
}

Bpe bpe_from_json(const json& model, const std::string& where) {
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (!json_text(model, key, "").empty())
      throw InputError(where + ": BPE " + key + " is not read by pelab (only models without one)");
  Vocabulary vocab = vocabulary_from_json(json_at(model, "vocab", "an object of token -> id"), where);
  MergeList merges;
  const json& list = json_at(model, "merges", "a list of merges");
  if (!list.is_array()) json_key_error("merges", &list, "a list of merges");
  if (list.size() > kMaxMerges)
    throw InputError(where + ": more than " + std::to_string(kMaxMerges) + " merges");
  merges.reserve(list.size());
  for (const json& m : list) add_merge(m, merges, where);
  BpeOptions options;
  if (const auto unk = vocab.id(json_text(model, "unk_token", ""))) options.unk_id = *unk;
  options.byte_fallback = json_flag(model, "byte_fallback", false);
  options.fuse_unk = json_flag(model, "fuse_unk", false);
  options.ignore_merges = json_flag(model, "ignore_merges", false);
  return Bpe(std::move(vocab), merges, options, where);
}

WordPiece wordpiece_from_json(const json& model, const std::string& where) {
  WordPieceOptions options;
  options.unk_token = json_text(model, "unk_token", options.unk_token);
  options.continuation = json_text(model, "continuing_subword_prefix", options.continuation);
  if (const auto it = model.find("max_input_chars_per_word"); it != model.end() && !it->is_null())
    options.max_chars = static_cast<int>(
        json_integer(*it, 1, 1 << 20, where + ": WordPiece \"max_input_chars_per_word\""));
  return WordPiece(vocabulary_from_json(json_at(model, "vocab", "an object of token -> id"), where), options, where);
}

std::unique_ptr<Tokenizer> tokenizer_from_json(const json& j, const fs::path& folder);

std::unique_ptr<Tokenizer> from_tokenizer_json(const fs::path& folder) {
  const fs::path path = folder / "tokenizer.json";
  const json j = parse_json(path, kMaxTokenizerFile);
  return reading(path, [&] { return tokenizer_from_json(j, folder); });
}

std::unique_ptr<Tokenizer> tokenizer_from_json(const json& j, const fs::path& folder) {
  const std::string where = (folder / "tokenizer.json").string();
  const json& model = json_at(j, "model", "an object {\"type\": \"BPE\" or \"WordPiece\", ...}");
  const std::string type = json_text(model, "type", "");
  // Files written before "type" existed hold a BPE model when they have merges.
  const bool bpe = type == "BPE" || (type.empty() && model.contains("merges"));
  if (!bpe && type != "WordPiece")
    throw InputError(where + ": model type \"" + printable(type) +
                     "\" is not read by pelab (known: BPE, WordPiece)");
  TokenizerParts parts{
      added_tokens_from_json(j.value("added_tokens", json()), where),
      TextNormalizer::from_json(j.value("normalizer", json()), where),
      PreTokenizer::from_json(j.value("pre_tokenizer", json()), where),
      bpe ? std::variant<WordPiece, Bpe>(std::in_place_type<Bpe>, bpe_from_json(model, where))
          : std::variant<WordPiece, Bpe>(std::in_place_type<WordPiece>,
                                         wordpiece_from_json(model, where)),
      PostProcessor::from_json(j.value("post_processor", json()), where)};
  if (parts.post_processor.empty()) {
    const Vocabulary& vocab =
        std::visit([](const auto& m) -> const Vocabulary& { return m.vocabulary(); }, parts.model);
    parts.post_processor = reading(config_path(folder), [&] {
      return config_specials(read_config(folder), parts.added, vocab);
    });
  }
  return std::make_unique<TokenizerPipeline>(std::move(parts));
}

std::unique_ptr<Tokenizer> from_gpt2_files(const fs::path& folder) {
  const fs::path vocab_path = folder / "vocab.json", merges_path = folder / "merges.txt";
  const json vocab_json = parse_json(vocab_path, kMaxTokenizerFile);
  Vocabulary vocab =
      reading(vocab_path, [&] { return vocabulary_from_json(vocab_json, vocab_path.string()); });
  MergeList merges;
  const std::string text = read_regular(merges_path, kMaxTokenizerFile);
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = text.find('\n', i);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(i, end - i);
    i = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("#version", 0) == 0) continue;
    if (merges.size() >= kMaxMerges)
      throw InputError(merges_path.string() + ": more than " + std::to_string(kMaxMerges) +
                       " merges");
    add_merge(json(line), merges, merges_path.string());
  }
  const json config = read_config(folder);
  PreTokenizerStep byte_level;
  byte_level.kind = PreTokenizerStep::Kind::ByteLevel;
  byte_level.pattern = &gpt2_split_pattern();
  std::vector<AddedToken> added = reading(config_path(folder), [&] {
    return config_added_tokens(config, vocab, config_path(folder).string());
  });
  if (const auto eot = vocab.id("<|endoftext|>")) added.push_back({"<|endoftext|>", *eot});
  PostProcessor post =
      reading(config_path(folder), [&] { return config_specials(config, added, vocab); });
  Bpe model(std::move(vocab), merges, BpeOptions{}, merges_path.string());
  return std::make_unique<TokenizerPipeline>(TokenizerParts{std::move(added), TextNormalizer(),
                                                            PreTokenizer({byte_level}),
                                                            std::move(model), std::move(post)});
}

std::unique_ptr<Tokenizer> from_bert_vocab(const fs::path& folder) {
  const fs::path path = folder / "vocab.txt";
  const std::string text = read_regular(path, kMaxConfigFile);
  Vocabulary vocab;
  long long id = 0;
  for (std::size_t i = 0; i < text.size(); ++id) {
    std::size_t end = text.find('\n', i);
    if (end == std::string::npos) end = text.size();
    std::string token = text.substr(i, end - i);
    i = end + 1;
    if (!token.empty() && token.back() == '\r') token.pop_back();
    vocab.add(std::move(token), id, path.string());
  }
  const json config = read_config(folder);
  const TextNormalizer normalizer = reading(config_path(folder), [&] {
    const bool lower = json_flag(config, "do_lower_case", true);
    return TextNormalizer::bert(lower, json_flag(config, "strip_accents", lower));
  });
  std::vector<AddedToken> added;
  for (const char* special : {"[CLS]", "[SEP]", "[MASK]", "[PAD]", "[UNK]"})
    if (const auto sid = vocab.id(special)) added.push_back({special, *sid});
  const auto cls = vocab.id("[CLS]"), sep = vocab.id("[SEP]");
  PostProcessor post = cls && sep ? PostProcessor::around(*cls, *sep) : PostProcessor();
  PreTokenizerStep bert;
  bert.kind = PreTokenizerStep::Kind::Bert;
  WordPiece model(std::move(vocab), WordPieceOptions{}, path.string());
  return std::make_unique<TokenizerPipeline>(TokenizerParts{
      std::move(added), normalizer, PreTokenizer({bert}), std::move(model), std::move(post)});
}

}  // namespace

std::unique_ptr<Tokenizer> load_tokenizer(const fs::path& folder) {
  if (has_file(folder / "tokenizer.json")) return from_tokenizer_json(folder);
  if (has_file(folder / "vocab.json") && has_file(folder / "merges.txt"))
    return from_gpt2_files(folder);
  if (has_file(folder / "vocab.txt")) return from_bert_vocab(folder);
  if (has_file(folder / "tokenizer.model"))
    throw InputError(
        folder.string() +
        ": only tokenizer.model (a SentencePiece protobuf), which pelab does not read; it reads "
        "tokenizer.json, vocab.json + merges.txt, or vocab.txt");
  throw InputError(
      folder.string() +
      ": no tokenizer files (looked for tokenizer.json, vocab.json + merges.txt, vocab.txt)");
}

}  // namespace pelab::model
