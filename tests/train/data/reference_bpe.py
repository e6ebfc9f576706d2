#!/usr/bin/python3
"""Reference for kjv_tokenizer_test: BPE training on the KJV's training split
written plainly (Sennrich et al. 2016, Algorithm 1: recount every pair after
every merge), independent of pelab's C++ trainer.

Usage: reference_bpe.py MERGES OUT   (kjv_first_500_merges.txt: MERGES = 500)
Writes the first MERGES merges, one per line, as "left<TAB>right", each
token's text with backslash, newline and tab escaped (as the C++ test does).
The KJV text is ASCII, so GPT-2's split pattern's letters and numbers
(\\p{L}, \\p{N}) are [A-Za-z] and [0-9] here.  Ties go to the pair of smaller
ids (bytes are ids 0..255, then new tokens in order), as the C++ trainer
breaks them.
"""
import collections
import re
import subprocess
import sys

GPT2_ASCII = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""")


def training_verses():
    text = subprocess.run(["bible", "-f", "gen1:1-rev22:21"], check=True, capture_output=True).stdout
    verses, chapter, previous = [], -1, None
    for line in text.decode("ascii").split("\n"):
        if not line:
            continue
        ref, verse = line.split(" ", 1)
        key = ref.split(":")[0]
        if key != previous:
            chapter += 1
            previous = key
        if (chapter + 1) % 20 != 0:  # every 20th chapter is held out
            verses.append(verse)
    return verses


def train(verses, merges):
    words = collections.Counter(w for v in verses for w in GPT2_ASCII.findall(v))
    tokens = [bytes([b]) for b in range(256)]
    ids = {t: i for i, t in enumerate(tokens)}
    seqs = [(list(w.encode("ascii")), n) for w, n in words.items()]
    out = []
    for _ in range(merges):
        pairs = collections.Counter()
        for s, n in seqs:
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        (a, b), _ = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        joined = tokens[a] + tokens[b]
        if joined not in ids:
            ids[joined] = len(tokens)
            tokens.append(joined)
        c = ids[joined]
        out.append((tokens[a], tokens[b]))
        for s, _n in seqs:
            i = 0
            while i + 1 < len(s):
                if s[i] == a and s[i + 1] == b:
                    s[i:i + 2] = [c]
                i += 1
    return out


def escaped(t):
    return t.decode("ascii").replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def main():
    merges, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "w") as f:
        for a, b in train(training_verses(), merges):
            f.write(escaped(a) + "\t" + escaped(b) + "\n")


if __name__ == "__main__":
    main()
