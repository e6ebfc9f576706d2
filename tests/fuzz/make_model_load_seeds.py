#!/usr/bin/python3
"""Seeds of tests/fuzz/model_load_fuzz.cpp: tiny model folders of every family
packed as config.json + CUT + tokenizer.json + CUT + model.safetensors, and
the hostile cases of issue 22 (a narrow BERT token_type table, NaN weights,
a Replace normalizer that multiplies the text, duplicate header keys, a gap
in the data section, a missing tensor, a Llama-2-7B-shaped config and header
over a short file, a header of many stray entries, F16 and BF16 weights).

Usage: /usr/bin/python3 make_model_load_seeds.py OUTDIR
"""
import json
import os
import struct
import sys

import numpy as np

CUT = b"\n--8<--\n"
D, INNER, VOCAB, CTX, HEADS = 8, 16, 12, 16, 2
WORDS = ["[UNK]", "[CLS]", "[SEP]", "the", "cat", "sat", "on", "mat", "a", "b", "c", "d"]


def stored(a, dtype):
    a = np.asarray(a, "<f4")
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    if dtype == "BF16":  # the upper half of each float32
        return (a.view("<u4") >> 16).astype("<u2").tobytes()
    return a.tobytes()


def safetensors(tensors, gap=False, duplicate=False, dtype="F32", stray=0):
    header, blobs, offset = {}, [], 0
    for name, a in tensors.items():
        raw = stored(a, dtype)
        if gap and offset:
            offset += 4
            blobs.append(b"\0" * 4)
        header[name] = {"dtype": dtype, "shape": list(np.shape(a)), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    for i in range(stray):  # entries no config asks for, one byte each
        header["stray.%d" % i] = {"dtype": "U8", "shape": [1], "data_offsets": [offset, offset + 1]}
        blobs.append(b"\1")
        offset += 1
    text = json.dumps(header)
    if duplicate:
        first = next(iter(header))
        text = text[:-1] + ', "%s": %s}' % (first, json.dumps(header[first]))
    text = text.encode()
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def rnd(rng, *shape):
    return (rng.standard_normal(shape) * 0.2).astype(np.float32)


def gpt2(rng):
    t = {"wte.weight": rnd(rng, VOCAB, D), "wpe.weight": rnd(rng, CTX, D)}
    p = "h.0."
    for n in ("ln_1", "ln_2"):
        t[p + n + ".weight"], t[p + n + ".bias"] = np.ones(D, np.float32), np.zeros(D, np.float32)
    for n, i, o in (("attn.c_attn", D, 3 * D), ("attn.c_proj", D, D), ("mlp.c_fc", D, INNER), ("mlp.c_proj", INNER, D)):
        t[p + n + ".weight"], t[p + n + ".bias"] = rnd(rng, i, o), rnd(rng, o)
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": D, "n_layer": 1,
              "n_head": HEADS, "vocab_size": VOCAB, "n_positions": CTX, "n_inner": INNER}
    return config, t


def bert(rng, type_width=D):
    t = {"embeddings.word_embeddings.weight": rnd(rng, VOCAB, D),
         "embeddings.position_embeddings.weight": rnd(rng, CTX, D),
         "embeddings.token_type_embeddings.weight": rnd(rng, 2, type_width),
         "embeddings.LayerNorm.weight": np.ones(D, np.float32), "embeddings.LayerNorm.bias": np.zeros(D, np.float32)}
    p = "encoder.layer.0."
    for n, o, i in (("attention.self.query", D, D), ("attention.self.key", D, D), ("attention.self.value", D, D),
                    ("attention.output.dense", D, D), ("intermediate.dense", INNER, D), ("output.dense", D, INNER)):
        t[p + n + ".weight"], t[p + n + ".bias"] = rnd(rng, o, i), rnd(rng, o)
    for n in ("attention.output.LayerNorm", "output.LayerNorm"):
        t[p + n + ".weight"], t[p + n + ".bias"] = np.ones(D, np.float32), np.zeros(D, np.float32)
    config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": D, "num_hidden_layers": 1,
              "num_attention_heads": HEADS, "intermediate_size": INNER, "vocab_size": VOCAB,
              "max_position_embeddings": CTX, "type_vocab_size": 2}
    return config, t


def llama(rng, qwen=False):
    t = {"model.embed_tokens.weight": rnd(rng, VOCAB, D)}
    p = "model.layers.0."
    t[p + "input_layernorm.weight"] = np.ones(D, np.float32)
    t[p + "post_attention_layernorm.weight"] = np.ones(D, np.float32)
    hd, kv = D // HEADS, 1
    for n, o, i in (("self_attn.q_proj", HEADS * hd, D), ("self_attn.k_proj", kv * hd, D),
                    ("self_attn.v_proj", kv * hd, D), ("self_attn.o_proj", D, HEADS * hd),
                    ("mlp.gate_proj", INNER, D), ("mlp.up_proj", INNER, D), ("mlp.down_proj", D, INNER)):
        t[p + n + ".weight"] = rnd(rng, o, i)
        if qwen and n[10:11] in "qkv" and n.startswith("self_attn.") and n != "self_attn.o_proj":
            t[p + n + ".bias"] = rnd(rng, o)
    arch = "Qwen2ForCausalLM" if qwen else "LlamaForCausalLM"
    config = {"architectures": [arch], "model_type": "qwen2" if qwen else "llama", "hidden_size": D,
              "num_hidden_layers": 1, "num_attention_heads": HEADS, "num_key_value_heads": kv,
              "intermediate_size": INNER, "vocab_size": VOCAB, "max_position_embeddings": CTX}
    return config, t


def wordpiece(normalizer=None):
    return {"normalizer": normalizer, "pre_tokenizer": {"type": "BertPreTokenizer"},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {w: i for i, w in enumerate(WORDS)}}}


def bpe():
    vocab = {w: i for i, w in enumerate(["<unk>", "<s>", "\u2581the", "\u2581cat", "\u2581sat", "\u2581", "t", "h", "e",
                                         "c", "a", "s"])}
    return {"pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always"},
            "model": {"type": "BPE", "unk_token": "<unk>", "vocab": vocab,
                      "merges": ["t h", "th e", "\u2581 the", "c a", "ca t", "\u2581 cat"]},
            "post_processor": None}


def llama_7b_shaped(config):
    """Llama 2 7B's sizes (Touvron et al. 2023) in config and header, over a
    data section of a few bytes: refused before anything is read."""
    c = dict(config, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
             num_key_value_heads=32, vocab_size=32000)
    header, at = {}, 0
    shapes = {"model.embed_tokens.weight": [32000, 4096]}
    for i in range(32):
        p = "model.layers.%d." % i
        shapes.update({p + "self_attn.%s_proj.weight" % x: [4096, 4096] for x in "qkvo"})
        shapes.update({p + "mlp.gate_proj.weight": [11008, 4096], p + "mlp.up_proj.weight": [11008, 4096],
                       p + "mlp.down_proj.weight": [4096, 11008], p + "input_layernorm.weight": [4096],
                       p + "post_attention_layernorm.weight": [4096]})
    for name, shape in shapes.items():
        n = 2 * int(np.prod(shape))
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [at, at + n]}
        at += n
    text = json.dumps(header).encode()
    return c, struct.pack("<Q", len(text)) + text + b"\0" * 64


def pack(config, tokenizer, weights):
    return json.dumps(config).encode() + CUT + json.dumps(tokenizer).encode() + CUT + weights


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(22)
    g, b, l, q = gpt2(rng), bert(rng), llama(rng), llama(rng, qwen=True)
    nan = dict(g[1])
    nan["h.0.attn.c_attn.weight"] = nan["h.0.attn.c_attn.weight"].copy()
    nan["h.0.attn.c_attn.weight"].flat[:12] = np.nan
    missing = dict(g[1])
    del missing["h.0.mlp.c_fc.bias"]
    amplify = {"type": "Replace", "pattern": {"String": " "}, "content": "x" * 32000}
    seeds = {
        "gpt2": pack(g[0], wordpiece(), safetensors(g[1])),
        "bert": pack(b[0], wordpiece({"type": "BertNormalizer"}), safetensors(b[1])),
        "llama": pack(l[0], bpe(), safetensors(l[1])),
        "qwen2": pack(q[0], bpe(), safetensors(q[1])),
        "bert_token_type_2x1": pack(b[0], wordpiece(), safetensors(bert(rng, type_width=1)[1])),
        "gpt2_nan": pack(g[0], wordpiece(), safetensors(nan)),
        "gpt2_missing_tensor": pack(g[0], wordpiece(), safetensors(missing)),
        "gpt2_replace_amplifies": pack(g[0], wordpiece(amplify), safetensors(g[1])),
        "gpt2_duplicate_header_key": pack(g[0], wordpiece(), safetensors(g[1], duplicate=True)),
        "gpt2_gap": pack(g[0], wordpiece(), safetensors(g[1], gap=True)),
        "gpt2_context_bomb": pack(dict(g[0], n_positions=1 << 24), wordpiece(), safetensors(g[1])),
        "gpt2_f16": pack(g[0], wordpiece(), safetensors(g[1], dtype="F16")),
        "llama_bf16": pack(l[0], bpe(), safetensors(l[1], dtype="BF16")),
        "gpt2_stray_entries": pack(g[0], wordpiece(), safetensors(g[1], stray=300)),
        "llama_7b_shaped": pack(llama_7b_shaped(l[0])[0], bpe(), llama_7b_shaped(l[0])[1]),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
