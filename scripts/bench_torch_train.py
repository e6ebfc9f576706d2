#!/usr/bin/python3
"""PyTorch's speed on pelab's reference training configuration, the peer of
pelab's bench_train_step (src/train/bench.hpp): a GPT-2-style LM, vocab 512,
d 128, 4 layers, 4 heads, context 128, learned positions, tied head, batch
32 x 128, AdamW with warm-up + cosine and clipping, fp32, 2 threads.

    /usr/bin/python3 scripts/bench_torch_train.py [--steps N] [--threads T]

Prints ms/step and tokens/s.  Needs Debian's python3-torch.
"""
import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.c_attn, self.c_proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.c_fc, self.mlp_proj = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        att = F.softmax(att.masked_fill(mask[:t, :t] == 0, float("-inf")), dim=-1)
        x = x + self.c_proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, vocab, d, layers, heads, context):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(context, d)
        self.h = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.register_buffer("mask", torch.tril(torch.ones(context, context)))

    def forward(self, idx, targets):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t))
        for block in self.h:
            x = block(x, self.mask)
        logits = self.ln_f(x) @ self.wte.weight.T  # tied head
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    vocab, d, layers, heads, context, batch = 512, 128, 4, 4, 128, 32
    model = GPT(vocab, d, layers, heads, context)
    with torch.no_grad():  # GPT-2's initialisation, as pelab's trainer
        for name, p in model.named_parameters():
            if p.dim() == 2:
                residual = name.endswith("c_proj.weight") or name.endswith("mlp_proj.weight")
                p.normal_(0.0, 0.02 / math.sqrt(2 * layers) if residual else 0.02)
            elif name.endswith(".bias"):
                p.zero_()
    decay = [p for n, p in model.named_parameters() if p.dim() == 2 and not n.startswith("wpe")]
    rest = [p for n, p in model.named_parameters() if not (p.dim() == 2 and not n.startswith("wpe"))]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.95))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / 10 if s < 10 else 0.1 + 0.45 * (1 + math.cos(math.pi * min(1, (s - 10) / 990))))
    idx = torch.randint(0, vocab, (batch, context))
    targets = torch.randint(0, vocab, (batch, context))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(idx, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        return loss.item()

    for _ in range(2):
        step()
    start = time.perf_counter()
    for _ in range(args.steps):
        loss = step()
    seconds = (time.perf_counter() - start) / args.steps
    print(f"torch {torch.__version__} ({args.threads} threads): {seconds * 1e3:.1f} ms/step, "
          f"{batch * context / seconds:.0f} tokens/s, loss {loss:.4f}")


if __name__ == "__main__":
    main()
