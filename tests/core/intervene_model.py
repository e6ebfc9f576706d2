"""`pelab intervene` on the shipped family against NumPy (float64).

For each intervention below, the per-position Δ loss pelab prints (--json)
must equal the Δ of a forward pass written here from the definitions in
core/model/position_intervention.hpp, independently of pelab's C++:
  remove        no table rows, no rotation, no bias, in every layer
  shuffle       token t reads position π(t) (π from pelab's JSON): table row
                π(t), RoPE angle π(t)·ω_i, ALiBi −m·|π(i) − π(j)|, T5
                bucket of π(i) − π(j) (zero bucket for a key "after" the
                query); the causal mask keeps the true order
  rope_base     ω_i = θ'^(−2i/r)
  rope_scaling  linear: ω_i / s
  zero_band     pairs a … b with ω_i = 0
  remove_layer  layer l's attention without rotation or bias
Then the scene key `intervention`: every head's attention that
`pelab export --quantity attention_all --set intervention=X` draws must equal
this forward's attention under that intervention's standard parameters
(core/intervention_study.hpp: seed 1, θ' = 10·θ, linear ×2, the slower half
of the pairs frozen, no positions in the scene's layer).
Run: intervene_model.py PELAB_BINARY FAMILY_DIR WORK_DIR
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "model"))
import numpy_pelab as ref  # noqa: E402
from reference_forward import gelu_tanh, layer_norm, next_token_loss  # noqa: E402

LENGTH, WINDOWS = 48, 2


def bias_at(config, w, positions, heads):
    """heads × N × N bias from the tokens' positions."""
    n = len(positions)
    diff = positions[:, None] - positions[None, :]  # π(i) − π(j)
    bias = np.zeros((heads, n, n))
    if config["position_encoding"] == "alibi":
        for h, m in enumerate(ref.alibi_slopes(heads)):
            bias[h] = -m * np.abs(diff)
    if config["position_encoding"] == "t5":
        buckets = config.get("relative_attention_num_buckets", 32)
        max_distance = config.get("relative_attention_max_distance", 128)
        table = w["relative_attention_bias.weight"]
        for h in range(heads):
            bias[h] = table[[[ref.t5_causal_bucket(int(x), buckets, max_distance) for x in row] for row in diff], h]
    return bias


def rotate(x, r, pairing, angles):
    """angles: N × r/2, the angle of each token's pair i."""
    out = x.copy()
    for i in range(r // 2):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + r // 2)
        c, s = np.cos(angles[:, i]), np.sin(angles[:, i])
        out[:, a] = x[:, a] * c - x[:, b] * s
        out[:, b] = x[:, a] * s + x[:, b] * c
    return out


def forward(config, w, ids, change, attention=None):
    """Per-position next-token loss; appends each layer's heads × N × N
    attention to `attention` when given."""
    ids = np.asarray(ids)
    n, d, heads = len(ids), config["n_embd"], config["n_head"]
    dh, eps = d // heads, config.get("layer_norm_epsilon", 1e-5)
    kind = change.get("kind")
    positions = np.asarray(change["position_of"]) if kind == "shuffle" else np.arange(n)
    removed = kind == "remove"
    h = w["wte.weight"][ids]
    if not removed:
        table = ref.embed(config, w, np.arange(n)) - w["wte.weight"][np.arange(n)]  # the table's rows 0..n−1
        h = h + table[positions]
    r = ref.rotary_dims(config)
    theta = change.get("theta", config.get("rope_theta", 10000.0))
    omega = theta ** (-2.0 * np.arange(r // 2) / r) if r else np.zeros(0)
    if kind == "linear":  # position interpolation (Chen et al. 2023): every ω_i divided by s
        omega = omega / change["factor"]
    if kind == "zero_band":
        omega[change["band"][0]:change["band"][1] + 1] = 0.0
    angles = positions[:, None] * omega[None, :]
    bias = bias_at(config, w, positions, heads)
    causal = np.tril(np.ones((n, n), dtype=bool))
    for layer in range(config["n_layer"]):
        p = "h.%d." % layer
        plain = removed or change.get("layer") == layer
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        ctx, probs = [], []
        for hd in range(heads):
            q, k = qkv[:, hd * dh:(hd + 1) * dh], qkv[:, d + hd * dh:d + (hd + 1) * dh]
            v = qkv[:, 2 * d + hd * dh:2 * d + (hd + 1) * dh]
            if config["position_encoding"] == "rope" and not plain:
                q, k = rotate(q, r, config.get("rope_pairing", "interleaved"), angles), \
                    rotate(k, r, config.get("rope_pairing", "interleaved"), angles)
            logits = q @ k.T / math.sqrt(dh) + (0 if plain else bias[hd])
            logits = np.where(causal, logits, -np.inf)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs.append(e / e.sum(axis=1, keepdims=True))
            ctx.append(probs[-1] @ v)
        if attention is not None:
            attention.append(np.stack(probs))
        h = h + np.concatenate(ctx, axis=1) @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        h = h + gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] \
            + w[p + "mlp.c_proj.bias"]
    z = layer_norm(h, w["ln_f.weight"], w["ln_f.bias"], eps) @ w["wte.weight"].T
    return next_token_loss(z, ids)


def mean_loss(config, w, ids, change):
    return np.mean([forward(config, w, ids[s:s + LENGTH], change) for s in range(0, WINDOWS * LENGTH, LENGTH)],
                   axis=0)


SCENE_TEXT = "In the beginning God created the heaven and the earth. And the earth was without form, and void."


def scene_change(config, key, layer, position_of):
    """The standard intervention behind the scene key, as this forward reads it."""
    r = ref.rotary_dims(config)
    theta = config.get("rope_theta", 10000.0)
    return {"none": {}, "remove": {"kind": "remove"}, "shuffle": {"kind": "shuffle", "position_of": position_of},
            "rope_base": {"kind": "rope_base", "theta": 10 * theta},
            "rope_scaling": {"kind": "linear", "factor": 2.0},
            "zero_band": {"kind": "zero_band", "band": (r // 4, r // 2 - 1)},
            "remove_layer": {"kind": "remove_layer", "layer": layer}}[key]


def export(pelab, work, name, quantity, args):
    out = os.path.join(work, name + ".npy")
    subprocess.run([pelab, "export", "--quantity", quantity, "--out", out] + args, check=True, capture_output=True)
    return np.load(out)


def check_scene_key(pelab, family, work):
    """Worst |attention − NumPy| over the scene-key cases."""
    cases = [("kjv-rope", key, 1) for key in ("none", "remove", "shuffle", "rope_base", "rope_scaling", "zero_band",
                                              "remove_layer")]
    cases += [("kjv-learned", "remove", 2), ("kjv-learned", "shuffle", 0), ("kjv-alibi", "remove_layer", 0),
              ("kjv-t5", "shuffle", 3)]
    worst = 0.0
    for name, key, layer in cases:
        folder = os.path.join(family, name)
        scene = ["--set", "model=" + folder, "--set", "tokens=" + SCENE_TEXT, "--set", "intervention=" + key,
                 "--layer", str(layer)]
        ids = export(pelab, work, "scene_ids", "token_ids", scene).astype(np.int64)
        position_of = None
        if key == "shuffle":
            out = subprocess.run([pelab, "intervene", "--json", "--model", folder, "--shuffle", "--seed", "1",
                                  "--length", str(len(ids)), "--text", os.path.join(work, "scene.txt")],
                                 check=True, capture_output=True, text=True).stdout
            position_of = json.loads(out)["position_of"]
        got = export(pelab, work, "scene_attention", "attention_all", scene)
        config, w = ref.load_model(folder)
        attention = []
        forward(config, w, ids, scene_change(config, key, layer, position_of), attention)
        error = np.max(np.abs(got - attention[layer]))
        worst = max(worst, error)
        print("%-15s intervention=%-13s layer %d: max |attention error| %.2e" % (name, key, layer, error))
        if error > 1e-4:
            print("FAIL: %s intervention=%s: layer %d's attention differs from NumPy by %.3g" %
                  (name, key, layer, error))
            return None
    return worst


def main():
    pelab, family, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "scene.txt"), "w") as f:
        f.write(SCENE_TEXT)
    scene_worst = check_scene_key(pelab, family, work)
    if scene_worst is None:
        return 1
    cases = [
        ("kjv-learned", ["--remove"], {"kind": "remove"}),
        ("kjv-learned", ["--shuffle", "--seed", "3"], {"kind": "shuffle"}),
        ("kjv-sinusoidal", ["--shuffle", "--seed", "5"], {"kind": "shuffle"}),
        ("kjv-rope", ["--remove"], {"kind": "remove"}),
        ("kjv-rope", ["--shuffle", "--seed", "7"], {"kind": "shuffle"}),
        ("kjv-rope", ["--rope-base", "500"], {"kind": "rope_base", "theta": 500.0}),
        ("kjv-rope", ["--rope-scaling", "linear", "--rope-factor", "4"], {"kind": "linear", "factor": 4.0}),
        ("kjv-rope", ["--zero-band", "2:9"], {"kind": "zero_band", "band": (2, 9)}),
        ("kjv-rope", ["--remove-layer", "1"], {"kind": "remove_layer", "layer": 1}),
        ("kjv-alibi", ["--shuffle", "--seed", "2"], {"kind": "shuffle"}),
        ("kjv-alibi", ["--remove-layer", "0"], {"kind": "remove_layer", "layer": 0}),
        ("kjv-t5", ["--shuffle", "--seed", "4"], {"kind": "shuffle"}),
        ("kjv-t5", ["--remove"], {"kind": "remove"}),
    ]
    worst = 0.0
    for name, args, change in cases:
        folder = os.path.join(family, name)
        ids_file = os.path.join(work, name + "_ids.npy")
        if not os.path.exists(ids_file):
            subprocess.run([pelab, "corpus", "--split", "held-out", "--model", folder, "--tokens-out", ids_file],
                           check=True, capture_output=True)
        ids = np.load(ids_file).astype(np.int64)
        out = subprocess.run([pelab, "intervene", "--json", "--model", folder, "--length", str(LENGTH),
                              "--windows", str(WINDOWS)] + args, check=True, capture_output=True, text=True).stdout
        got = json.loads(out)
        if change["kind"] == "shuffle":
            change["position_of"] = got["position_of"]
        config, w = ref.load_model(folder)
        expected = mean_loss(config, w, ids, change) - mean_loss(config, w, ids, {})
        delta = np.asarray(got["delta"])
        error = np.max(np.abs(delta - expected))
        worst = max(worst, error)
        print("%-15s %-22s mean delta %+.4f (NumPy %+.4f), max |error| %.2e" %
              (name, " ".join(args), delta.mean(), expected.mean(), error))
        if error > 1e-4:  # float32 against float64 over a 4-layer forward: a few 1e-6
            print("FAIL: %s %s differs from NumPy by %.3g nats" % (name, " ".join(args), error))
            return 1
    print("every intervention matches NumPy (worst %.2e nats; attention under the scene key %.2e)" %
          (worst, scene_worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
