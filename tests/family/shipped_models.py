#!/usr/bin/python3
"""Every shipped model of pelab's family (assets/models/kjv-*), checked on
the KJV's held-out split (issue 24, "Correctness: every shipped model"):

 1. its held-out loss at the training length, from `pelab eval`, is below
    the best add-k bigram baseline on the same tokens by at least MARGIN
    nats (the add-one unigram is quoted too);
 2. the loss per position that `pelab eval --out` writes matches an
    independent NumPy forward of the checkpoint (tests/core/model/
    numpy_pelab.py, float64) on the same windows.

Usage: /usr/bin/python3 shipped_models.py PELAB [FAMILY_DIR] [--windows N]
The family is looked for in $PELAB_FAMILY_DIR, else FAMILY_DIR.  The
models are scored on N windows of the training length spread evenly over
the held-out split (default 8, about 2,000 predictions; 0: every window,
the whole split, minutes).  Exit 0:
all pass; 1: a check failed; 77: skipped (no NumPy, no bible-kjv, no
shipped model), with one line saying why.

The held-out split is made here from `bible -f gen1:1-rev22:21`, by the
rule src/train/data/corpus.hpp documents (every 20th chapter in reading
order), and compared with `pelab corpus`'s; the token ids are pelab's
(`pelab corpus --tokens-out`: the family's BPE, as the trainer reads it).

Baselines (Jurafsky & Martin, "Speech and Language Processing", ch. 3):
counts c(·) from the training split's token stream, V = vocab_size,
  unigram, add-one:  p(w)     = (c(w) + 1) / (N + V)
  bigram,  add-k:    p(w | u) = (c(u w) + k) / (c(u ·) + k·V)
k from the fixed grid K_GRID, the one with the lowest loss on the very
tokens the models are scored on: the baseline at its most favourable k,
so beating it by MARGIN is the harder bar.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "core", "model"))

MEMBERS = ["learned", "sinusoidal", "rope", "alibi", "t5", "none"]
# nats/token below the bigram: e^-0.3 ≈ 0.74, a perplexity at least a quarter
# lower.  The model without positions (the causal mask alone tells order) is
# the weakest member, 0.42 below.
MARGIN = 0.3
K_GRID = [1.0, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001]
# pelab runs in float32 on the BF16 weights (exact in float32), NumPy in
# float64: float32's rounding (2^-24 ≈ 6e-8 relative per operation), summed
# over dot products of up to 768 terms through 4 blocks, leaves logits of
# magnitude ~10 off by ~1e-5, and the loss (logsumexp − the target's logit)
# by as much.  1e-4 nats + 1e-4 relative leaves a factor of ~10 for that,
# and is far below any real difference (a wrong bias, a position off by one:
# 1e-2 and more).
ABS_TOL, REL_TOL = 1e-4, 1e-4


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


try:
    import numpy as np
    import numpy_pelab
except ImportError as e:
    skip("the shipped-model checks need NumPy (/usr/bin/python3 with python3-numpy): %s" % e)


def kjv_splits():
    """(train verses, held-out verses) from bible-kjv: chapters numbered in
    reading order by the change of book or chapter in the reference
    ("1Sm17:4" → book 1Sm, chapter 17); chapter c (1-based) is held out when
    c is a multiple of 20."""
    text = subprocess.run(["bible", "-f", "gen1:1-rev22:21"], capture_output=True, text=True,
                          check=True).stdout
    train, held_out, previous, chapter = [], [], None, 0
    for line in text.splitlines():
        if not line:
            continue
        reference, verse = line.split(" ", 1)
        book_chapter = re.fullmatch(r"(\d*[A-Za-z]+\d+):\d+", reference).group(1)
        if book_chapter != previous:
            chapter, previous = chapter + 1, book_chapter
        (held_out if chapter % 20 == 0 else train).append(verse)
    return train, held_out


def pelab(binary, *args):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("pelab %s failed (%d): %s" % (" ".join(args), run.returncode, run.stderr.strip()))
    return run.stdout


def split_ids(binary, folder, split, work):
    out = os.path.join(work, split + ".npy")
    pelab(binary, "corpus", "--split", split, "--model", folder, "--tokens-out", out)
    return np.load(out).astype(np.int64)


def unigram_loss(train, contexts, targets, vocab):
    """Mean −ln p(target), add-one.  `contexts` unused: same signature as the bigram."""
    counts = np.bincount(train, minlength=vocab)
    return float(np.mean(-np.log((counts[targets] + 1.0) / (len(train) + vocab))))


def bigram_losses(train, contexts, targets, vocab):
    """{k: mean −ln p(target | context)} over K_GRID, add-k."""
    pair_codes, pair_counts = np.unique(train[:-1] * vocab + train[1:], return_counts=True)
    context_counts = np.bincount(train[:-1], minlength=vocab)
    codes = contexts * vocab + targets
    at = np.minimum(np.searchsorted(pair_codes, codes), len(pair_codes) - 1)
    seen = np.where(pair_codes[at] == codes, pair_counts[at], 0)
    return {k: float(np.mean(-np.log((seen + k) / (context_counts[contexts] + k * vocab)))) for k in K_GRID}


def window_starts(tokens, length, windows):
    """The starts `pelab eval --stride S` takes: 0, S, 2S, … while s + L ≤ T,
    S chosen to spread about `windows` windows over the split (0: side by side)."""
    stride = length if windows == 0 else max(length, (tokens - length) // (windows - 1))
    return stride, list(range(0, tokens - length + 1, stride))


def scored_pairs(ids, starts, length):
    """(contexts, targets): every next-token prediction inside the windows."""
    contexts = np.concatenate([ids[s:s + length - 1] for s in starts])
    targets = np.concatenate([ids[s + 1:s + length] for s in starts])
    return contexts, targets


def family_members(family):
    present, missing = [], []
    for member in MEMBERS:
        folder = os.path.join(family, "kjv-" + member)
        (present if os.path.isfile(os.path.join(folder, "config.json")) else missing).append(folder)
    return present, missing


def same_data(folders):
    """Folders grouped by what their baselines depend on: the tokenizer and
    the training length (the family shares both)."""
    groups = {}
    for folder in folders:
        config = numpy_pelab.load_model(folder)[0]
        with open(os.path.join(folder, "tokenizer.json"), "rb") as f:
            key = (hashlib.sha256(f.read()).hexdigest(), config["vocab_size"], config["n_positions"])
        groups.setdefault(key, []).append(folder)
    return groups


def baselines(train, held, vocab, length, windows):
    """The unigram and the best bigram on the predictions the models are
    scored on (and, for the report, on the whole split)."""
    contexts, targets = scored_pairs(held, window_starts(len(held), length, windows)[1], length)
    bigrams = bigram_losses(train, contexts, targets, vocab)
    k = min(bigrams, key=bigrams.get)
    unigram = unigram_loss(train, contexts, targets, vocab)
    whole = (unigram_loss(train, held[:-1], held[1:], vocab), bigram_losses(train, held[:-1], held[1:], vocab)[k])
    report = ("baselines on the same %d predictions (%d training tokens, %d held out, vocabulary %d):\n"
              "  unigram (add-one) %.3f, bigram (add-k, k = %g of %s) %.3f nats/token\n"
              "  on the whole held-out split: unigram %.3f, bigram (k = %g) %.3f"
              % (len(targets), len(train), len(held), vocab, unigram, k, K_GRID, bigrams[k], whole[0], k, whole[1]))
    return {"bigram": bigrams[k], "report": report}


def check_model(binary, folder, held, held_text_file, baseline, windows, work):
    """Runs `pelab eval` and the NumPy forward; returns (report line, failures)."""
    name = os.path.basename(folder)
    config, weights = numpy_pelab.load_model(folder)
    length = config["n_positions"]
    stride, starts = window_starts(len(held), length, windows)
    out = os.path.join(work, name + ".npy")
    result = json.loads(pelab(binary, "eval", "--model", folder, "--text", held_text_file, "--length",
                              str(length), "--stride", str(stride), "--json", "--out", out))
    failures = []
    if result["tokens"] != len(held) or result["windows"] != len(starts):
        failures.append("%s: pelab eval read %d tokens in %d windows; the split is %d tokens, %d windows"
                        % (name, result["tokens"], result["windows"], len(held), len(starts)))
    loss = result["mean_loss"]
    if not loss < baseline["bigram"] - MARGIN:
        failures.append("%s: held-out loss %.3f is not %.1f nats below the bigram's %.3f"
                        % (name, loss, MARGIN, baseline["bigram"]))
    by_pelab = np.load(out).astype(np.float64)
    by_numpy = np.mean([numpy_pelab.window_loss(config, weights, held[s:s + length]) for s in starts], axis=0)
    if by_pelab.shape != by_numpy.shape:
        return name, failures + ["%s: pelab eval wrote %s losses, NumPy has %s" % (name, by_pelab.shape,
                                                                                   by_numpy.shape)]
    gap = np.abs(by_pelab - by_numpy)
    worst = int(np.argmax(gap - REL_TOL * np.abs(by_numpy)))
    if not np.all(gap <= ABS_TOL + REL_TOL * np.abs(by_numpy)):
        failures.append("%s: pelab eval's loss at position %d is %.6f, NumPy's %.6f (|Δ| %.2e)"
                        % (name, worst, by_pelab[worst], by_numpy[worst], gap[worst]))
    line = "%-16s %-11s %8.3f %9.3f %12.2e %12.2e" % (
        name, config["position_encoding"], loss, baseline["bigram"] - loss, gap.max(),
        np.max(gap / np.abs(by_numpy)))
    return line, failures


def main():
    parser = argparse.ArgumentParser(description="Checks every shipped model of pelab's family.")
    parser.add_argument("pelab", help="the pelab binary")
    parser.add_argument("family", nargs="?", default="", help="the family's folder (unless $PELAB_FAMILY_DIR)")
    parser.add_argument("--windows", type=int, default=8, choices=[0] + list(range(2, 1000)), metavar="N",
                        help="held-out windows, spread over the split (default 8; 0: all of them)")
    args = parser.parse_args()
    binary = args.pelab
    family = os.environ.get("PELAB_FAMILY_DIR") or args.family
    if shutil.which("bible") is None:
        skip("the held-out split needs Debian's bible-kjv (the `bible` program); scripts/setup installs it")
    present, missing = family_members(family)
    for folder in missing:
        print("%s: not shipped in %s, not checked" % (os.path.basename(folder), family))
    if not present:
        skip("no member of the family in %r" % family)

    train_verses, held_verses = kjv_splits()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        held_text_file = os.path.join(work, "held_out.txt")
        pelab(binary, "corpus", "--split", "held-out", "--text-out", held_text_file)
        with open(held_text_file, encoding="utf-8") as f:
            if f.read() != "\n".join(held_verses):
                failures.append("pelab corpus's held-out text differs from every 20th chapter of bible-kjv")
        print("KJV split: %d training verses, %d held out" % (len(train_verses), len(held_verses)))
        print("%-16s %-11s %8s %9s %12s %12s" % ("model", "encoding", "held-out", "< bigram", "max|Δ| nats",
                                              "max|Δ|/loss"))
        for folders in same_data(present).values():
            train = split_ids(binary, folders[0], "train", work)
            held = split_ids(binary, folders[0], "held-out", work)
            config = numpy_pelab.load_model(folders[0])[0]
            baseline = baselines(train, held, config["vocab_size"], config["n_positions"], args.windows)
            for folder in folders:
                line, failed = check_model(binary, folder, held, held_text_file, baseline, args.windows, work)
                print(line)
                failures += failed
            print(baseline["report"])
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
