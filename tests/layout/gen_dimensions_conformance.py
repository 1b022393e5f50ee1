#!/usr/bin/python3
"""Generates tests/data/dimensions_chains.txt: random chains of view operations run by NumPy.

Each chain starts from numpy.arange(n).reshape(shape), applies select / transpose / broadcast /
roll / flip / reshape / squeeze / unsqueeze / diagonal steps with NumPy (the strata meaning of each step is
written next to its NumPy spelling below), and records the final shape and the values it reads
in row-major order. tests/layout/dimensions_conformance.cpp replays every chain on
strata::Dimensions. Run with Debian's python3 (python3-numpy):

    /usr/bin/python3 tests/layout/gen_dimensions_conformance.py > tests/data/dimensions_chains.txt
"""
import random
import sys

import numpy as np

MAX_SIZE = 720
CHAINS = 1200


def random_shape(rng):
    rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6])
    while True:
        shape = [rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5]) if rng.random() < 0.08
                 else rng.choice([1, 2, 3, 4, 5]) for _ in range(rank)]
        if int(np.prod(shape, dtype=np.int64)) <= MAX_SIZE:
            return shape


def fmt_range(start, stop, step):
    def b(v):
        return "_" if v is None else str(v)
    return "r%s:%s:%s" % (b(start), b(stop), b(step))


def op_select(rng, a):
    """strata select({...}) on the leading axes == NumPy basic indexing + np.take per axis."""
    if a.ndim == 0:
        return None
    count = rng.randint(1, a.ndim)
    tokens = []
    steps = []  # (axis, kind, payload) applied last axis first so axis numbers stay valid
    for k in range(count):
        n = a.shape[k]
        kind = rng.choice(["int", "all", "range", "range", "range", "array"])
        if kind == "int" and n > 0:
            i = rng.randint(-n, n - 1)
            tokens.append("i%d" % i)
            steps.append((k, "int", i))
        elif kind == "range" or (kind == "int" and n == 0):
            step = rng.choice([1, 1, 2, 3, -1, -1, -2, -3, 5, -7])
            start = rng.choice([None, rng.randint(-n - 2, n + 2)])
            stop = rng.choice([None, rng.randint(-n - 2, n + 2)])
            tokens.append(fmt_range(start, stop, step))
            steps.append((k, "range", slice(start, stop, step)))
        elif kind == "array" and n > 0:
            m = rng.randint(0, 5)
            entries = [rng.randint(0, n - 1) for _ in range(m)]
            tokens.append("a" + ",".join(str(e) for e in entries))
            steps.append((k, "array", entries))
        else:
            tokens.append("all")
    for k, kind, payload in reversed(steps):
        if kind == "int":
            a = np.take(a, payload, axis=k)
        elif kind == "range":
            a = a[(slice(None),) * k + (payload,)]
        else:
            a = np.take(a, np.array(payload, dtype=np.int64), axis=k)
    return "select " + " ".join(tokens), a


def op_transpose(rng, a):
    perm = list(range(a.ndim))
    rng.shuffle(perm)
    return "transpose " + " ".join(map(str, perm)), np.transpose(a, perm)


def op_broadcast(rng, a):
    """strata broadcast(shape): new leading axes (np.broadcast_to), existing axes tiled."""
    shape = list(a.shape)
    for k in range(a.ndim):
        r = rng.random()
        if shape[k] == 1 and r < 0.4:
            shape[k] = rng.randint(0, 4)
        elif shape[k] > 0 and r < 0.2:
            shape[k] *= rng.randint(2, 3)
    lead = [rng.randint(1, 3) for _ in range(rng.choice([0, 0, 1, 2]))]
    target = lead + shape
    if int(np.prod(target, dtype=np.int64)) > MAX_SIZE:
        return None
    b = a
    for k in range(a.ndim):
        if shape[k] == a.shape[k]:
            continue
        if shape[k] == 0:
            b = b[(slice(None),) * k + (slice(0, 0),)]
        else:
            reps = [1] * a.ndim
            reps[k] = shape[k] // a.shape[k]
            b = np.tile(b, reps)
    b = np.broadcast_to(b, target)
    return "broadcast " + " ".join(map(str, target)), b


def op_roll(rng, a):
    if a.ndim == 0:
        return None
    axis = rng.randint(-a.ndim, a.ndim - 1)
    shift = rng.randint(-9, 9)
    return "roll %d %d" % (shift, axis), np.roll(a, shift, axis=axis)


def op_flip(rng, a):
    if a.ndim == 0:
        return None
    axes = rng.sample(range(a.ndim), rng.randint(1, a.ndim))
    return "flip " + " ".join(map(str, axes)), np.flip(a, axis=tuple(axes))


def factorise(n):
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return factors


def op_reshape(rng, a):
    size = a.size
    if size == 0:
        shape = list(a.shape)
        rng.shuffle(shape)
        if rng.random() < 0.5:
            shape.append(1)
    else:
        factors = factorise(size)
        rng.shuffle(factors)
        shape = []
        for f in factors:
            if shape and rng.random() < 0.4:
                shape[-1] *= f
            else:
                shape.append(f)
        for _ in range(rng.choice([0, 0, 1])):
            shape.insert(rng.randint(0, len(shape)), 1)
        if shape and rng.random() < 0.3:
            shape[rng.randrange(len(shape))] = -1
    return "reshape " + " ".join(map(str, shape)), a.reshape(shape)


def op_squeeze(rng, a):
    ones = [k for k in range(a.ndim) if a.shape[k] == 1]
    if not ones:
        return None
    axes = rng.sample(ones, rng.randint(1, len(ones)))
    return "squeeze " + " ".join(map(str, axes)), np.squeeze(a, axis=tuple(axes))


def op_unsqueeze(rng, a):
    axis = rng.randint(-a.ndim - 1, a.ndim)
    return "unsqueeze %d" % axis, np.expand_dims(a, axis)


def op_diagonal(rng, a):
    """strata diagonal(offset, axis1, axis2) == a.diagonal(offset, axis1, axis2)."""
    if a.ndim < 2:
        return None
    k1, k2 = rng.sample(range(a.ndim), 2)
    axis1 = k1 - a.ndim if rng.random() < 0.3 else k1
    axis2 = k2 - a.ndim if rng.random() < 0.3 else k2
    offset = rng.randint(-a.shape[k1] - 1, a.shape[k2] + 1)
    return ("diagonal %d %d %d" % (offset, axis1, axis2),
            a.diagonal(offset=offset, axis1=axis1, axis2=axis2))


OPS = [op_select, op_select, op_transpose, op_broadcast, op_roll, op_roll, op_flip, op_reshape,
       op_squeeze, op_unsqueeze]
# The chains after the first CHAINS: diagonals among the other steps (appended, so the chains
# before them are the same as before diagonals were added).
DIAGONAL_CHAINS = 400
DIAGONAL_OPS = OPS + [op_diagonal] * 4


def main():
    rng = random.Random(20261122)
    out = sys.stdout
    out.write("# generated by tests/layout/gen_dimensions_conformance.py with NumPy %s\n"
              % np.__version__)
    for c in range(CHAINS + DIAGONAL_CHAINS):
        ops = OPS if c < CHAINS else DIAGONAL_OPS
        shape = random_shape(rng)
        while c >= CHAINS and len(shape) < 2:
            shape = random_shape(rng)
        a = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)
        lines = ["chain", "shape " + " ".join(map(str, shape))]
        for _ in range(rng.randint(1, 6)):
            step = rng.choice(ops)(rng, a)
            if step is None:
                continue
            text, a = step
            lines.append(text)
        lines.append("expect_shape " + " ".join(map(str, a.shape)))
        lines.append("expect " + " ".join(map(str, a.reshape(-1).tolist())))
        lines.append("end")
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
