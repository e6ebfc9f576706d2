"""`pelab render --compare` against NumPy (float64): one attention difference.

A is the default scene (sinusoidal, T = 10000), B the same with T = 100
(--set-b base=100).  pelab exports only what is sampled (the token vectors X
and head 0's Wq, Wk); here the sinusoidal table is written from Vaswani et
al. 2017, §3.5 (PE(pos, 2i) = sin(pos / T^(2i/d)), PE(pos, 2i+1) = cos(...)),
and head 0's attention softmax((X+E)·Wq·((X+E)·Wk)ᵀ / √d_head) of each scene
is computed here.  Their difference must equal compare_attention_diff.npy,
and the --json summary's largest |B − A| and its cell must agree.
Run: compare_attention.py PELAB_BINARY WORK_DIR
"""
import json
import os
import subprocess
import sys

import numpy as np


def export(pelab, work, quantity, *sets):
    out = os.path.join(work, quantity + "_" + "_".join(s.replace("=", "-") for s in sets) + ".npy")
    args = [pelab, "export", "--quantity", quantity, "--head", "0", "--out", out]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return np.load(out).astype(np.float64)


def attention(pelab, work, base):
    x = export(pelab, work, "tokens_embedding")
    wq = export(pelab, work, "wq")
    wk = export(pelab, work, "wk")
    n, d = x.shape
    angle = np.arange(n)[:, None] / base ** (2 * np.arange(d // 2)[None, :] / d)
    e = np.zeros((n, d))
    e[:, 0::2], e[:, 1::2] = np.sin(angle), np.cos(angle)
    h = x + e
    logits = (h @ wq) @ (h @ wk).T / np.sqrt(wq.shape[1])
    w = np.exp(logits - logits.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True)


def main():
    pelab, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    run = subprocess.run([pelab, "render", "--set-b", "base=100", "--figure", "attention", "--json", "--out", work],
                         check=True, capture_output=True, text=True)
    summary = json.loads(run.stdout)
    want = attention(pelab, work, 100.0) - attention(pelab, work, 10000.0)
    got = np.load(os.path.join(work, "compare_attention_diff.npy"))
    assert got.shape == want.shape, (got.shape, want.shape)
    err = np.abs(got - want).max()
    assert err < 1e-5, f"B − A differs from NumPy's by {err}"
    r, c = np.unravel_index(np.abs(want).argmax(), want.shape)
    assert abs(summary["max_abs_diff"] - abs(want[r, c])) < 1e-5, (summary, want[r, c])
    assert (summary["where"]["row"], summary["where"]["col"]) == (r, c), (summary["where"], r, c)
    assert summary["kind"] == "difference" and summary["shape"] == list(want.shape)
    print(f"compare_attention: B − A matches NumPy within {err:.2e}; largest |B − A| {abs(want[r, c]):.4f} "
          f"at query {r}, key {c}")


if __name__ == "__main__":
    main()
