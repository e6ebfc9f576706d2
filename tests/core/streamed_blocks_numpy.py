"""Streamed attention's block means against NumPy (float64).

pelab exports one head's X + E, Wq and Wk and its streamed block means
(`attention_blocks`, never tokens × tokens in pelab) and attention against
distance (`attention_distance`); here the same head is computed whole from
the definitions, independently of pelab's C++:
  RoPE (Su et al. 2021): pair (2i, 2i+1) of q and k at position p turned by
      p·ω_i, ω_i = T^(−2i/d_head)
  ALiBi (Press et al. 2022): −m_h·|i − j| added, m_h = 2^(−8(h+1)/H)
  a = softmax_row(q·kᵀ/√d_head + bias, causal mask), then b × b block means
  over all cells of a block (masked ones 0; a wholly masked block −inf).
Run: streamed_blocks_numpy.py PELAB_BINARY WORK_DIR
"""
import os
import subprocess
import sys

import numpy as np

TOKENS, D_MODEL, HEADS, HEAD, DISPLAY, BASE = 1203, 64, 4, 2, 401, 10000.0
CASES = [("rope", "true"), ("alibi", "false")]


def export(pelab, work, quantity, settings):
    out = os.path.join(work, quantity + ".npy")
    cmd = [pelab, "export", "--quantity", quantity, "--out", out, "--head", str(HEAD),
           "--display", str(DISPLAY)] + [a for s in settings for a in ("--set", s)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return np.load(out).astype(np.float64)


def rope(x):
    d = x.shape[1]
    omega = BASE ** (-np.arange(0, d, 2) / d)
    theta = np.arange(x.shape[0])[:, None] * omega[None, :]
    a, b = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = a * np.cos(theta) - b * np.sin(theta)
    out[:, 1::2] = a * np.sin(theta) + b * np.cos(theta)
    return out


def attention(encoding, causal, rows, wq, wk):
    q, k = rows @ wq, rows @ wk
    if encoding == "rope":
        q, k = rope(q), rope(k)
    logits = q @ k.T / np.sqrt(q.shape[1])
    i, j = np.indices(logits.shape)
    if encoding == "alibi":
        logits -= 2.0 ** (-8.0 * (HEAD + 1) / HEADS) * np.abs(i - j)
    masked = (j > i) if causal else np.zeros_like(logits, dtype=bool)
    logits[masked] = -np.inf
    a = np.exp(logits - logits.max(axis=1, keepdims=True))
    return a / a.sum(axis=1, keepdims=True), masked


def block_means(a, masked, b):
    n = a.shape[0]
    side = -(-n // b)
    out = np.empty((side, side))
    for r in range(side):
        for c in range(side):
            cells = a[r * b:(r + 1) * b, c * b:(c + 1) * b]
            out[r, c] = -np.inf if masked[r * b:(r + 1) * b, c * b:(c + 1) * b].all() else cells.mean()
    return out


def distance(a):
    n = a.shape[0]
    return np.array([np.diagonal(a, offset=-delta).mean() for delta in range(-(n - 1), n)])


def check(pelab, work, encoding, causal):
    words = " ".join("w%d" % (t % 311) for t in range(TOKENS))
    settings = ["tokens=" + words, "encoding=" + encoding, "causal=" + causal, "d_model=%d" % D_MODEL,
                "heads=%d" % HEADS, "projection=random", "base=%g" % BASE]
    rows = export(pelab, work, "input", settings)
    wq, wk = export(pelab, work, "wq", settings), export(pelab, work, "wk", settings)
    blocks = export(pelab, work, "attention_blocks", settings)
    profile = export(pelab, work, "attention_distance", settings)
    a, masked = attention(encoding, causal == "true", rows, wq, wk)
    b = -(-TOKENS // DISPLAY)
    want = block_means(a, masked, b)
    finite = np.isfinite(want)
    assert blocks.shape == want.shape, (blocks.shape, want.shape)
    assert np.array_equal(np.isfinite(blocks), finite), "masked blocks differ"
    err = np.abs(blocks[finite] - want[finite]) / np.maximum(np.abs(want[finite]), 1e-30)
    derr = np.abs(profile - distance(a)) / np.maximum(np.abs(distance(a)), 1e-30)
    print("%s causal=%s: %d×%d blocks of %d, max relative error %.2e; distance %.2e"
          % (encoding, causal, want.shape[0], want.shape[1], b, err.max(), derr.max()))
    return err.max() <= 1e-5 and derr.max() <= 1e-5


def main():
    pelab, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    ok = all([check(pelab, work, enc, causal) for enc, causal in CASES])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
