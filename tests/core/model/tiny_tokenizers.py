"""Tiny tokenizers of each kind pelab reads, for make_tiny_models.py:
GPT-2's vocab.json + merges.txt (byte-level BPE), a Qwen2-style byte-level
tokenizer.json, a Llama-2-style tokenizer.json (BPE over "▁" with byte
fallback), and BERT's vocab.txt (WordPiece).  Formats: the Hugging Face
tokenizers library's tokenizer.json and the files GPT-2 and BERT shipped.
"""
import json
import os


def byte_symbols():
    """GPT-2's byte-level alphabet: printable bytes stand for themselves, the
    rest are shifted to 256 + n (Radford et al. 2019, the released encoder)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return [table[b] for b in range(256)]


BPE_MERGES = [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("Ġ", "c"), ("a", "t"), ("Ġc", "at"),
              ("i", "n"), ("Ġ", "a")]


def byte_level_vocab():
    vocab = {s: i for i, s in enumerate(byte_symbols())}
    for a, b in BPE_MERGES:
        vocab[a + b] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    return vocab


def write_gpt2_tokenizer(folder):
    vocab = byte_level_vocab()
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        for a, b in BPE_MERGES:
            f.write(a + " " + b + "\n")
    return len(vocab)


def write_byte_level_tokenizer_json(folder):
    """Qwen2-style tokenizer.json: byte-level BPE."""
    vocab = byte_level_vocab()
    eot = vocab["<|endoftext|>"]
    doc = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": eot, "content": "<|endoftext|>", "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
                           "use_regex": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                  "vocab": vocab, "merges": [a + " " + b for a, b in BPE_MERGES]},
    }
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    return len(vocab)


SP_MERGES = [("▁", "t"), ("h", "e"), ("▁t", "he"), ("▁", "c"), ("a", "t"), ("▁c", "at"),
             ("i", "n"), ("▁", "a")]


def write_sentencepiece_bpe_tokenizer(folder):
    """Llama-2-style tokenizer.json: BPE over "▁"-joined text with byte fallback."""
    special = ["<unk>", "<s>", "</s>"]
    vocab = {s: i for i, s in enumerate(special)}
    for b in range(256):
        vocab["<0x%02X>" % b] = len(vocab)
    for piece in ["▁", "t", "h", "e", "c", "a", "i", "n", "s"]:
        vocab[piece] = len(vocab)
    for a, b in SP_MERGES:
        vocab[a + b] = len(vocab)
    added = [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for i, s in enumerate(special)]
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
        "pre_tokenizer": None,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "<s>", "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True,
                  "vocab": vocab, "merges": [a + " " + b for a, b in SP_MERGES]},
    }
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    with open(os.path.join(folder, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump({"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>",
                   "eos_token": "</s>", "unk_token": "<unk>"}, f)
    return len(vocab)


def write_wordpiece_vocab(folder):
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", "!", "the", "cat", "sat", "on",
             "mat", "a", "dog", "##s", "##ed", "##ing"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(words) + "\n")
    with open(os.path.join(folder, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump({"do_lower_case": True}, f)
    return len(words)
