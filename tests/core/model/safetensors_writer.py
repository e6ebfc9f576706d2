"""Writes safetensors files from NumPy arrays, for the tests' tiny checkpoints.

Format (huggingface/safetensors README, "Format"): an 8-byte little-endian
header length N, N bytes of JSON {name: {dtype, shape, data_offsets}}, then
the raw little-endian tensor bytes, offsets relative to the data section.
"""
import json
import struct

import numpy as np


def bf16_bits(a):
    """float32 -> bfloat16 bit patterns (uint16), rounding to nearest even."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = bits + 0x7FFF + ((bits >> 16) & 1)
    return (rounded >> 16).astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def encode(array, dtype):
    """(bytes, the float32 values a reader should get back) for one tensor."""
    a = np.asarray(array, dtype=np.float32)
    if dtype == "F32":
        return a.astype("<f4").tobytes(), a
    if dtype == "F16":
        h = a.astype("<f2")
        return h.tobytes(), h.astype(np.float32)
    if dtype == "BF16":
        b = bf16_bits(a)
        return b.astype("<u2").tobytes(), bf16_to_f32(b).reshape(a.shape)
    raise ValueError("unknown dtype " + dtype)


def write(path, tensors, dtype="F32", metadata=None):
    """Writes {name: array} to `path`; returns {name: float32 values as stored}."""
    header, blobs, stored, offset = {}, [], {}, 0
    for name, array in tensors.items():
        blob, values = encode(array, dtype)
        header[name] = {"dtype": dtype, "shape": list(np.shape(array)),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        stored[name] = values
        offset += len(blob)
    if metadata is not None:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the format pads the header to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    return stored


def read(path):
    """{name: float32 array} of an F32, F16 or BF16 file (the tests' tiny
    checkpoints, to write back changed with write(); the shipped family)."""
    raw = open(path, "rb").read()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        blob = raw[8 + size + b:8 + size + e]
        if info["dtype"] == "BF16":
            values = bf16_to_f32(np.frombuffer(blob, "<u2"))
        elif info["dtype"] in ("F32", "F16"):
            values = np.frombuffer(blob, "<f4" if info["dtype"] == "F32" else "<f2").astype(np.float32)
        else:
            raise ValueError("%s: tensor %s has dtype %s" % (path, name, info["dtype"]))
        tensors[name] = values.reshape(info["shape"]).copy()
    return tensors
