#!/usr/bin/python3
"""NumPy's einsum(optimize=True) on the cases of benchmarks/contract.cpp, as a peer: the median
of 5 runs of each, in milliseconds, one line per case. NumPy's BLAS is Debian's libblas.so.3
alternative (BLIS once libblis-openmp-dev is installed, as strata's scripts do).

    OMP_NUM_THREADS=1 /usr/bin/python3 benchmarks/peers/numpy_einsum.py
"""
import time

import numpy as np

CASES = [
    ("ij,jk->ik", [(2048, 2048), (2048, 2048)]),
    ("abc,cd->abd", [(64, 64, 512), (512, 512)]),
    ("acb,cd->abd", [(64, 512, 64), (512, 512)]),
    ("abcd,cedf->abef", [(16, 16, 32, 16), (32, 32, 16, 32)]),
    ("ijab,abcd->ijcd", [(24, 24, 24, 24), (24, 24, 24, 24)]),
    ("jiab,cdab->ijcd", [(24, 24, 24, 24), (24, 24, 24, 24)]),
    ("ij,jk,kl,lm,mn->in", [(400, 20), (20, 300), (300, 10), (10, 500), (500, 30)]),
]


def main():
    rng = np.random.default_rng(1)
    print("# numpy %s einsum(optimize=True), median of 5, ms" % np.__version__)
    for spec, shapes in CASES:
        ops = [rng.uniform(-1, 1, s) for s in shapes]
        np.einsum(spec, *ops, optimize=True)  # warm up
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            np.einsum(spec, *ops, optimize=True)
            times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        print("%-22s %10.2f" % (spec, times[2]))


if __name__ == "__main__":
    main()
