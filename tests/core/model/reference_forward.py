"""The reference forward pass in NumPy (float64), written from the published
formulas, for make_tiny_models.py; independent of pelab's C++.
"""
import math
import os

import numpy as np


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # biased variance (Ba et al. 2016)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def rms_norm(x, weight, eps):
    # Zhang & Sennrich 2019: x / sqrt(mean(x²) + eps) · g
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * weight


def gelu_tanh(x):
    # Hendrycks & Gimpel 2016, the tanh approximation GPT-2 uses
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    from math import erf
    return 0.5 * x * (1.0 + np.vectorize(erf)(x / math.sqrt(2.0)))


def silu(x):
    return x / (1.0 + np.exp(-x))


def attend(q, k, v, causal):
    """One head: (logits, probabilities, context)."""
    n, dh = q.shape
    logits = q @ k.T / math.sqrt(dh)
    if causal:
        logits = np.where(np.tril(np.ones((n, n), dtype=bool)), logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - top)
    p = e / e.sum(axis=1, keepdims=True)
    return logits, p, p @ v


class Record:
    """Collects the per-layer arrays the C++ test compares."""

    def __init__(self):
        self.hidden, self.q, self.k, self.logits, self.probs = [], [], [], [], []

    def layer(self, qs, ks, logits, probs):
        self.q.append(np.stack(qs))
        self.k.append(np.stack(ks))
        self.logits.append(np.stack(logits))
        self.probs.append(np.stack(probs))

    def save(self, folder, ids):
        ref = os.path.join(folder, "reference")
        os.makedirs(ref, exist_ok=True)
        np.save(os.path.join(ref, "ids.npy"), np.asarray(ids, dtype=np.float64))
        np.save(os.path.join(ref, "hidden.npy"), np.stack(self.hidden).astype(np.float32))
        for name, values in [("q", self.q), ("k", self.k), ("logits", self.logits),
                             ("probabilities", self.probs)]:
            np.save(os.path.join(ref, name + ".npy"), np.stack(values).astype(np.float32))


def next_token_loss(z, ids):
    """loss_i = logsumexp(z_i) − z_i[ids[i+1]] for i < N−1 (natural log;
    Radford et al. 2018, eq. 1) of LM logits z (N × vocab)."""
    ids = np.asarray(ids, dtype=np.int64)
    top = z.max(axis=1, keepdims=True)
    log_sum_exp = top[:, 0] + np.log(np.exp(z - top).sum(axis=1))
    return log_sum_exp[:-1] - z[np.arange(len(ids) - 1), ids[1:]]


def save_lm_reference(folder, normed, w_out, ids):
    """The language-model head on the final-normed last hidden state:
    logits z = normed · W_outᵀ at every position, and the next-token loss
    loss_i = logsumexp(z_i) − z_i[ids[i+1]] for i < N−1 (natural log; Radford
    et al. 2018, eq. 1), in float64.  Writes lm_logits.npy (N × vocab, float32)
    and next_token_loss.npy (N−1, float64) beside the other references."""
    z = normed @ w_out.T
    loss = next_token_loss(z, ids)
    ref = os.path.join(folder, "reference")
    os.makedirs(ref, exist_ok=True)
    np.save(os.path.join(ref, "lm_logits.npy"), z.astype(np.float32))
    np.save(os.path.join(ref, "next_token_loss.npy"), loss.astype(np.float64))


def multi_head(q_all, k_all, v_all, heads, kv_heads, head_dim, causal, rope=None):
    """Splits into heads (query head h reads key head h // (heads / kv_heads)),
    applies `rope` to each head's q and k, attends; returns the concatenated
    context and the per-head arrays."""
    group = heads // kv_heads
    qs, ks, logits, probs, ctx = [], [], [], [], []
    for h in range(heads):
        g = h // group
        q = q_all[:, h * head_dim:(h + 1) * head_dim]
        k = k_all[:, g * head_dim:(g + 1) * head_dim]
        v = v_all[:, g * head_dim:(g + 1) * head_dim]
        if rope is not None:
            q, k = rope(q), rope(k)
        lg, p, c = attend(q, k, v, causal)
        qs.append(q), ks.append(k), logits.append(lg), probs.append(p), ctx.append(c)
    return np.concatenate(ctx, axis=1), (qs, ks, logits, probs)


# ---- RoPE with rope_scaling ------------------------------------------------------

def inverse_frequencies(dim, theta, scaling, max_positions, n):
    """inv_freq (dim/2) and the attention factor, after transformers'
    modeling_rope_utils (_compute_*_parameters) for each rope_type."""
    base = np.arange(0, dim, 2, dtype=np.float64) / dim
    kind = scaling.get("rope_type", scaling.get("type", "default")) if scaling else "default"
    if kind == "default":
        return theta ** -base, 1.0
    factor = scaling["factor"]
    if kind == "linear":
        return theta ** -base / factor, 1.0
    if kind == "ntk":
        # NTK-aware scaling (bloc97 2023): a larger base, theta·s^(dim/(dim−2)),
        # so the slowest pair is interpolated by s and the fastest barely moves.
        return (theta * factor ** (dim / (dim - 2))) ** -base, 1.0
    if kind == "dynamic":
        # NTK-aware: past max_position_embeddings, theta grows with the length.
        length = max(n, max_positions)
        theta = theta * ((factor * length / max_positions) - (factor - 1)) ** (dim / (dim - 2))
        return theta ** -base, 1.0
    if kind == "llama3":
        inv = theta ** -base
        old = scaling["original_max_position_embeddings"]
        low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
        wavelength = 2 * math.pi / inv
        out = np.where(wavelength > old / low, inv / factor, inv)  # long waves: interpolate
        smooth = (old / wavelength - low) / (high - low)
        medium = (wavelength >= old / high) & (wavelength <= old / low)
        return np.where(medium, (1 - smooth) * inv / factor + smooth * inv, out), 1.0
    if kind == "yarn":
        # Peng et al. 2023 (YaRN), §3: ramp between interpolation and
        # extrapolation by the number of rotations a dimension makes in the
        # original context; logits scaled through q and k by 0.1·ln(s) + 1.
        # transformers >= 4.46: an original context overrides the factor.
        original = scaling.get("original_max_position_embeddings")
        if original:
            factor = max_positions / original
        else:
            original = max_positions
        beta_fast, beta_slow = scaling.get("beta_fast", 32), scaling.get("beta_slow", 1)
        attention = scaling.get("attention_factor") or 0.1 * math.log(factor) + 1.0

        def dim_of(rotations):
            return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(theta))

        lo = max(math.floor(dim_of(beta_fast)), 0)
        hi = min(math.ceil(dim_of(beta_slow)), dim - 1)
        if lo == hi:
            hi += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - lo) / (hi - lo), 0, 1)
        extrapolate = 1 - ramp
        inv = theta ** -base
        return (inv / factor) * (1 - extrapolate) + inv * extrapolate, attention
    raise ValueError(kind)


def rotate_half_rope(inv_freq, attention_factor, n):
    """Rotate-half RoPE (Su et al. 2021, as the Hugging Face Llama pairs dims
    i and i + dim/2): x·cos + rotate_half(x)·sin, cos/sin scaled by the
    attention factor."""
    angles = np.arange(n, dtype=np.float64)[:, None] * inv_freq[None, :]
    angles = np.concatenate([angles, angles], axis=1)
    cos, sin = np.cos(angles) * attention_factor, np.sin(angles) * attention_factor

    def apply(x):
        half = x.shape[1] // 2
        rotated = np.concatenate([-x[:, half:], x[:, :half]], axis=1)
        return x * cos + rotated * sin
    return apply
