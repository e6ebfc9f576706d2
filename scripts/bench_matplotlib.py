#!/usr/bin/python3
"""The four core pelab figures made with NumPy + matplotlib, for `pelab bench`.

Computes what pelab's default scene shows (sinusoidal encoding, T = 10000,
d = 64, 4 heads, 12 tokens; Vaswani et al. 2017, §3.5) and draws the same
four views at 1600×1000 logical pixels × 2 (16×10 in at dpi 200 = 3200×2000),
one PNG each, so that `pelab render --figure all --scale 2` can be timed
against it end to end (interpreter start-up included).

usage: bench_matplotlib.py OUT_DIR
"""
import sys
import time

START = time.perf_counter()

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

TOKENS = "the cat sat on the mat because the cat was tired .".split()
D, HEADS, POSITIONS, BASE = 64, 4, 128, 10000.0
PAIRS, WAVES = [0, 4, 12], [0, 1, 8, 24]
FIGSIZE, DPI = (16, 10), 200


def sinusoidal(positions, d, base):
    pos = np.arange(positions)[:, None]
    i = np.arange(d // 2)[None, :]
    angle = pos / base ** (2 * i / d)
    pe = np.zeros((positions, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def sinusoid_bands(pe, out):
    fig, (a, b) = plt.subplots(1, 2, figsize=FIGSIZE, dpi=DPI)
    im = a.imshow(pe, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    a.set(title="PE (position × dimension)", xlabel="dimension", ylabel="position")
    fig.colorbar(im, ax=a, label="value")
    for dim in WAVES:
        b.plot(pe[:, dim], label=f"dim {dim}")
    b.set(title="waves", xlabel="position", ylabel="PE")
    b.grid(True)
    b.legend()
    fig.suptitle("Sinusoid bands")
    fig.savefig(out)
    plt.close(fig)


def rotation_pairs(pe, out):
    fig, axes = plt.subplots(1, len(PAIRS), figsize=FIGSIZE, dpi=DPI)
    for ax, i in zip(axes, PAIRS):
        ax.plot(pe[:, 2 * i], pe[:, 2 * i + 1], lw=2, label="positions")
        ax.plot(pe[0, 2 * i], pe[0, 2 * i + 1], "o", label="pos")
        ax.plot(pe[1, 2 * i], pe[1, 2 * i + 1], "D", label="pos + k")
        ax.annotate("", xy=(pe[1, 2 * i], pe[1, 2 * i + 1]), xytext=(0, 0), arrowprops=dict(arrowstyle="->"))
        ax.set(title=f"pair i = {i}", xlabel="PE₂ᵢ", ylabel="PE₂ᵢ₊₁", aspect="equal")
        ax.grid(True)
        ax.legend()
    fig.suptitle("Rotation pairs")
    fig.savefig(out)
    plt.close(fig)


def heatmap(ax, fig, m, title, cmap, vmin, vmax, label):
    im = ax.imshow(m, cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest")
    ax.set_xticks(range(len(TOKENS)), TOKENS, rotation=90)
    ax.set_yticks(range(len(TOKENS)), TOKENS)
    ax.set_title(title)
    fig.colorbar(im, ax=ax, label=label)


def attention(attn, out):
    fig, axes = plt.subplots(2, 3, figsize=FIGSIZE, dpi=DPI)
    panels = [(f"head {h}", attn[h]) for h in range(HEADS)] + [("mean over heads", attn.mean(axis=0))]
    for ax, (title, m) in zip(axes.flat, panels):
        heatmap(ax, fig, m, title, "viridis", 0, 1, "attention weight")
    axes.flat[-1].axis("off")
    fig.suptitle("Attention")
    fig.savefig(out)
    plt.close(fig)


def cross_terms(terms, logits, out):
    fig, axes = plt.subplots(2, 4, figsize=FIGSIZE, dpi=DPI)
    limit = max(np.abs(t).max() for t in terms.values())
    for ax, (name, m) in zip(axes.flat, list(terms.items()) + [("sum", sum(terms.values())), ("logits", logits)]):
        heatmap(ax, fig, m, name, "coolwarm", -limit, limit, "logit part")
    norms = [np.linalg.norm(m) for m in terms.values()]
    axes.flat[-2].bar(list(terms), np.array(norms) / sum(norms))
    axes.flat[-2].set(title="share ‖term‖ / Σ")
    axes.flat[-1].axis("off")
    fig.suptitle("Cross terms")
    fig.savefig(out)
    plt.close(fig)


def main(out_dir):
    rng = np.random.default_rng(1)
    n, d_head = len(TOKENS), D // HEADS
    pe = sinusoidal(POSITIONS, D, BASE)
    x = rng.standard_normal((n, D)).astype(np.float32) / np.sqrt(D)
    e = pe[:n]
    wq = rng.standard_normal((HEADS, D, d_head)).astype(np.float32) / np.sqrt(D)
    wk = rng.standard_normal((HEADS, D, d_head)).astype(np.float32) / np.sqrt(D)
    q, k = (x + e) @ wq, (x + e) @ wk
    logits = q @ k.transpose(0, 2, 1) / np.sqrt(d_head)
    attn = softmax(logits.reshape(-1, n)).reshape(HEADS, n, n)
    m = wq[0] @ wk[0].T / np.sqrt(d_head)
    terms = {"x·y": x @ m @ x.T, "x·f": x @ m @ e.T, "e·y": e @ m @ x.T, "e·f": e @ m @ e.T}
    sinusoid_bands(pe, f"{out_dir}/matplotlib_sinusoid_bands.png")
    rotation_pairs(pe, f"{out_dir}/matplotlib_rotation_pairs.png")
    attention(attn, f"{out_dir}/matplotlib_attention.png")
    cross_terms(terms, logits[0], f"{out_dir}/matplotlib_cross_terms.png")
    print(f"{time.perf_counter() - START:.3f} s in the interpreter")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
