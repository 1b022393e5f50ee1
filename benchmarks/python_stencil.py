#!/usr/bin/python3
"""A heat-stencil step on 1024^2 float64 written in Python: through strata's module and in NumPy
(best of 20). usage: PYTHONPATH=build/release/python /usr/bin/python3 benchmarks/python_stencil.py
"""
import time

import numpy as np

import strata


def best(f, runs=20):
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


u = np.random.default_rng(0).random((1024, 1024))
v = np.zeros_like(u)
tu, tv = strata.asarray(u), strata.asarray(v)


def with_strata():
    c = tu[1:-1, 1:-1]
    tv[1:-1, 1:-1] = c + 0.1 * (tu[:-2, 1:-1] + tu[2:, 1:-1] + tu[1:-1, :-2] + tu[1:-1, 2:] - 4 * c)


def with_numpy():
    c = u[1:-1, 1:-1]
    v[1:-1, 1:-1] = c + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)


s = best(with_strata)
n = best(with_numpy)
print(f"strata (Python, operator by operator) {s * 1e3:.2f} ms")
print(f"NumPy                                 {n * 1e3:.2f} ms")
print(f"NumPy / strata: {n / s:.2f}x")
