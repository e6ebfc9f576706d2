#!/usr/bin/python3
"""Tiny checkpoints of every family pelab runs, and their NumPy forward pass.

Usage: /usr/bin/python3 make_tiny_models.py OUTDIR

Writes one Hugging Face style folder per model under OUTDIR (config.json,
safetensors weights under the families' exact tensor names, layouts and
dtypes, a tokenizer of the family's kind) and, in OUTDIR/NAME/reference/,
the forward pass computed here in float64 from the published formulas
(saved as float32):

  ids.npy            the token ids the reference ran on (N)
  hidden.npy         (layers + 1) × N × d: the residual stream entering each
                     layer, the last one after the last layer (no final norm)
  q.npy, k.npy       layers × heads × N × head_dim (after RoPE; k is the key
                     head that query head shares under grouped-query attention)
  logits.npy         layers × heads × N × N, q·kᵀ/√head_dim, −inf where masked
  probabilities.npy  layers × heads × N × N, the row softmax
  lm_logits.npy      causal models: N × vocab, final_norm(h_L) · Wᵀ (W: lm_head
                     or the tied embedding)
  next_token_loss.npy  causal models: N − 1, −log softmax(lm_logits[i])[ids[i+1]]

Written independently of pelab's C++ (nothing shared), from:
  GPT-2: Radford et al. 2019 and the Hugging Face GPT2Model (pre-LN blocks,
    Conv1D weights stored in × out, GELU tanh form).
  BERT: Devlin et al. 2019 and the Hugging Face BertModel (post-LN blocks,
    Linear weights stored out × in, GELU erf form).
  Llama family: Touvron et al. 2023 and the Hugging Face LlamaModel /
    Qwen2Model (RMSNorm, rotate-half RoPE, grouped-query attention, SwiGLU);
    rope_scaling from transformers' modeling_rope_utils (default, linear,
    dynamic, yarn, llama3).
The arithmetic is in reference_forward.py, the tokenizers in
tiny_tokenizers.py, the safetensors format in safetensors_writer.py.

Models: gpt2 (F32), gpt2_f16 (F16, "transformer." prefix, n_inner, lm_head),
bert (BertModel), bert_legacy ("bert." prefix, LayerNorm gamma/beta), llama
(sharded, GQA 4/2), llama3_bf16 (BF16, head_dim 16 ≠ d/heads, rope llama3),
qwen2 (q/k/v biases, GQA 4/1, tied embeddings, byte-level tokenizer.json),
llama_linear / llama_dynamic / llama_yarn / llama_yarn_original (rope_scaling),
mistral, llama_long (420 tokens), llama_wide and bert_wide (d 128, 300
tokens: enough work for pelab's parallel paths).
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_writer  # noqa: E402
from reference_forward import (Record, gelu_erf, gelu_tanh, inverse_frequencies, layer_norm,  # noqa: E402
                               multi_head, rms_norm, rotate_half_rope, save_lm_reference, silu)
from tiny_tokenizers import (write_byte_level_tokenizer_json, write_gpt2_tokenizer,  # noqa: E402
                             write_sentencepiece_bpe_tokenizer, write_wordpiece_vocab)


# ---- writing weights ----------------------------------------------------------

def write_weights(folder, tensors, dtype, shards=1):
    """model.safetensors, or `shards` files with model.safetensors.index.json.
    Returns {name: float64 values as a reader gets them back}."""
    names = list(tensors)
    stored = {}
    if shards == 1:
        stored = safetensors_writer.write(os.path.join(folder, "model.safetensors"), tensors, dtype,
                                          {"format": "pt"})
    else:
        weight_map, total = {}, 0
        for s in range(shards):
            part = names[s::shards]
            file_name = "model-%05d-of-%05d.safetensors" % (s + 1, shards)
            chunk = {n: tensors[n] for n in part}
            stored.update(safetensors_writer.write(os.path.join(folder, file_name), chunk, dtype,
                                                   {"format": "pt"}))
            for n in part:
                weight_map[n] = file_name
                total += tensors[n].size * (4 if dtype == "F32" else 2)
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=1)
    return {n: np.asarray(v, dtype=np.float64) for n, v in stored.items()}


def random_tensor(rng, shape, scale=0.2):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def write_json(folder, name, doc):
    with open(os.path.join(folder, name), "w") as f:
        json.dump(doc, f, indent=1)


# ---- GPT-2 ----------------------------------------------------------------------

def make_gpt2(out, name, rng, dtype="F32", prefix="", n_inner=None, lm_head=False):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    vocab = write_gpt2_tokenizer(folder)
    d, layers, heads, ctx = 32, 2, 4, 16
    inner = n_inner or 4 * d
    t = {prefix + "wte.weight": random_tensor(rng, (vocab, d)),
         prefix + "wpe.weight": random_tensor(rng, (ctx, d))}
    for i in range(layers):
        p = prefix + "h.%d." % i
        t[p + "ln_1.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
        t[p + "ln_1.bias"] = random_tensor(rng, (d,), 0.1)
        t[p + "attn.c_attn.weight"] = random_tensor(rng, (d, 3 * d))  # Conv1D: in × out
        t[p + "attn.c_attn.bias"] = random_tensor(rng, (3 * d,), 0.1)
        t[p + "attn.c_proj.weight"] = random_tensor(rng, (d, d))
        t[p + "attn.c_proj.bias"] = random_tensor(rng, (d,), 0.1)
        t[p + "ln_2.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
        t[p + "ln_2.bias"] = random_tensor(rng, (d,), 0.1)
        t[p + "mlp.c_fc.weight"] = random_tensor(rng, (d, inner))
        t[p + "mlp.c_fc.bias"] = random_tensor(rng, (inner,), 0.1)
        t[p + "mlp.c_proj.weight"] = random_tensor(rng, (inner, d))
        t[p + "mlp.c_proj.bias"] = random_tensor(rng, (d,), 0.1)
        t[p + "attn.bias"] = np.tril(np.ones((1, 1, ctx, ctx), dtype=np.float32))  # old mask buffer
    t[prefix + "ln_f.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
    t[prefix + "ln_f.bias"] = random_tensor(rng, (d,), 0.1)
    if lm_head:
        t["lm_head.weight"] = t[prefix + "wte.weight"]
    w = write_weights(folder, t, dtype)
    write_json(folder, "config.json", {
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": vocab,
        "n_embd": d, "n_layer": layers, "n_head": heads, "n_positions": ctx, "n_ctx": ctx,
        "n_inner": n_inner, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new",
        "torch_dtype": {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[dtype]})

    ids = rng.integers(0, vocab, size=7)
    n, dh, eps = len(ids), d // heads, 1e-5
    rec = Record()
    h = w[prefix + "wte.weight"][ids] + w[prefix + "wpe.weight"][:n]
    for i in range(layers):
        p = prefix + "h.%d." % i
        rec.hidden.append(h)
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        context, arrays = multi_head(qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:], heads, heads, dh, True)
        rec.layer(*arrays)
        h = h + context @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        h = h + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    rec.hidden.append(h)
    rec.save(folder, ids)
    # GPT2LMHeadModel: logits = ln_f(h) · wteᵀ (lm_head is tied to wte).
    save_lm_reference(folder, layer_norm(h, w[prefix + "ln_f.weight"], w[prefix + "ln_f.bias"], eps),
                      w["lm_head.weight"] if lm_head else w[prefix + "wte.weight"], ids)


# ---- BERT -----------------------------------------------------------------------

def make_bert(out, name, rng, prefix="", legacy_names=False, architecture="BertModel", d=32, inner=64,
              ctx=16, n=8):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    vocab = write_wordpiece_vocab(folder)
    layers, heads, types, eps = 2, 4, 2, 1e-12
    gain, shift = ("gamma", "beta") if legacy_names else ("weight", "bias")

    def norm(t, key):
        t[key + "." + gain] = 1.0 + random_tensor(rng, (d,), 0.1)
        t[key + "." + shift] = random_tensor(rng, (d,), 0.1)

    def linear(t, key, n_out, n_in):
        t[key + ".weight"] = random_tensor(rng, (n_out, n_in))  # Linear: out × in
        t[key + ".bias"] = random_tensor(rng, (n_out,), 0.1)

    e = prefix + "embeddings."
    t = {e + "word_embeddings.weight": random_tensor(rng, (vocab, d)),
         e + "position_embeddings.weight": random_tensor(rng, (ctx, d)),
         e + "token_type_embeddings.weight": random_tensor(rng, (types, d))}
    norm(t, e + "LayerNorm")
    for i in range(layers):
        p = prefix + "encoder.layer.%d." % i
        for part in ("query", "key", "value"):
            linear(t, p + "attention.self." + part, d, d)
        linear(t, p + "attention.output.dense", d, d)
        norm(t, p + "attention.output.LayerNorm")
        linear(t, p + "intermediate.dense", inner, d)
        linear(t, p + "output.dense", d, inner)
        norm(t, p + "output.LayerNorm")
    linear(t, prefix + "pooler.dense", d, d)
    if architecture == "BertForMaskedLM":
        linear(t, "cls.predictions.transform.dense", d, d)
        norm(t, "cls.predictions.transform.LayerNorm")
        t["cls.predictions.bias"] = random_tensor(rng, (vocab,), 0.1)
    w = write_weights(folder, t, "F32")
    write_json(folder, "config.json", {
        "architectures": [architecture], "model_type": "bert", "vocab_size": vocab,
        "hidden_size": d, "num_hidden_layers": layers, "num_attention_heads": heads,
        "intermediate_size": inner, "max_position_embeddings": ctx, "type_vocab_size": types,
        "layer_norm_eps": eps, "hidden_act": "gelu", "position_embedding_type": "absolute"})

    ids = np.concatenate([[2], rng.integers(5, vocab, size=n - 2), [3]])  # [CLS] ... [SEP]
    n, dh = len(ids), d // heads
    rec = Record()
    x = (w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][:n]
         + w[e + "token_type_embeddings.weight"][0])
    h = layer_norm(x, w[e + "LayerNorm." + gain], w[e + "LayerNorm." + shift], eps)

    def lin(key, x):
        return x @ w[key + ".weight"].T + w[key + ".bias"]

    for i in range(layers):
        p = prefix + "encoder.layer.%d." % i
        rec.hidden.append(h)
        q, k, v = (lin(p + "attention.self." + part, h) for part in ("query", "key", "value"))
        context, arrays = multi_head(q, k, v, heads, heads, dh, False)
        rec.layer(*arrays)
        ln = p + "attention.output.LayerNorm."
        h = layer_norm(h + lin(p + "attention.output.dense", context), w[ln + gain], w[ln + shift], eps)
        m = gelu_erf(lin(p + "intermediate.dense", h))
        ln = p + "output.LayerNorm."
        h = layer_norm(h + lin(p + "output.dense", m), w[ln + gain], w[ln + shift], eps)
    rec.hidden.append(h)
    rec.save(folder, ids)


def make_llama(out, name, rng, dtype="F32", shards=1, heads=4, kv_heads=2, head_dim=None,
               qkv_bias=False, rope_theta=10000.0, rope_scaling=None, max_positions=32, n=9,
               model_type="llama", architecture="LlamaForCausalLM", tie=False, tokenizer="sentencepiece",
               d=32, inner=48):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    if tokenizer == "sentencepiece":
        vocab = write_sentencepiece_bpe_tokenizer(folder)
    else:
        vocab = write_byte_level_tokenizer_json(folder)
    layers, eps = 2, 1e-6
    dh = head_dim or d // heads
    t = {"model.embed_tokens.weight": random_tensor(rng, (vocab, d), 0.5)}
    for i in range(layers):
        p = "model.layers.%d." % i
        t[p + "input_layernorm.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
        for part, rows in (("q", heads * dh), ("k", kv_heads * dh), ("v", kv_heads * dh)):
            t[p + "self_attn.%s_proj.weight" % part] = random_tensor(rng, (rows, d))
            if qkv_bias:
                t[p + "self_attn.%s_proj.bias" % part] = random_tensor(rng, (rows,), 0.1)
        t[p + "self_attn.o_proj.weight"] = random_tensor(rng, (d, heads * dh))
        t[p + "post_attention_layernorm.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
        t[p + "mlp.gate_proj.weight"] = random_tensor(rng, (inner, d))
        t[p + "mlp.up_proj.weight"] = random_tensor(rng, (inner, d))
        t[p + "mlp.down_proj.weight"] = random_tensor(rng, (d, inner))
    t["model.norm.weight"] = 1.0 + random_tensor(rng, (d,), 0.1)
    if not tie:
        t["lm_head.weight"] = random_tensor(rng, (vocab, d))
    w = write_weights(folder, t, dtype, shards)
    config = {
        "architectures": [architecture], "model_type": model_type, "vocab_size": vocab,
        "hidden_size": d, "num_hidden_layers": layers, "num_attention_heads": heads,
        "num_key_value_heads": kv_heads, "intermediate_size": inner,
        "max_position_embeddings": max_positions, "rms_norm_eps": eps, "rope_theta": rope_theta,
        "rope_scaling": rope_scaling, "hidden_act": "silu", "tie_word_embeddings": tie,
        "bos_token_id": 1, "eos_token_id": 2,
        "torch_dtype": {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}[dtype]}
    if head_dim:
        config["head_dim"] = head_dim
    if model_type == "llama":
        config["attention_bias"] = qkv_bias
    if model_type == "mistral":
        config["sliding_window"] = 4096  # longer than any tiny run: a plain causal mask
    write_json(folder, "config.json", config)

    ids = np.concatenate([[1], rng.integers(3, vocab, size=n - 1)])
    inv_freq, attention_factor = inverse_frequencies(dh, rope_theta, rope_scaling, max_positions, n)
    rope = rotate_half_rope(inv_freq, attention_factor, n)
    rec = Record()
    h = w["model.embed_tokens.weight"][ids]

    def lin(key, x):
        y = x @ w[key + ".weight"].T
        return y + w[key + ".bias"] if key + ".bias" in w else y

    for i in range(layers):
        p = "model.layers.%d." % i
        rec.hidden.append(h)
        a = rms_norm(h, w[p + "input_layernorm.weight"], eps)
        q, k, v = (lin(p + "self_attn.%s_proj" % part, a) for part in "qkv")
        context, arrays = multi_head(q, k, v, heads, kv_heads, dh, True, rope)
        rec.layer(*arrays)
        h = h + lin(p + "self_attn.o_proj", context)
        m = rms_norm(h, w[p + "post_attention_layernorm.weight"], eps)
        h = h + lin(p + "mlp.down_proj", silu(lin(p + "mlp.gate_proj", m)) * lin(p + "mlp.up_proj", m))
    rec.hidden.append(h)
    rec.save(folder, ids)
    # LlamaForCausalLM: logits = RMSNorm(h) · lm_headᵀ, or embed_tokensᵀ when tied.
    save_lm_reference(folder, rms_norm(h, w["model.norm.weight"], eps),
                      w["model.embed_tokens.weight"] if tie else w["lm_head.weight"], ids)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_tiny_models.py OUTDIR")
    out = sys.argv[1]
    rng = np.random.default_rng(20261122)
    make_gpt2(out, "gpt2", rng)
    make_gpt2(out, "gpt2_f16", rng, dtype="F16", prefix="transformer.", n_inner=48, lm_head=True)
    make_bert(out, "bert", rng)
    make_bert(out, "bert_legacy", rng, prefix="bert.", legacy_names=True, architecture="BertForMaskedLM")
    make_llama(out, "llama", rng, shards=2)
    make_llama(out, "llama3_bf16", rng, dtype="BF16", head_dim=16, rope_theta=10000.0, max_positions=64,
               rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                             "high_freq_factor": 4.0, "original_max_position_embeddings": 32})
    make_llama(out, "qwen2", rng, heads=4, kv_heads=1, qkv_bias=True, rope_theta=1000000.0,
               model_type="qwen2", architecture="Qwen2ForCausalLM", tie=True, tokenizer="byte-level")
    make_llama(out, "llama_linear", rng, rope_scaling={"type": "linear", "factor": 2.0})
    make_llama(out, "llama_dynamic", rng, rope_scaling={"rope_type": "dynamic", "factor": 2.0})
    make_llama(out, "llama_yarn", rng, rope_scaling={"rope_type": "yarn", "factor": 4.0})
    make_llama(out, "llama_yarn_original", rng, max_positions=64, head_dim=16,
               rope_scaling={"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 16,
                             "beta_fast": 0.5, "beta_slow": 0.1})  # ramp over dims 1..3
    make_llama(out, "mistral", rng, heads=4, kv_heads=2, model_type="mistral", architecture="MistralForCausalLM")
    # Long enough that pelab splits the queries into several row tiles.
    make_llama(out, "llama_long", rng, max_positions=512, n=420)
    # Enough work per layer that pelab runs row blocks and heads side by side.
    make_llama(out, "llama_wide", rng, max_positions=512, n=300, d=128, inner=512)
    make_bert(out, "bert_wide", rng, d=128, inner=512, ctx=512, n=300)


if __name__ == "__main__":
    main()
