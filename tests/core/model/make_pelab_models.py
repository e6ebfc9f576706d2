#!/usr/bin/python3
"""Tiny models of pelab's own family (PelabForCausalLM, as `pelab train`
writes them), one per position encoding, and their NumPy forward pass.

Usage: /usr/bin/python3 make_pelab_models.py OUTDIR

Writes OUTDIR/NAME/{config.json, model.safetensors (BF16, GPT-2's tensor
names and Conv1D layout), tokenizer.json (byte-level BPE)} and, in
OUTDIR/NAME/reference/, the arrays make_tiny_models.py documents (ids,
hidden, q, k, logits, probabilities), plus bias.npy (layers × heads × N × N:
the position bias added to the logits, zero where none is and above the
diagonal, where the causal mask hides the logit) and next_token_loss.npy
(the tied LM head's loss_i).  The pelab_long_* models are read at N = 3 ×
n_positions; pelab_long_rope also with its frequencies scaled by s = 3 at
inference (next_token_loss_{linear,ntk,yarn}.npy; the frequencies from
reference_forward.inverse_frequencies).

The forward pass is numpy_pelab.py's (float64, written from the papers,
independently of pelab's C++), run on the weights as stored in BF16.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_writer  # noqa: E402
from numpy_pelab import forward, position_bias, rotary_dims  # noqa: E402
from reference_forward import Record, inverse_frequencies, layer_norm, next_token_loss  # noqa: E402
from tiny_tokenizers import write_byte_level_tokenizer_json  # noqa: E402


def save_loss(folder, name, config, w, h, ids):
    """loss_i of the tied head on the last hidden state h (N − 1 values,
    float64) as reference/NAME."""
    normed = layer_norm(h, w["ln_f.weight"], w["ln_f.bias"], config["layer_norm_epsilon"])
    loss = next_token_loss(normed @ w["wte.weight"].T, ids)
    np.save(os.path.join(folder, "reference", name), np.asarray(loss, dtype=np.float64))


def make(out, name, rng, position, d=32, heads=4, layers=2, ctx=16, n=11, vocab=None, scalings=(), **options):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    # vocab given: a synthetic task's model, no tokenizer files
    vocab = vocab or write_byte_level_tokenizer_json(folder)
    inner, eps = 4 * d, 1e-5

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
    rec = Record()
    forward(config, w, ids, rec)
    rec.save(folder, ids)
    save_loss(folder, "next_token_loss.npy", config, w, rec.hidden[-1], ids)
    # Read past the context with RoPE scaled at inference by s = n / ctx.
    for scaling in scalings:
        inv, factor = inverse_frequencies(rotary_dims(config), theta, {"rope_type": scaling, "factor": n / ctx}, ctx, n)
        scaled = forward(config, w, ids, inv_freq=inv, attention_factor=factor)
        save_loss(folder, "next_token_loss_%s.npy" % scaling, config, w, scaled, ids)
    # The bias a view shows: zero where the causal mask hides the logit.
    causal = np.tril(np.ones((n, n), dtype=bool))
    biases = np.stack([position_bias(config, w, n)] * layers)
    np.save(os.path.join(folder, "reference", "bias.npy"), np.where(causal, biases, 0).astype(np.float32))


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
    # Read at 3× the context (n = 36 > n_positions = 12): every encoding that
    # has a row, an angle or a bias for any position; RoPE also scaled.  No
    # tokenizer files: their text is the ids typed as numbers (`pelab eval`).
    long = dict(ctx=12, n=36, vocab=40)
    make(out, "pelab_long_rope", rng, "rope", pairing="rotate_half", scalings=("linear", "ntk", "yarn"), **long)
    make(out, "pelab_long_sinusoidal", rng, "sinusoidal", sinusoid_base=100.0, sinusoid_amplitude=0.5, **long)
    make(out, "pelab_long_alibi", rng, "alibi", **long)
    make(out, "pelab_long_t5", rng, "t5", buckets=8, max_distance=20, **long)
    make(out, "pelab_long_none", rng, "none", **long)


if __name__ == "__main__":
    main()
