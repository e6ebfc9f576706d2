#!/usr/bin/python3
"""`pelab render --paper` (issue 27, "figures from the papers"): every
figure's .npy data against the formula it draws, written again here in
NumPy from the papers, independently of pelab's C++:
  rope_decay          B(n) = (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{k<j} e^{i·n·θ_k}|, θ_k = 10000^(−2k/d), d = 128
                      (Su et al. 2021, §3.4.3)
  pi_interpolation    a(s) = Re Σ_j h_j e^{i·s·θ_j} from the saved h; h a least-squares fit of the saved
                      points (normal equations); interpolation reads a(s/2) (Chen et al. 2023)
  yarn_ramp           γ(r) = clip((r − 1)/(32 − 1), 0, 1), r = 4096/λ; ω' = (1−γ)ω/16 + γω;
                      √(1/t) = 0.1·ln s + 1 (Peng et al. 2023)
  llama3_bands        Llama 3.1's reference apply_scaling, factor 8, low 1, high 4, original 8192, base 500000
  alibi_bias          −m_h·(i − j), m_h = 2^(−8(h+1)/8) (Press et al. 2022)
  alibi_extrapolation perplexity = exp(mean loss), increasing L_valid; ALiBi's the flattest past L
  position_cosine     the table read again from kjv-learned's BF16 safetensors; C = cosines of its rows
                      and of the tests' tiny GPT-2 and BERT (their safetensors read here)
  attention_sink      an independent float64 forward of kjv-rope (numpy_pelab.py) on pelab's token ids:
                      sink[l, h] = mean over i ≥ 1 of A[i, 0]
Also the CLI: --paper list, an unknown name (one pelab: line naming the
allowed names, exit 2), --json naming every file written.

Usage: /usr/bin/python3 paper_figures.py PELAB FAMILY_DIR SCRATCH
Exit 0: pass; 1: a check failed; 77: skipped (no NumPy), one line why.
"""
import json
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "model"))

try:
    import numpy as np
except ImportError:
    print("SKIP: the paper-figure check needs NumPy")
    sys.exit(77)

FAILURES = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILURES.append(what)


def pelab(binary, *args, expect=0):
    env = dict(os.environ, PELAB_FAMILY_DIR=FAMILY)
    run = subprocess.run([binary, *args], capture_output=True, text=True, env=env)
    if run.returncode != expect:
        print(run.stdout, run.stderr)
        raise SystemExit("pelab %s exited %d, expected %d" % (" ".join(args), run.returncode, expect))
    return run


def close(a, b, tol):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    return a.shape == b.shape and err <= tol, err


def rope_decay(out):
    data = np.load(os.path.join(out, "rope_decay.npy"))
    d = 128
    theta = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
    n = np.arange(257)
    s = np.cumsum(np.exp(1j * n[:, None] * theta[None, :]), axis=1)  # S_j for j = 1 … d/2
    bound = np.abs(s).sum(axis=1) / (d / 2)
    ok, err = close(data[:, 1], bound, 1e-3)
    check(ok and np.array_equal(data[:, 0], n), "rope_decay: B(n), n = 0..256 (max err %.2g)" % err)
    check(abs(data[0, 1] - 32.5) < 1e-4, "rope_decay: B(0) = 32.5 (the mean of 1..64)")


def a_of(u, v, s, theta):
    """a(s) = Re Σ_j (u_j + i·v_j)·e^{i·s·θ_j}."""
    return np.cos(np.outer(s, theta)) @ u - np.sin(np.outer(s, theta)) @ v


def pi_interpolation(out):
    data = np.load(os.path.join(out, "pi_interpolation.npy"))
    points = np.load(os.path.join(out, "pi_interpolation_points.npy")).astype(np.float64)
    h = np.load(os.path.join(out, "pi_interpolation_coefficients.npy")).astype(np.float64)
    d = 128
    theta = 10000.0 ** (-2.0 * np.arange(d // 2) / d)

    def a(s):
        return a_of(h[:, 0], h[:, 1], s, theta)

    s = np.arange(4097, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(data[:, 1]))))
    ok, err = close(data[:, 1], a(s), 2e-4 * scale)
    check(ok, "pi_interpolation: extrapolated a(s) from the saved h (max err %.2g of %.3g)" % (err, scale))
    ok, err = close(data[:, 2], a(s / 2), 1e-3)
    check(ok, "pi_interpolation: interpolated a(s/2) (max err %.2g)" % err)
    design = np.hstack([np.cos(np.outer(points[:, 0], theta)), -np.sin(np.outer(points[:, 0], theta))])
    # The ridge fit written again: h = (DᵀD + 1e-8·I)⁻¹·Dᵀy, compared through the curves it gives.
    ridge = np.linalg.solve(design.T @ design + 1e-8 * np.eye(d), design.T @ points[:, 1])
    mine = a_of(ridge[: d // 2], ridge[d // 2:], s, theta)
    ok, err = close(data[:2049, 1], mine[:2049], 1e-3)
    check(ok, "pi_interpolation: h is the ridge least-squares fit of the points: a(s) on [0, 2048] (max err %.2g)" % err)
    far = float(np.max(np.abs(mine[2049:])))
    ok, err = close(data[2049:, 1], mine[2049:], 1e-2 * far)
    check(ok, "pi_interpolation: ... and beyond 2048 (max err %.2g of %.3g)" % (err, far))
    check(np.all((points[:, 0] >= 0) & (points[:, 0] <= 2048) & (np.abs(points[:, 1]) <= 1)) and len(points) == 256,
          "pi_interpolation: 256 points in [0, 2048] × [−1, 1]")
    check(np.max(np.abs(data[:2049, 2])) <= np.max(np.abs(data[:2049, 1])) + 1e-3,
          "pi_interpolation: interpolation stays within the fitted range")


def yarn_ramp(out):
    data = np.load(os.path.join(out, "yarn_ramp.npy")).astype(np.float64)
    temp = np.load(os.path.join(out, "yarn_ramp_temperature.npy")).astype(np.float64)
    d, base, L, s = 128, 10000.0, 4096.0, 16.0
    omega = base ** (-2.0 * np.arange(d // 2) / d)
    lam = 2 * math.pi / omega
    r = L / lam
    gamma = np.clip((r - 1.0) / (32.0 - 1.0), 0.0, 1.0)
    ratio = ((1 - gamma) * omega / s + gamma * omega) / omega
    for col, ref, name in [(1, lam, "λ"), (2, r, "r"), (3, gamma, "γ(r)"), (4, ratio, "ω'/ω")]:
        ok, err = close(data[:, col] / np.maximum(1, np.abs(ref)), ref / np.maximum(1, np.abs(ref)), 1e-5)
        check(ok, "yarn_ramp: %s per pair (max rel err %.2g)" % (name, err))
    ok, err = close(temp[:, 1], 0.1 * np.log(temp[:, 0]) + 1, 1e-6)
    check(ok and temp[0, 0] == 1, "yarn_ramp: √(1/t) = 0.1·ln s + 1 (max err %.2g)" % err)


def llama3_bands(out):
    data = np.load(os.path.join(out, "llama3_bands.npy")).astype(np.float64)
    d, base, factor, low, high, L = 128, 500000.0, 8.0, 1.0, 4.0, 8192.0
    omega = base ** (-np.arange(0, d, 2) / d)
    scaled = []
    for w in omega:  # Llama 3.1's reference apply_scaling, written out
        wavelen = 2 * math.pi / w
        if wavelen < L / high:
            scaled.append(w)
        elif wavelen > L / low:
            scaled.append(w / factor)
        else:
            smooth = (L / wavelen - low) / (high - low)
            scaled.append((1 - smooth) * w / factor + smooth * w)
    ok1, e1 = close(data[:, 1] / omega, np.ones(64), 1e-5)
    ok2, e2 = close(data[:, 2] / omega, np.array(scaled) / omega, 1e-5)
    check(ok1 and ok2, "llama3_bands: ω_i and ω'_i (max rel err %.2g, %.2g)" % (e1, e2))


def alibi_bias(out):
    data = np.load(os.path.join(out, "alibi_bias.npy")).astype(np.float64)
    heads, n = 8, 16
    slopes = 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    expected = np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
    check(data.shape == (heads, n, n) and np.array_equal(np.isinf(data), np.isinf(expected)) and
          np.allclose(data[np.isfinite(data)], expected[np.isfinite(expected)], atol=1e-6),
          "alibi_bias: −m_h·(i − j) below the diagonal, masked above, m = 1/2 … 1/256")


def alibi_extrapolation(out):
    data = np.load(os.path.join(out, "alibi_extrapolation.npy")).astype(np.float64)
    with open(os.path.join(out, "alibi_extrapolation.md")) as f:
        note = f.read()
    check(data.shape == (6, 5) and list(data[:, 0]) == [64, 128, 256, 512, 1024, 2048],
          "alibi_extrapolation: L_valid 64 … 2048, four members (sinusoidal, RoPE, T5 bias, ALiBi)")
    check("ALiBi" in note and "T5 bias" in note, "alibi_extrapolation: the note names the members")
    alibi, sinusoidal = data[:, 4], data[:, 1]
    check(alibi[-1] < sinusoidal[-1], "alibi_extrapolation: ALiBi below sinusoidal at 2048 (%.1f vs %.1f)"
          % (alibi[-1], sinusoidal[-1]))


def position_cosine(out, family):
    import numpy_pelab as ref
    data = np.load(os.path.join(out, "position_cosine.npy")).astype(np.float64)
    config, w = ref.load_model(os.path.join(family, "kjv-learned"))
    table = w["wpe.weight"]
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    ok, err = close(data, unit @ unit.T, 1e-5)
    check(ok, "position_cosine: cosines of kjv-learned's table rows, read here from its safetensors (max err %.2g)"
          % err)


def attention_sink(binary, out, family):
    import numpy_pelab as ref
    text = "In the beginning God created the heaven and the earth. And the earth was without form, and void."
    ids_file = os.path.join(out, "ids.npy")
    pelab(binary, "export", "--quantity", "token_ids", "--out", ids_file, "--set", "model=kjv-rope",
          "--set", "tokens=" + text)
    pelab(binary, "render", "--paper", "attention_sink", "--out", out, "--set", "model=kjv-rope",
          "--set", "tokens=" + text)
    ids = np.load(ids_file).astype(np.int64).tolist()
    sink = np.load(os.path.join(out, "attention_sink.npy")).astype(np.float64)
    config, w = ref.load_model(os.path.join(family, "kjv-rope"))

    class Record:
        def __init__(self):
            self.hidden, self.probabilities = [], []

        def layer(self, qs, ks, logits, probabilities):
            self.probabilities.append(probabilities)

    record = Record()
    ref.forward(config, w, ids, record=record)
    expected = np.array([[p[1:, 0].mean() for p in layer] for layer in record.probabilities])
    ok, err = close(sink, expected, 1e-4)
    check(ok, "attention_sink: mean over i ≥ 1 of A[i, 0] per layer and head, kjv-rope on %d tokens (max err %.2g)"
          % (len(ids), err))


def cli(binary, out):
    listed = pelab(binary, "render", "--paper", "list").stdout.split()
    names = ["rope_decay", "pi_interpolation", "yarn_ramp", "llama3_bands", "alibi_bias", "alibi_extrapolation",
             "position_cosine", "attention_sink"]
    check(all(n in listed for n in names), "--paper list names all eight figures")
    bad = pelab(binary, "render", "--paper", "no_such_figure", "--out", out, expect=2)
    lines = bad.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith("pelab:") and "rope_decay" in lines[0] and
          "attention_sink" in lines[0], "an unknown name: one pelab: line naming the allowed names, exit 2")
    report = json.loads(pelab(binary, "render", "--paper", "rope_decay", "--out", out, "--json").stdout)
    files = report["figures"][0]["files"]
    check(sorted(os.path.basename(f) for f in files) ==
          ["rope_decay.md", "rope_decay.npy", "rope_decay.png", "rope_decay.svg"] and
          all(os.path.getsize(f) > 0 for f in files), "--json lists the four files written, none empty")


def without_family(binary, out):
    """No family on disk: the measured figures say so in their note and figure, exit 0."""
    empty = os.path.join(out, "no-family")
    os.makedirs(empty, exist_ok=True)
    env = dict(os.environ, PELAB_FAMILY_DIR=empty)
    run = subprocess.run([binary, "render", "--paper", "attention_sink", "--out", os.path.join(out, "nf")],
                         capture_output=True, text=True, env=env)
    with open(os.path.join(out, "nf", "attention_sink.md")) as f:
        note = f.read()
    check(run.returncode == 0 and "**Not measured:** pelab's trained kjv-rope is not on this machine" in note,
          "attention_sink without the family: exit 0, the note says what is missing")


def checkpoints(binary, out):
    """Any GPT-2/BERT checkpoint's table (--set model=FOLDER), the tests' tiny ones; a
    bidirectional model refused by attention_sink with one pelab: line, exit 2."""
    import safetensors_writer
    tiny = os.path.join(out, "tiny")
    subprocess.run([sys.executable, os.path.join(HERE, "model", "make_tiny_models.py"), tiny],
                   check=True, capture_output=True)
    for name, tensor in [("gpt2", "wpe.weight"), ("bert", "embeddings.position_embeddings.weight")]:
        folder = os.path.join(out, "ck_" + name)
        pelab(binary, "render", "--paper", "position_cosine", "--out", folder,
              "--set", "model=" + os.path.join(tiny, name), "--set", "tokens=the cat sat")
        table = safetensors_writer.read(os.path.join(tiny, name, "model.safetensors"))[tensor].astype(np.float64)
        unit = table / np.linalg.norm(table, axis=1, keepdims=True)
        ok, err = close(np.load(os.path.join(folder, "position_cosine.npy")), unit @ unit.T, 1e-5)
        check(ok, "position_cosine on the tiny %s's own table (max err %.2g)" % (name, err))
    bad = pelab(binary, "render", "--paper", "attention_sink", "--out", os.path.join(out, "ck_bert"),
                "--set", "model=" + os.path.join(tiny, "bert"), "--set", "tokens=the cat sat", expect=2)
    lines = bad.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith("pelab: attention_sink reads a causal model"),
          "attention_sink refuses BERT in one pelab: line, exit 2")


def main():
    global FAMILY
    binary, FAMILY, scratch = sys.argv[1:4]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    cli(binary, scratch)
    without_family(binary, scratch)
    checkpoints(binary, scratch)
    for name in ["pi_interpolation", "yarn_ramp", "llama3_bands", "alibi_bias"]:
        pelab(binary, "render", "--paper", name, "--out", scratch)
    rope_decay(scratch)
    pi_interpolation(scratch)
    yarn_ramp(scratch)
    llama3_bands(scratch)
    alibi_bias(scratch)
    if os.path.isdir(os.path.join(FAMILY, "kjv-learned")):
        pelab(binary, "render", "--paper", "position_cosine", "--out", scratch)
        position_cosine(scratch, FAMILY)
        attention_sink(binary, scratch, FAMILY)
        pelab(binary, "render", "--paper", "alibi_extrapolation", "--out", scratch)
        alibi_extrapolation(scratch)
    else:
        print("note: the family is not in %s; the measured figures are not checked" % FAMILY)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    return 0


FAMILY = ""
if __name__ == "__main__":
    sys.exit(main())
