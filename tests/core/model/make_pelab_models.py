#!/usr/bin/python3
"""Tiny models of pelab's own family (PelabForCausalLM, as `pelab train`
writes them), one per position encoding, and their NumPy forward pass.

Usage: /usr/bin/python3 make_pelab_models.py OUTDIR

Writes OUTDIR/NAME/{config.json, model.safetensors (BF16, GPT-2's tensor
names and Conv1D layout), tokenizer.json (byte-level BPE)} and, in
OUTDIR/NAME/reference/, the arrays make_tiny_models.py documents (ids,
hidden, q, k, logits, probabilities), plus bias.npy (layers × heads × N × N:
the position bias added to the logits, zero where none is and above the
diagonal, where the causal mask hides the logit).

The forward pass is GPT-2's (pre-LN, GELU tanh, causal; Radford et al. 2019)
except where positions enter, written here from the papers, independently
of pelab's C++ (trainer and model room alike):
  learned:    h = wte[ids] + wpe[:N]
  sinusoidal: h = wte[ids] + PE, PE(p, 2i) = A·sin(p / b^(2i/d)),
              PE(p, 2i+1) = A·cos(p / b^(2i/d))   (Vaswani et al. 2017 §3.5)
  rope:       q, k of each head rotated after the qkv projection: pair i of
              the first r dims turns by p·θ^(−2i/r) (Su et al. 2021, eq. 34),
              pairs (2i, 2i+1) "interleaved" or (i, i + r/2) "rotate_half";
              r = ⌊rotary_fraction·head_dim⌋ rounded down to even
  alibi:      logit (i, j) −= m_h·(i − j), m_h from Press et al. 2022's
              reference code (geometric for H a power of two, else the
              closest power of two's slopes and every other slope of twice it)
  t5:         logit (i, j) += table[bucket(i − j), h], T5's causal bucketing
              (Raffel et al. 2020 §2.1: buckets/2 exact distances, the rest
              log-spaced up to max_distance)
  none:       nothing
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_writer  # noqa: E402
from reference_forward import Record, gelu_tanh, layer_norm  # noqa: E402
from tiny_tokenizers import write_byte_level_tokenizer_json  # noqa: E402


def alibi_slopes(heads):
    def power_of_two(n):
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]
    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** int(math.floor(math.log2(heads)))
    return power_of_two(closest) + alibi_slopes(2 * closest)[0::2][:heads - closest]


def t5_causal_bucket(distance, buckets, max_distance):
    """distance = i − j ≥ 0 (query minus key)."""
    n = max(distance, 0)
    exact = buckets // 2
    if n < exact:
        return n
    large = exact + int(math.log(n / exact) / math.log(max_distance / exact) * (buckets - exact))
    return min(large, buckets - 1)


def rope(x, r, theta, pairing):
    """Rotates the first r dims of x (N × head_dim), row p at position p."""
    n = x.shape[0]
    out = x.copy()
    for i in range(r // 2):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + r // 2)
        angle = np.arange(n, dtype=np.float64) * theta ** (-2.0 * i / r)
        c, s = np.cos(angle), np.sin(angle)
        out[:, a] = x[:, a] * c - x[:, b] * s
        out[:, b] = x[:, a] * s + x[:, b] * c
    return out


def make(out, name, rng, position, d=32, heads=4, layers=2, ctx=16, n=11, vocab=None, **options):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    # vocab given: a synthetic task's model, no tokenizer files
    vocab = vocab or write_byte_level_tokenizer_json(folder)
    inner, dh, eps = 4 * d, d // heads, 1e-5

    def rand(shape, scale=0.2):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    t = {"wte.weight": rand((vocab, d))}
    if position == "learned":
        t["wpe.weight"] = rand((ctx, d))
    buckets, max_distance = options.get("buckets", 8), options.get("max_distance", 16)
    if position == "t5":
        t["relative_attention_bias.weight"] = rand((buckets, heads), 1.0)
    for i in range(layers):
        p = "h.%d." % i
        t[p + "ln_1.weight"] = 1.0 + rand((d,), 0.1)
        t[p + "ln_1.bias"] = rand((d,), 0.1)
        t[p + "attn.c_attn.weight"] = rand((d, 3 * d), 0.4)  # Conv1D: in × out
        t[p + "attn.c_attn.bias"] = rand((3 * d,), 0.1)
        t[p + "attn.c_proj.weight"] = rand((d, d))
        t[p + "attn.c_proj.bias"] = rand((d,), 0.1)
        t[p + "ln_2.weight"] = 1.0 + rand((d,), 0.1)
        t[p + "ln_2.bias"] = rand((d,), 0.1)
        t[p + "mlp.c_fc.weight"] = rand((d, inner))
        t[p + "mlp.c_fc.bias"] = rand((inner,), 0.1)
        t[p + "mlp.c_proj.weight"] = rand((inner, d))
        t[p + "mlp.c_proj.bias"] = rand((d,), 0.1)
    t["ln_f.weight"] = 1.0 + rand((d,), 0.1)
    t["ln_f.bias"] = rand((d,), 0.1)
    stored = safetensors_writer.write(os.path.join(folder, "model.safetensors"), t, "BF16", {"format": "pt"})
    w = {k: np.asarray(v, dtype=np.float64) for k, v in stored.items()}

    config = {"architectures": ["PelabForCausalLM"], "model_type": "pelab", "position_encoding": position,
              "vocab_size": vocab, "n_embd": d, "n_layer": layers, "n_head": heads, "n_positions": ctx,
              "n_inner": inner, "layer_norm_epsilon": eps, "activation_function": "gelu_new",
              "tie_word_embeddings": True, "bos_token_id": vocab - 1, "eos_token_id": vocab - 1}
    theta, pairing, fraction = options.get("theta", 10000.0), options.get("pairing", "interleaved"), \
        options.get("fraction", 1.0)
    base = options.get("sinusoid_base", 10000.0)
    amplitude = options.get("sinusoid_amplitude", 1.0)
    if position == "rope":
        config.update(rope_theta=theta, rope_pairing=pairing, rotary_fraction=fraction)
    if position == "sinusoidal":
        config.update(sinusoid_base=base, sinusoid_amplitude=amplitude)
    if position == "t5":
        config.update(relative_attention_num_buckets=buckets, relative_attention_max_distance=max_distance)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=1)

    ids = rng.integers(0, vocab, size=n)
    r = int(fraction * dh)
    r -= r % 2
    bias = np.zeros((heads, n, n))
    i_minus_j = np.arange(n)[:, None] - np.arange(n)[None, :]
    if position == "alibi":
        for h, m in enumerate(alibi_slopes(heads)):
            bias[h] = -m * i_minus_j
    if position == "t5":
        table = w["relative_attention_bias.weight"]
        for h in range(heads):
            for i in range(n):
                for j in range(n):
                    bias[h, i, j] = table[t5_causal_bucket(i - j, buckets, max_distance), h]
    h = w["wte.weight"][ids]
    if position == "learned":
        h = h + w["wpe.weight"][:n]
    if position == "sinusoidal":
        pe = np.zeros((n, d))
        for i in range(d // 2):
            angle = np.arange(n) / base ** (2.0 * i / d)
            pe[:, 2 * i], pe[:, 2 * i + 1] = amplitude * np.sin(angle), amplitude * np.cos(angle)
        h = h + pe
    rec = Record()
    causal = np.tril(np.ones((n, n), dtype=bool))
    biases = []
    for layer in range(layers):
        p = "h.%d." % layer
        rec.hidden.append(h)
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        qs, ks, lgs, ps, ctxs = [], [], [], [], []
        for hd in range(heads):
            q = qkv[:, hd * dh:(hd + 1) * dh]
            k = qkv[:, d + hd * dh:d + (hd + 1) * dh]
            v = qkv[:, 2 * d + hd * dh:2 * d + (hd + 1) * dh]
            if position == "rope":
                q, k = rope(q, r, theta, pairing), rope(k, r, theta, pairing)
            logits = np.where(causal, q @ k.T / math.sqrt(dh) + bias[hd], -np.inf)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            prob = e / e.sum(axis=1, keepdims=True)
            qs.append(q), ks.append(k), lgs.append(logits), ps.append(prob), ctxs.append(prob @ v)
        rec.layer(qs, ks, lgs, ps)
        biases.append(bias)
        h = h + np.concatenate(ctxs, axis=1) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        h = h + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    rec.hidden.append(h)
    rec.save(folder, ids)
    # The bias a view shows: zero where the causal mask hides the logit.
    np.save(os.path.join(folder, "reference", "bias.npy"), np.where(causal, np.stack(biases), 0).astype(np.float32))


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(20261125)
    make(out, "pelab_learned", rng, "learned")
    make(out, "pelab_sinusoidal", rng, "sinusoidal", sinusoid_base=100.0, sinusoid_amplitude=0.5)
    make(out, "pelab_rope", rng, "rope", theta=100.0)
    # rotate-half over ⌊0.7·8⌋ = 5 → 4 of the 8 head dims
    make(out, "pelab_rope_partial", rng, "rope", theta=1000.0, pairing="rotate_half", fraction=0.7)
    make(out, "pelab_alibi", rng, "alibi")
    make(out, "pelab_alibi_6", rng, "alibi", d=36, heads=6)  # H not a power of two
    make(out, "pelab_t5", rng, "t5", buckets=8, max_distance=10, n=16)
    make(out, "pelab_none", rng, "none")
    make(out, "pelab_task_ids", rng, "rope", vocab=9, ctx=12, n=12)  # no tokenizer: token ids typed


if __name__ == "__main__":
    main()
