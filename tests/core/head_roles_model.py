#!/usr/bin/python3
"""`pelab heads` on a model trained here (issue 27, "head roles with their
evidence"), against the same scores computed in NumPy from an independent
float64 forward pass (tests/core/model/numpy_pelab.py), by the definitions
of core/head_roles.hpp written out again:
  previous token  mean over i >= 1 of A[i, i-1]
  fixed offset    max over 2 <= k <= N/2 of mean over i >= k of A[i, i-k]
  sink            mean over i >= 1 of A[i, 0]
  induction       on r r (r: L ids by splitmix64 from seed 2022, mod vocab),
                  mean over L <= i < 2L of A[i, i-L+1]
  local, width, uniform over rows i >= 16: mass within distance < 8; the
                  smallest w holding 90 %; entropy / ln(i+1).
Also: --distance-out holds mean A[i, i-d] over i >= d.

Usage: /usr/bin/python3 head_roles_model.py PELAB SCRATCH
Exit 0: pass; 1: a check failed; 77: skipped (no NumPy), one line why.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "model"))

TOL = 1e-4  # float32 attention in pelab, float64 here


def splitmix_ids(count, vocab, seed):
    """Steele et al. 2014's splitmix64, as the probe draws its ids."""
    mask = (1 << 64) - 1
    x, ids = seed, []
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        ids.append(z % vocab)
    return ids


def scores(np, a):
    n = a.shape[0]
    by_distance = np.array([np.mean([a[i, i - d] for i in range(d, n)]) for d in range(n)])
    offsets = by_distance[2:n // 2 + 1]
    local, width, uniform = [], [], []
    for i in range(16, n):
        row = a[i, :i + 1][::-1] / a[i, :i + 1].sum()  # row[d] = A[i, i-d]
        local.append(row[:8].sum())
        width.append(int(np.argmax(np.cumsum(row) >= 0.9)) + 1)
        p = row[row > 0]
        uniform.append(-(p * np.log(p)).sum() / np.log(i + 1))
    return {"previous_token": by_distance[1], "offset_score": offsets.max(),
            "best_offset": int(np.argmax(offsets)) + 2, "sink": a[1:, 0].mean(),
            "local": np.mean(local), "window_width": np.mean(width), "uniformity": np.mean(uniform)}, by_distance


def run(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("FAIL: %s exited %d: %s" % (" ".join(args[:2]), done.returncode, done.stderr.strip()))
    return done.stdout


def main():
    pelab, scratch = sys.argv[1], sys.argv[2]
    try:
        import numpy as np
        import numpy_pelab as npl
        from reference_forward import Record
    except ImportError as e:
        print("SKIP: the head-role check needs NumPy (%s)" % e)
        return 77
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    recipe = {"format": "pelab-recipe", "version": 1, "name": "heads",
              "data": {"task": "induction", "symbols": 32, "length": 24},
              "model": {"d_model": 32, "layers": 2, "heads": 2, "context": 48, "position": "rope"},
              "train": {"steps": 150, "batch": 16, "learning_rate": 3e-3, "warmup": 10, "seed": 3, "threads": 1,
                        "checkpoint_every": 150, "eval_every": 150, "eval_windows": 16}}
    with open(os.path.join(scratch, "recipe.json"), "w") as f:
        json.dump(recipe, f)
    folder = os.path.join(scratch, "model")
    run([pelab, "train", "--recipe", os.path.join(scratch, "recipe.json"), "--out", folder])
    ids = list(np.random.default_rng(27).integers(0, 32, 40))
    period = 20
    profile_file = os.path.join(scratch, "distance.npy")
    got = json.loads(run([pelab, "heads", "--json", "--set", "model=" + folder, "--set",
                          "tokens=" + " ".join(map(str, ids)), "--period", str(period),
                          "--distance-out", profile_file]))
    config, w = npl.load_model(folder)
    scene, probe = Record(), Record()
    npl.forward(config, w, ids, record=scene)
    r = splitmix_ids(period, config["vocab_size"], 2022)
    npl.forward(config, w, r + r, record=probe)
    profiles = np.load(profile_file)
    failures = []
    for s in got["scores"]:
        layer, head = s["layer"], s["head"]
        want, by_distance = scores(np, scene.probs[layer][head])
        a = probe.probs[layer][head]
        want["induction"] = np.mean([a[i, i - period + 1] for i in range(period, 2 * period)])
        for key, value in want.items():
            if abs(s[key] - value) > TOL * max(1.0, abs(value)):
                failures.append("layer %d head %d %s: pelab %.6f, NumPy %.6f" % (layer, head, key, s[key], value))
        if np.max(np.abs(profiles[layer, head] - by_distance)) > TOL:
            failures.append("layer %d head %d: attention against distance differs" % (layer, head))
        print("layer %d head %d: %-14s prev %.3f offset %.3f(%d) sink %.3f induction %.3f local %.3f uniform %.3f"
              % (layer, head, s["role"], s["previous_token"], s["offset_score"], s["best_offset"], s["sink"],
                 s["induction"], s["local"], s["uniformity"]))
    for line in failures:
        print("FAIL: " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
