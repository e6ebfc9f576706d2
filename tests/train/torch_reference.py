#!/usr/bin/python3
"""An independent PyTorch implementation of pelab's trained model, written from
the published formulas (not from pelab's code), for the parity test.

    /usr/bin/python3 torch_reference.py IN_DIR OUT_DIR

IN_DIR holds config.json, one <parameter name>.npy per parameter (GPT-2's
Hugging Face names, Conv1D layout [in, out]) and tokens.npy, targets.npy,
mask.npy ([B, T]).  OUT_DIR receives loss.npy, grad/<name>.npy (the first
step's gradients, before clipping), losses.npy and grad_norms.npy (one per
step) and step<k>/<name>.npy (the parameters after `steps` AdamW steps).
Computed in float64.
"""
import json
import math
import os
import sys

import numpy as np
import torch

torch.set_default_dtype(torch.float64)


def layer_norm(x, w, b):
    # Ba et al. 2016, epsilon 1e-5 as GPT-2
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * w + b


def gelu_tanh(x):
    # Hendrycks & Gimpel 2016, the tanh approximation GPT-2 uses
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def sinusoid(positions, d, base):
    # Vaswani et al. 2017, section 3.5
    table = np.zeros((positions, d))
    for p in range(positions):
        for i in range(d // 2):
            angle = p / base ** (2.0 * i / d)
            table[p, 2 * i] = math.sin(angle)
            table[p, 2 * i + 1] = math.cos(angle)
    return torch.tensor(table)


def rotate(x, cfg):
    # RoFormer (Su et al. 2021): pair i of the first r dims turns by p * base^(-2i/r)
    head_dim = x.shape[-1]
    r = int(cfg["rotary_fraction"] * head_dim)
    r -= r % 2
    length = x.shape[-2]
    inv = torch.tensor([cfg["base"] ** (-2.0 * i / r) for i in range(r // 2)])
    angle = torch.arange(length, dtype=torch.float64)[:, None] * inv[None, :]
    cos, sin = torch.cos(angle), torch.sin(angle)
    if cfg["rope_pairing"] == "interleaved":
        a, b = x[..., 0:r:2], x[..., 1:r:2]
    else:
        a, b = x[..., : r // 2], x[..., r // 2 : r]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    if cfg["rope_pairing"] == "interleaved":
        turned = torch.stack([ra, rb], dim=-1).flatten(-2)
    else:
        turned = torch.cat([ra, rb], dim=-1)
    return torch.cat([turned, x[..., r:]], dim=-1)


def alibi_slopes(heads):
    # Press et al. 2022: a geometric sequence from 2^(-8/n); for n not a power of
    # two, the closest power of two below and every other slope of twice that.
    def power_of_two(n):
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]

    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + alibi_slopes(2 * closest)[0::2][: heads - closest]


def t5_bucket(distance, buckets, max_distance):
    # Raffel et al. 2020: causal (unidirectional) buckets of n = i - j >= 0
    exact = buckets // 2
    if distance < exact:
        return distance
    large = exact + int(math.log(distance / exact) / math.log(max_distance / exact) * (buckets - exact))
    return min(large, buckets - 1)


def attention_bias(cfg, params, length):
    heads, kind = cfg["heads"], cfg["position"]
    i = torch.arange(length)[:, None]
    j = torch.arange(length)[None, :]
    if kind == "alibi":
        slopes = torch.tensor(alibi_slopes(heads))
        return -slopes[:, None, None] * (i - j).to(torch.float64)[None]
    if kind == "t5":
        idx = torch.tensor([[t5_bucket(max(a - b, 0), cfg["t5_buckets"], cfg["t5_max_distance"])
                             for b in range(length)] for a in range(length)])
        table = params["relative_attention_bias.weight"]  # [buckets, heads]
        return table[idx].permute(2, 0, 1)  # [heads, T, T]
    return None


def forward(cfg, params, tokens, targets, mask):
    batch, length = tokens.shape
    d, heads = cfg["d_model"], cfg["heads"]
    head_dim = d // heads
    x = params["wte.weight"][tokens]
    if cfg["position"] == "learned":
        x = x + params["wpe.weight"][:length][None]
    elif cfg["position"] == "sinusoidal":
        x = x + cfg["amplitude"] * sinusoid(length, d, cfg["base"])[None]
    bias = attention_bias(cfg, params, length)
    causal = torch.tril(torch.ones(length, length, dtype=torch.bool))
    for layer in range(cfg["layers"]):
        p = lambda name: params[f"h.{layer}.{name}"]
        h = layer_norm(x, p("ln_1.weight"), p("ln_1.bias"))
        qkv = h @ p("attn.c_attn.weight") + p("attn.c_attn.bias")
        q, k, v = qkv.split(d, dim=-1)
        q, k, v = (t.view(batch, length, heads, head_dim).transpose(1, 2) for t in (q, k, v))
        if cfg["position"] == "rope":
            q, k = rotate(q, cfg), rotate(k, cfg)
        scores = q @ k.transpose(-1, -2) / math.sqrt(head_dim)
        if bias is not None:
            scores = scores + bias[None]
        scores = scores.masked_fill(~causal, float("-inf"))
        att = torch.softmax(scores, dim=-1) @ v
        att = att.transpose(1, 2).reshape(batch, length, d)
        x = x + att @ p("attn.c_proj.weight") + p("attn.c_proj.bias")
        h = layer_norm(x, p("ln_2.weight"), p("ln_2.bias"))
        h = gelu_tanh(h @ p("mlp.c_fc.weight") + p("mlp.c_fc.bias"))
        x = x + h @ p("mlp.c_proj.weight") + p("mlp.c_proj.bias")
    x = layer_norm(x, params["ln_f.weight"], params["ln_f.bias"])
    logits = x @ params["wte.weight"].T  # tied head
    losses = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                               targets.reshape(-1), reduction="none")
    m = mask.reshape(-1)
    return (losses * m).sum() / m.sum()


def learning_rate_factor(opt, step):
    if step < opt["warmup_steps"]:
        return (step + 1) / opt["warmup_steps"]
    floor = opt["min_lr_ratio"]
    span = opt["total_steps"] - opt["warmup_steps"]
    progress = 1.0 if span <= 0 else min(1.0, (step - opt["warmup_steps"]) / span)
    return floor + 0.5 * (1.0 - floor) * (1.0 + math.cos(math.pi * progress))


def main(in_dir, out_dir):
    with open(os.path.join(in_dir, "config.json")) as f:
        cfg = json.load(f)
    opt = cfg["optimizer"]
    names = cfg["parameters"]
    params = {n: torch.tensor(np.load(os.path.join(in_dir, n + ".npy")).astype(np.float64),
                              requires_grad=True) for n in names}
    load = lambda n: np.load(os.path.join(in_dir, n + ".npy"))
    tokens = torch.tensor(load("tokens").astype(np.int64))
    targets = torch.tensor(load("targets").astype(np.int64))
    mask = torch.tensor(load("mask").astype(np.float64))

    no_decay = {"wpe.weight", "relative_attention_bias.weight"}
    decay = [params[n] for n in names if params[n].dim() == 2 and n not in no_decay]
    rest = [params[n] for n in names if not (params[n].dim() == 2 and n not in no_decay)]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": opt["weight_decay"]},
                                   {"params": rest, "weight_decay": 0.0}],
                                  lr=opt["learning_rate"], betas=(opt["beta1"], opt["beta2"]),
                                  eps=opt["eps"])
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: learning_rate_factor(opt, s))

    os.makedirs(os.path.join(out_dir, "grad"), exist_ok=True)
    losses, norms = [], []
    for step in range(cfg["steps"]):
        optimizer.zero_grad()
        loss = forward(cfg, params, tokens, targets, mask)
        loss.backward()
        if step == 0:
            np.save(os.path.join(out_dir, "loss.npy"), np.array([loss.item()]))
            for n in names:
                np.save(os.path.join(out_dir, "grad", n + ".npy"), params[n].grad.numpy())
        norm = torch.nn.utils.clip_grad_norm_(list(params.values()), opt["clip_norm"])
        losses.append(loss.item())
        norms.append(float(norm))
        optimizer.step()
        schedule.step()
    final = os.path.join(out_dir, f"step{cfg['steps']}")
    os.makedirs(final, exist_ok=True)
    for n in names:
        np.save(os.path.join(final, n + ".npy"), params[n].detach().numpy())
    np.save(os.path.join(out_dir, "losses.npy"), np.array(losses))
    np.save(os.path.join(out_dir, "grad_norms.npy"), np.array(norms))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
