#!/usr/bin/python3
"""h5py's side of benchmarks/io.cpp: the same 1 GiB write and read, and the same views.

usage: /usr/bin/python3 benchmarks/io_h5py.py   (files in $STRATA_BENCH_DIR, default /tmp)
Prints one line per case: the best of 3 runs, in ms and GiB/s.
"""
import os
import time

import h5py
import numpy as np

folder = os.environ.get("STRATA_BENCH_DIR", "/tmp")


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def report(name, seconds, nbytes):
    print(f"{name:<32} {seconds * 1e3:9.1f} ms {nbytes / seconds / 2**30:7.2f} GiB/s")


big = np.arange(16384 * 8192, dtype=np.float64).reshape(16384, 8192)
path = os.path.join(folder, "strata_bench_h5py_1g.h5")


def write():
    with h5py.File(path, "w") as f:
        f["x"] = big


def read():
    with h5py.File(path, "r") as f:
        return f["x"][()]


write()  # warm, as benchmarks/io.cpp: the first write of a new file pays for its pages
report("h5py write 1 GiB", best(write), big.nbytes)
report("h5py read 1 GiB", best(read), big.nbytes)
os.remove(path)
del big

rows = os.path.join(folder, "strata_bench_h5py_rows.h5")
with h5py.File(rows, "w") as f:
    f["x"] = np.arange(4096 * 4096, dtype=np.float64).reshape(4096, 4096)
with h5py.File(rows, "r") as f:
    report("h5py every other row", best(lambda: f["x"][::2], 5), 2048 * 4096 * 8)
os.remove(rows)

crop = os.path.join(folder, "strata_bench_h5py_crop.h5")
with h5py.File(crop, "w") as f:
    f["x"] = np.arange(256**3, dtype=np.float64).reshape(256, 256, 256)
with h5py.File(crop, "r") as f:
    report("h5py 1% crop", best(lambda: f["x"][100:155, 50:105, 20:75], 5), 55**3 * 8)
os.remove(crop)
