#!/usr/bin/python3
"""One heat-stencil step on 1024^2 float64 written in Python: through strata's module (a lazy
expression, evaluated in one pass by the assignment) and in NumPy (operator by operator). Prints
the best and the median of 200 steps, writing into a slice of the output and making a new array,
at each thread count given (OMP_NUM_THREADS is read when the module loads, so each count runs in
its own process). The same step written in C++ is bench_interop's BM_heat_step/strata_cpp.

NumPy's time depends on the C library's allocator: each step makes 8 MiB temporaries, which
glibc by default maps afresh from the system and hands back when freed, so every step pays the
page faults of its temporaries. The processes here set MALLOC_TOP_PAD_ (glibc keeps freed memory:
NumPy's best case); a last process per thread count measures NumPy alone with glibc's defaults,
as a fresh Python session runs it.

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

    def with_strata_new():
        c = tu[1:-1, 1:-1]
        e = c + 0.1 * (tu[:-2, 1:-1] + tu[2:, 1:-1] + tu[1:-1, :-2] + tu[1:-1, 2:] - 4 * c)
        return e.eval()

    def with_numpy_new():
        c = u[1:-1, 1:-1]
        return c + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)

    def times(f, runs=200):
        t = []
        for _ in range(runs):
            t0 = time.perf_counter()
            f()
            t.append(time.perf_counter() - t0)
        t.sort()
        return t[0] * 1e3, t[len(t) // 2] * 1e3

    # alternate them, so that all see the same machine
    runs = {f: [] for f in (with_strata, with_numpy, with_strata_new, with_numpy_new)}
    for _ in range(3):
        for f, t in runs.items():
            t.append(times(f))
    best = {f: min(x[0] for x in t) for f, t in runs.items()}
    median = {f: sorted(x[1] for x in t)[1] for f, t in runs.items()}
    threads = os.environ.get("OMP_NUM_THREADS", "all")
    spellings = (("into a slice", with_strata, with_numpy),
                 ("a new array", with_strata_new, with_numpy_new))
    for name, s, n in spellings:
        print(f"threads {threads}, {name}: strata from Python best {best[s]:.3f} ms "
              f"median {median[s]:.3f} ms; "
              f"NumPy best {best[n]:.3f} ms median {median[n]:.3f} ms; NumPy / strata (medians) "
              f"{median[n] / median[s]:.2f}x")


def measure_numpy_alone():
    import numpy as np

    u = np.random.default_rng(0).random((1024, 1024))
    v = np.zeros_like(u)
    c = u[1:-1, 1:-1]
    t = []
    for _ in range(200):
        t0 = time.perf_counter()
        v[1:-1, 1:-1] = c + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)
        t.append(time.perf_counter() - t0)
    t.sort()
    print(f"NumPy alone, glibc's default allocator, into a slice: best {t[0] * 1e3:.3f} ms "
          f"median {t[len(t) // 2] * 1e3:.3f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        measure()
    elif len(sys.argv) > 1 and sys.argv[1] == "--numpy-alone":
        measure_numpy_alone()
    else:
        for threads in sys.argv[1:] or ["1", "2"]:
            env = dict(os.environ, OMP_NUM_THREADS=threads, MALLOC_TOP_PAD_=str(256 << 20))
            subprocess.run([sys.executable, __file__, "--child"], env=env, check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
        subprocess.run([sys.executable, __file__, "--numpy-alone"], env=env, check=True)
