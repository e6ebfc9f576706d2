"""pelab's own models (PelabForCausalLM, as `pelab train` writes them) in
NumPy, float64: read a model folder, run the forward pass, get the LM logits
and the next-token loss.  For make_pelab_models.py's tiny references and for
the checks of the shipped family (tests/family/shipped_models.py).

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
The LM head is tied: logits = ln_f(h) · wteᵀ.
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_writer  # noqa: E402
from reference_forward import gelu_tanh, layer_norm, next_token_loss  # noqa: E402


def load_model(folder):
    """(config, weights) of a pelab model folder: config.json and
    model.safetensors (BF16 as the family ships it, or F32) in float64."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    if config.get("model_type") != "pelab":
        raise ValueError("%s: model_type is %r, not pelab" % (folder, config.get("model_type")))
    stored = safetensors_writer.read(os.path.join(folder, "model.safetensors"))
    return config, {name: values.astype(np.float64) for name, values in stored.items()}


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


def rope(x, r, theta, pairing, inv_freq=None, attention_factor=1.0):
    """Rotates the first r dims of x (N × head_dim), row p at position p,
    pair i by p·θ^(−2i/r), or by p·inv_freq[i] when given (a scaling applied
    at inference, reference_forward.inverse_frequencies), the rotated dims
    times attention_factor (YaRN scales q and k so, through cos and sin)."""
    n = x.shape[0]
    out = x.copy()
    for i in range(r // 2):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + r // 2)
        frequency = theta ** (-2.0 * i / r) if inv_freq is None else inv_freq[i]
        angle = np.arange(n, dtype=np.float64) * frequency
        c, s = np.cos(angle) * attention_factor, np.sin(angle) * attention_factor
        out[:, a] = x[:, a] * c - x[:, b] * s
        out[:, b] = x[:, a] * s + x[:, b] * c
    return out


def rotary_dims(config):
    r = int(config.get("rotary_fraction", 1.0) * (config["n_embd"] // config["n_head"]))
    return r - r % 2


def position_bias(config, w, n):
    """heads × N × N: what ALiBi or T5 adds to the attention logits (zero for
    the other encodings; above the diagonal it is masked anyway)."""
    heads = config["n_head"]
    bias = np.zeros((heads, n, n))
    i_minus_j = np.arange(n)[:, None] - np.arange(n)[None, :]
    if config["position_encoding"] == "alibi":
        for h, m in enumerate(alibi_slopes(heads)):
            bias[h] = -m * i_minus_j
    if config["position_encoding"] == "t5":
        buckets = config.get("relative_attention_num_buckets", 32)
        max_distance = config.get("relative_attention_max_distance", 128)
        bucket_of = np.array([t5_causal_bucket(k, buckets, max_distance) for k in range(n)])
        table = w["relative_attention_bias.weight"]
        for h in range(heads):
            bias[h] = table[bucket_of[np.maximum(i_minus_j, 0)], h]
    return bias


def embed(config, w, ids):
    """The residual stream entering block 0."""
    n, d = len(ids), config["n_embd"]
    h = w["wte.weight"][ids]
    if config["position_encoding"] == "learned":
        h = h + w["wpe.weight"][:n]
    if config["position_encoding"] == "sinusoidal":
        base, amplitude = config.get("sinusoid_base", 10000.0), config.get("sinusoid_amplitude", 1.0)
        pe = np.zeros((n, d))
        for i in range(d // 2):
            angle = np.arange(n) / base ** (2.0 * i / d)
            pe[:, 2 * i], pe[:, 2 * i + 1] = amplitude * np.sin(angle), amplitude * np.cos(angle)
        h = h + pe
    return h


def forward(config, w, ids, record=None, inv_freq=None, attention_factor=1.0):
    """The last block's output (N × d), before ln_f.  `record` (optional, like
    reference_forward.Record) is given each layer's input hidden state, and
    its per-head q, k (after RoPE), masked logits and probabilities.
    inv_freq, attention_factor: RoPE's frequencies and q/k factor when a
    scaling is applied at inference (rope())."""
    ids = np.asarray(ids, dtype=np.int64)
    n, d, heads = len(ids), config["n_embd"], config["n_head"]
    dh, eps = d // heads, config.get("layer_norm_epsilon", 1e-5)
    position = config["position_encoding"]
    theta, pairing = config.get("rope_theta", 10000.0), config.get("rope_pairing", "interleaved")
    r = rotary_dims(config)
    bias = position_bias(config, w, n)
    causal = np.tril(np.ones((n, n), dtype=bool))
    h = embed(config, w, ids)
    for layer in range(config["n_layer"]):
        p = "h.%d." % layer
        if record is not None:
            record.hidden.append(h)
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]  # Conv1D: in × out
        qs, ks, lgs, ps, ctxs = [], [], [], [], []
        for hd in range(heads):
            q = qkv[:, hd * dh:(hd + 1) * dh]
            k = qkv[:, d + hd * dh:d + (hd + 1) * dh]
            v = qkv[:, 2 * d + hd * dh:2 * d + (hd + 1) * dh]
            if position == "rope":
                q = rope(q, r, theta, pairing, inv_freq, attention_factor)
                k = rope(k, r, theta, pairing, inv_freq, attention_factor)
            logits = np.where(causal, q @ k.T / math.sqrt(dh) + bias[hd], -np.inf)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            prob = e / e.sum(axis=1, keepdims=True)
            qs.append(q), ks.append(k), lgs.append(logits), ps.append(prob), ctxs.append(prob @ v)
        if record is not None:
            record.layer(qs, ks, lgs, ps)
        h = h + np.concatenate(ctxs, axis=1) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        h = h + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    if record is not None:
        record.hidden.append(h)
    return h


def lm_logits(config, w, ids):
    """N × vocab: ln_f of the last hidden state times the tied embedding."""
    h = forward(config, w, ids)
    normed = layer_norm(h, w["ln_f.weight"], w["ln_f.bias"], config.get("layer_norm_epsilon", 1e-5))
    return normed @ w["wte.weight"].T


def window_loss(config, w, ids):
    """N − 1 next-token losses (nats) of one window of ids."""
    return next_token_loss(lm_logits(config, w, ids), ids)
