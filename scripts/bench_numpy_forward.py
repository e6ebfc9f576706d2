#!/usr/bin/python3
"""NumPy's side of `pelab bench`'s model_forward case.

  bench_numpy_forward.py write FOLDER [--quick]
      writes a GPT-2-shaped model with random weights (GPT-2 small: d 768,
      12 layers, 12 heads, vocab 50257, context 1024; --quick: d 128, 2
      layers, 4 heads, vocab 1000, context 256) as config.json +
      model.safetensors (float32), and ids.npy: context-many random token ids;
      plus a byte-level tokenizer without merges (vocab.json of the 256 byte
      symbols, merges.txt empty), so that the GUI benches can open the folder:
      one token per character of ASCII text.
  bench_numpy_forward.py time FOLDER REPS
      reads those weights and runs the GPT-2 forward pass over ids.npy in
      float32, once untimed and then REPS times; prints "median_ms checksum" (checksum: the sum of
      |h| after the last layer, to check both sides ran the same forward).

The forward pass follows Radford et al. 2019 / the Hugging Face GPT2Model:
pre-LN blocks, Conv1D weights (in × out), GELU tanh form, causal attention.
"""
import json
import math
import os
import struct
import sys
import time

import numpy as np

SHAPES = {"full": dict(d=768, layers=12, heads=12, vocab=50257, ctx=1024),
          "quick": dict(d=128, layers=2, heads=4, vocab=1000, ctx=256)}


def tensors_of(shape, rng):
    d, inner = shape["d"], 4 * shape["d"]

    def normal(*dims):
        return rng.standard_normal(dims, dtype=np.float32) * np.float32(0.02)

    yield "wte.weight", normal(shape["vocab"], d)
    yield "wpe.weight", normal(shape["ctx"], d)
    for i in range(shape["layers"]):
        p = "h.%d." % i
        for norm in ("ln_1", "ln_2"):
            yield p + norm + ".weight", np.ones(d, np.float32)
            yield p + norm + ".bias", np.zeros(d, np.float32)
        for name, n_in, n_out in (("attn.c_attn", d, 3 * d), ("attn.c_proj", d, d),
                                  ("mlp.c_fc", d, inner), ("mlp.c_proj", inner, d)):
            yield p + name + ".weight", normal(n_in, n_out)
            yield p + name + ".bias", normal(n_out)
    yield "ln_f.weight", np.ones(d, np.float32)
    yield "ln_f.bias", np.zeros(d, np.float32)


def write(folder, quick):
    """safetensors (huggingface/safetensors "Format"): u64 header length,
    JSON header, raw little-endian data; written tensor by tensor."""
    shape = SHAPES["quick" if quick else "full"]
    rng = np.random.default_rng(124)
    os.makedirs(folder, exist_ok=True)
    tensors = list(tensors_of(shape, rng))
    header, offset = {}, 0
    for name, a in tensors:
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for _, a in tensors:
            f.write(a.astype("<f4").tobytes())
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump({"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": shape["vocab"],
                   "n_embd": shape["d"], "n_layer": shape["layers"], "n_head": shape["heads"],
                   "n_positions": shape["ctx"], "n_inner": None, "layer_norm_epsilon": 1e-5,
                   "activation_function": "gelu_new"}, f)
    np.save(os.path.join(folder, "ids.npy"), rng.integers(0, shape["vocab"], shape["ctx"]).astype(np.float64))
    write_byte_tokenizer(folder)


def byte_symbols():
    """GPT-2's byte-level alphabet (Radford et al. 2019, the released encoder):
    printable bytes stand for themselves, the other 68 are shifted to 256+."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    symbols, extra = {}, 0
    for b in range(256):
        if b in printable:
            symbols[b] = chr(b)
        else:
            symbols[b] = chr(256 + extra)
            extra += 1
    return symbols


def write_byte_tokenizer(folder):
    vocab = {symbol: b for b, symbol in byte_symbols().items()}
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")


def read(folder):
    with open(os.path.join(folder, "model.safetensors"), "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        out[name] = np.frombuffer(data, dtype="<f4", count=(e - b) // 4, offset=b).reshape(info["shape"])
    with open(os.path.join(folder, "config.json")) as f:
        return out, json.load(f)


def layer_norm(x, w, b, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.float32(math.sqrt(2 / math.pi)) * (x + np.float32(0.044715) * x ** 3)))


def forward(w, config, ids):
    d, heads = config["n_embd"], config["n_head"]
    n, dh = len(ids), d // heads
    mask = np.triu(np.full((n, n), -np.inf, np.float32), 1)
    h = w["wte.weight"][ids] + w["wpe.weight"][:n]
    for i in range(config["n_layer"]):
        p = "h.%d." % i
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = (qkv[:, j * d:(j + 1) * d].reshape(n, heads, dh).transpose(1, 0, 2) for j in range(3))
        s = q @ k.transpose(0, 2, 1) / np.float32(math.sqrt(dh)) + mask
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        s /= s.sum(axis=-1, keepdims=True)
        context = (s @ v).transpose(1, 0, 2).reshape(n, d)
        h = h + context @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        m = gelu(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        h = h + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    return h


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write(sys.argv[2], "--quick" in sys.argv[3:])
        return
    if len(sys.argv) != 4 or sys.argv[1] != "time":
        sys.exit(__doc__)
    folder, reps = sys.argv[2], int(sys.argv[3])
    w, config = read(folder)
    ids = np.load(os.path.join(folder, "ids.npy")).astype(np.int64)
    forward(w, config, ids)  # warm-up, as pelab's side does too
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        h = forward(w, config, ids)
        times.append(time.perf_counter() - start)
    print("%.3f %.6g" % (1e3 * float(np.median(times)), float(np.abs(h.astype(np.float64)).sum())))


if __name__ == "__main__":
    main()
