#!/usr/bin/python3
"""A short tour of the Python module (run by ctest as python.example): NumPy's memory seen by
strata and strata's by NumPy, views, a stencil step evaluated by strata, DLPack both ways."""
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
out[1:-1, 1:-1] = c + 0.1 * (t[:-2, 1:-1] + t[2:, 1:-1] + t[1:-1, :-2] + t[1:-1, 2:] - 4 * c)
print("one heat step, written into NumPy's array through a strata view: max change",
      float(np.abs(v[1:-1, 1:-1] - u[1:-1, 1:-1]).max()))
back = np.from_dlpack(t.T)                  # strata -> NumPy through DLPack, no copy
print("np.from_dlpack(t.T) shares memory with u:", np.shares_memory(back, u))
print("sum", t.sum(), "column means", np.asarray(t.mean(axis=0)).round(3))
try:
    t[10]
except IndexError as e:
    print("IndexError:", e)
