#!/usr/bin/python3
"""A short tour of the Python module (run by ctest as python.example): NumPy's memory seen by
strata and strata's by NumPy, views, a stencil step as one lazy expression, DLPack both ways,
ragged rows, sparse and tiled tensors, pictures."""
import numpy as np

import strata

u = np.random.default_rng(0).random((6, 8))
t = strata.asarray(u)                       # no copy: the same memory, NumPy's strides
print("strata sees", t.shape, t.dtype, "strides", t.strides)
print("t[1:, ::-2] =")
print(t[1:, ::-2])                          # a view, printed as NumPy prints
v = np.zeros_like(u)
out = strata.asarray(v)
c = t[1:-1, 1:-1]
step = c + 0.1 * (t[:-2, 1:-1] + t[2:, 1:-1] + t[1:-1, :-2] + t[1:-1, 2:] - 4 * c)
print("the step is lazy:", type(step).__name__, step.shape, step.dtype)
out[1:-1, 1:-1] = step                      # evaluated here, in one pass, into NumPy's array
print("one heat step, written into NumPy's array through a strata view: max change",
      float(np.abs(v[1:-1, 1:-1] - u[1:-1, 1:-1]).max()))
back = np.from_dlpack(t.T)                  # strata -> NumPy through DLPack, no copy
print("np.from_dlpack(t.T) shares memory with u:", np.shares_memory(back, u))
print("sum", t.sum(), "column means", np.asarray(t.mean(axis=0)).round(3))
try:
    t[10]
except IndexError as e:
    print("IndexError:", e)

j = strata.JaggedTensor([[1.5, 2.0, 3.0], [], [4.0, 5.0]])   # awkward's 3 * var * float64
print("jagged", j, "type", j.type, "row sums", j.sum(axis=1), "offsets", j.offsets)
j.values[:] *= 10                           # NumPy writes strata's values in place
print("after values *= 10:", j.to_list())
s = strata.csr_matrix(([1.0, 2.0, 3.0], [0, 2, 1], [0, 2, 2, 3]), shape=[3, 3])
print("sparse", s.nnz, "entries; dense:")
print(s.to_dense())
tiles = strata.TiledTensor(np.arange(35.0).reshape(5, 7), [2, 3])
print(tiles, "tile (2, 2) =", np.asarray(tiles.tile([2, 2])))
print("strata.draw(j) is", type(strata.draw(j)).__name__, "with", len(strata.draw(j).data), "characters of SVG")
