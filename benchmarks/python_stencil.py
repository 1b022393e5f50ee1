#!/usr/bin/python3
"""One heat-stencil step on 1024^2 float64 written in Python: through strata's module (a lazy
expression, evaluated in one pass by the assignment) and in NumPy (operator by operator). Prints
the best and the median of 200 steps, at each thread count given (OMP_NUM_THREADS is read when
the module loads, so each count runs in its own process). The same step written in C++ is
bench_interop's BM_heat_step/strata_cpp.

usage: PYTHONPATH=build/release/python /usr/bin/python3 benchmarks/python_stencil.py [THREADS...]
"""
import os
import subprocess
import sys
import time


def measure():
    import numpy as np

    import strata

    u = np.random.default_rng(0).random((1024, 1024))
    v = np.zeros_like(u)
    tu, tv = strata.asarray(u), strata.asarray(v)

    def with_strata():
        c = tu[1:-1, 1:-1]
        tv[1:-1, 1:-1] = c + 0.1 * (tu[:-2, 1:-1] + tu[2:, 1:-1] + tu[1:-1, :-2] + tu[1:-1, 2:] - 4 * c)

    def with_numpy():
        c = u[1:-1, 1:-1]
        v[1:-1, 1:-1] = c + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)

    def times(f, runs=200):
        t = []
        for _ in range(runs):
            t0 = time.perf_counter()
            f()
            t.append(time.perf_counter() - t0)
        t.sort()
        return t[0] * 1e3, t[len(t) // 2] * 1e3

    # alternate the two, so that both see the same machine
    s, n = [], []
    for _ in range(3):
        s.append(times(with_strata))
        n.append(times(with_numpy))
    sb, sm = min(x[0] for x in s), sorted(x[1] for x in s)[1]
    nb, nm = min(x[0] for x in n), sorted(x[1] for x in n)[1]
    threads = os.environ.get("OMP_NUM_THREADS", "all")
    print(f"threads {threads}: strata from Python best {sb:.3f} ms median {sm:.3f} ms; "
          f"NumPy best {nb:.3f} ms median {nm:.3f} ms; NumPy / strata (medians) {nm / sm:.2f}x")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        measure()
    else:
        for threads in sys.argv[1:] or ["1", "2"]:
            env = dict(os.environ, OMP_NUM_THREADS=threads)
            subprocess.run([sys.executable, __file__, "--child"], env=env, check=True)
