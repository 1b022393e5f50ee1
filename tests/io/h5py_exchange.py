#!/usr/bin/python3
"""strata <-> h5py: files written by one are read by the other (run by ctest as io.h5py).

usage: h5py_exchange.py STRATA_H5PY_PEER WORKDIR

1. strata_h5py_peer writes strata.h5; this script reads it with h5py and checks every value,
   shape and dtype against NumPy computing the same formulas.
2. This script writes h5py.h5 with h5py from the same formulas; strata_h5py_peer reads and checks
   it (plain C++ loops compute its expected values).
Exits 77 (ctest: skipped) with a message when h5py is missing.
"""
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as missing:  # pragma: no cover
    print(f"io.h5py skipped: {missing} (install python3-h5py)")
    sys.exit(77)

peer, workdir = sys.argv[1], sys.argv[2]
os.makedirs(workdir, exist_ok=True)
failures = []


def check(name, actual, expected):
    expected = np.asarray(expected)
    if actual.shape != expected.shape or actual.dtype != expected.dtype or not np.array_equal(
            actual, expected):
        failures.append(f"strata -> h5py: {name}: got {actual.dtype} {actual.shape} {actual!r}, "
                        f"expected {expected.dtype} {expected.shape} {expected!r}")


def data():
    """The objects both sides write, from one set of formulas."""
    i24 = np.arange(24)
    return {
        "f64": (i24 * 0.5 - 3).reshape(2, 3, 4),
        "f32": (np.arange(5) * 0.25).astype(np.float32),
        "i32": ((np.arange(12) * 7) % 100 - 50).astype(np.int32).reshape(3, 4),
        "i16": np.array([[-3, 7], [100, -100]], dtype=np.int16),
        "u8": (np.arange(4) * 3).astype(np.uint8),
        "i64_scalar": np.array(-7, dtype=np.int64),
        "bool": np.arange(7) % 3 == 1,
        "c128": np.arange(3) * 0.5 - 1j * np.arange(3),
        "c64": (np.arange(2) + 1j).astype(np.complex64),
        "empty": np.zeros((0, 3)),
    }


# ---- strata -> h5py --------------------------------------------------------------------------
strata_file = os.path.join(workdir, "strata.h5")
subprocess.run([peer, "write", strata_file], check=True)
with h5py.File(strata_file, "r") as f:
    for name, expected in data().items():
        check(name, f[name][()], expected)
    u = np.arange(24, dtype=np.float64).reshape(4, 6)
    check("strided", f["strided"][()], u[::2, ::-1])
    chunked = f["chunked"]
    check("chunked", chunked[()], np.arange(1000, dtype=np.float32).reshape(40, 25))
    if chunked.chunks != (8, 5) or chunked.compression != "gzip" or not chunked.shuffle:
        failures.append(f"strata -> h5py: chunked has chunks {chunked.chunks}, compression "
                        f"{chunked.compression}, shuffle {chunked.shuffle}")
    rows = f["rows"]
    check("rows/values", rows["values"][()], np.array([1, 2, 3, 4, 5], dtype=np.float32))
    check("rows/offsets", rows["offsets"][()], np.array([0, 3, 3, 5], dtype=np.int64))
    if rows.attrs["strata:type"] != "jagged":
        failures.append("strata -> h5py: rows has no strata:type = jagged")
    K = f["K"]
    if K.attrs["encoding-type"] != "csr_matrix" or tuple(K.attrs["shape"]) != (4, 5):
        failures.append(f"strata -> h5py: K's attributes are {dict(K.attrs)}")
    dense = np.zeros((4, 5))
    indptr, indices, values = K["indptr"][()], K["indices"][()], K["data"][()]
    for r in range(4):
        dense[r, indices[indptr[r]:indptr[r + 1]]] = values[indptr[r]:indptr[r + 1]]
    expected_K = np.zeros((4, 5))
    expected_K[0, 1], expected_K[2, 0], expected_K[2, 4] = 2.0, 3.0, -1.0
    check("K (CSR)", dense, expected_K)
    try:
        import scipy.sparse
        m = scipy.sparse.csr_matrix((values, indices, indptr), shape=tuple(K.attrs["shape"]))
        check("K (scipy)", m.toarray(), expected_K)
    except ImportError:
        pass
    if f.attrs["title"] != "heat" or f.attrs["step"] != 42 or list(f.attrs["origin"]) != [0.0, 1.5]:
        failures.append(f"strata -> h5py: root attributes {dict(f.attrs)}")
    hidden = [k for k in f.keys() if k.startswith(".strata")]
    if hidden:
        failures.append(f"strata -> h5py: staging names left behind: {hidden}")
if shutil.which("h5dump"):
    dump = subprocess.run(["h5dump", "-H", strata_file], capture_output=True, text=True)
    if dump.returncode != 0:
        failures.append(f"h5dump cannot read strata's file: {dump.stderr}")

# ---- h5py -> strata --------------------------------------------------------------------------
h5py_file = os.path.join(workdir, "h5py.h5")
with h5py.File(h5py_file, "w") as f:
    for name, value in data().items():
        f[name] = value
    f.create_dataset("big", data=np.arange(10000, dtype=np.float64).reshape(100, 100),
                     chunks=(10, 10), compression="gzip")
    rows = f.create_group("rows")
    rows["values"] = np.array([1, 2, 3, 4, 5], dtype=np.float32)
    rows["offsets"] = np.array([0, 3, 3, 5], dtype=np.int64)
    K = f.create_group("K")
    K["data"] = np.array([2.0, 3.0, -1.0])
    K["indices"] = np.array([1, 0, 4], dtype=np.int32)  # scipy's own index type
    K["indptr"] = np.array([0, 1, 1, 3, 3], dtype=np.int32)
    K.attrs["shape"] = (4, 5)
    f.attrs["title"] = "heat"
    f.attrs["step"] = 42
    f.attrs["origin"] = [0.0, 1.5]
result = subprocess.run([peer, "check", h5py_file], capture_output=True, text=True)
if result.returncode != 0:
    failures.append(result.stderr.strip())

for line in failures:
    print(line)
print("io.h5py:", "FAILED" if failures else "strata and h5py read each other's files")
sys.exit(1 if failures else 0)
