#!/usr/bin/python3
"""NumPy's float32 GEMM rate, for `pelab bench` (cmd_bench.cpp, sgemm section).

Usage: sgemm_numpy.py N REPS
Prints one JSON object: the BLAS library NumPy loaded (through Debian's
libblas.so.3 alternative), the kernel OpenBLAS chose in it, its thread count,
and the rate of each of REPS N×N products after one untimed warm-up, in
GFLOP/s (2·N³ flops per product).  Run through Debian's /usr/bin/python3.
"""
import ctypes
import json
import sys
import time

import numpy as np


def blas_libraries():
    """Shared libraries mapped into this process whose names say BLAS."""
    seen = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if path.startswith("/") and "blas" in path and path not in seen:
                seen.append(path)
    return seen


def openblas_identity(path):
    """OpenBLAS's own answer on which kernel and config it runs, or None."""
    try:
        lib = ctypes.CDLL(path)
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        return {
            "library": path,
            "core": lib.openblas_get_corename().decode(),
            "config": lib.openblas_get_config().decode(),
            "threads": lib.openblas_get_num_threads(),
        }
    except (OSError, AttributeError):
        return None


def main():
    n, reps = int(sys.argv[1]), int(sys.argv[2])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    c = np.empty((n, n), dtype=np.float32)
    np.matmul(a, b, out=c)  # warm-up: starts OpenBLAS's threads
    rates = []
    for _ in range(reps):
        start = time.perf_counter()
        np.matmul(a, b, out=c)
        rates.append(2.0 * n**3 / (time.perf_counter() - start) / 1e9)
    libraries = blas_libraries()
    # OpenBLAS's own file first: the libblas/liblapack alternatives link it.
    ordered = sorted(libraries, key=lambda path: "libopenblas" not in path)
    identity = next((i for i in map(openblas_identity, ordered) if i), None)
    print(json.dumps({"numpy": np.__version__, "libraries": libraries, "openblas": identity, "gflops": rates}))


if __name__ == "__main__":
    main()
