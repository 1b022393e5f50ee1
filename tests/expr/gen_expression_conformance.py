#!/usr/bin/python3
"""Generates tests/data/expression_cases.txt: random expressions over random views, evaluated by
NumPy, for tests/expr/conformance.cpp to replay on strata's lazy expressions.

Each case builds three operands a, b, c (each an np.arange-based array of float64 or int64 seen
through a chain of views: slices with any step, flips, transposes, rolls, index arrays,
broadcasts, size-0 and size-1 axes; shapes broadcast together), evaluates one formula, and
writes the result into a destination view: a fresh array's view, or (for overlap cases) a view
of a's own base, written in place as NumPy's `d[...] = formula` does.

    case <formula> <overlap 0|1>
    operand <name a|b|c> <dtype f|i> <offset> <shape...>   np.arange(n).reshape(shape) -> float
                                                          (/4 + offset) or int (- n/2 + offset)
    view <step...>                                        a view step of the last operand
    dest <dtype f|i> <shape...> | dest_base a              a fresh zero array, or a's base
    dview <step...>                                        a view step of the destination
    expect <values...>                                    the destination's base afterwards
    end

View steps: select <tokens>, transpose <perm>, flip <axes>, roll <shift> <axis>,
broadcast <shape>, squeeze <axes>, unsqueeze <axis> (as tests/data/dimensions_chains.txt).

Run with Debian's python3 (python3-numpy):
    /usr/bin/python3 tests/expr/gen_expression_conformance.py > tests/data/expression_cases.txt
"""
import random

import numpy as np

FORMULAS = {
    "add": lambda a, b, c: a + b,
    "mul_sub": lambda a, b, c: a * b - c,
    "where": lambda a, b, c: np.where(a > b, a - b, c * 2),
    "minmax": lambda a, b, c: np.maximum(a, b) + np.minimum(b, c),
    "ratio": lambda a, b, c: np.abs(a - b) / (c * c + 1),
    "clip": lambda a, b, c: np.clip(a, -1, 2) * b,
    "math": lambda a, b, c: np.sqrt(np.abs(a)) + np.exp(-np.abs(b)) - np.tanh(c),
    "scalars": lambda a, b, c: (a - 3) * 0.5 + b,
    "compare": lambda a, b, c: ((a >= b) & (b != c)).astype(np.int64) + (a < c),
    "stencil": lambda a, b, c: a + 0.25 * (b - 2 * a + c),
}
FLOAT_ONLY = {"ratio", "math"}


def fmt(x):
    return " ".join(str(v) for v in x)


def random_view(rng, arr, lines, allow_broadcast):
    steps = rng.randint(0, 3)
    for _ in range(steps):
        r = arr.ndim
        kind = rng.choice(["select", "select", "flip", "transpose", "roll", "index", "unsqueeze"])
        if r == 0:
            kind = "unsqueeze"
        if kind == "select":
            tokens = []
            for n in arr.shape:
                start = rng.randint(-n - 1, n + 1)
                stop = rng.randint(-n - 1, n + 1)
                step = rng.choice([1, 1, 2, -1, -2, 3])
                b = lambda v: "_" if v is None else str(v)
                if rng.random() < 0.3:
                    start = None
                if rng.random() < 0.3:
                    stop = None
                tokens.append("r%s:%s:%d" % (b(start), b(stop), step))
            sl = tuple(slice(
                None if t.split(":")[0][1:] == "_" else int(t.split(":")[0][1:]),
                None if t.split(":")[1] == "_" else int(t.split(":")[1]),
                int(t.split(":")[2])) for t in tokens)
            arr = arr[sl]
            lines.append("view select " + " ".join(tokens))
        elif kind == "flip":
            axis = rng.randrange(r)
            arr = np.flip(arr, axis)
            lines.append("view flip %d" % axis)
        elif kind == "transpose":
            perm = list(range(r))
            rng.shuffle(perm)
            arr = np.transpose(arr, perm)
            lines.append("view transpose " + fmt(perm))
        elif kind == "roll":
            axis = rng.randrange(r)
            shift = rng.randint(-4, 4)
            arr = np.roll(arr, shift, axis)
            lines.append("view roll %d %d" % (shift, axis))
        elif kind == "index":
            axis = 0
            n = arr.shape[0]
            if n == 0:
                continue
            entries = [rng.randrange(n) for _ in range(rng.randint(1, 4))]
            arr = arr[entries]
            lines.append("view select a" + ",".join(map(str, entries)))
        else:
            axis = rng.randint(0, r)
            arr = np.expand_dims(arr, axis)
            lines.append("view unsqueeze %d" % axis)
    return arr


def operand(rng, name, dtype, lines, target_rank):
    rank = rng.randint(0, target_rank)
    shape = [rng.choice([0, 1, 1, 2, 3, 4, 5]) if rng.random() < 0.25 else rng.randint(1, 5)
             for _ in range(rank)]
    n = int(np.prod(shape, dtype=np.int64))
    offset = rng.randint(-3, 3)
    base = np.arange(n).reshape(shape)
    if dtype == "f":
        base = base / 4.0 + offset
    else:
        base = base.astype(np.int64) - n // 2 + offset
    lines.append("operand %s %s %d %s" % (name, dtype, offset, fmt(shape)))
    view = random_view(rng, base, lines, True)
    return base, view


def case(rng, out):
    formula = rng.choice(list(FORMULAS))
    overlap = 1 if rng.random() < 0.25 else 0
    lines = ["case %s %d" % (formula, overlap)]
    dtypes = ["f" if formula in FLOAT_ONLY or rng.random() < 0.6 else "i" for _ in range(3)]
    ops = {}
    bases = {}
    for name, dtype in zip("abc", dtypes):
        base, view = operand(rng, name, dtype, lines, 3)
        ops[name] = view
        bases[name] = base
    try:
        np.broadcast_shapes(ops["a"].shape, ops["b"].shape, ops["c"].shape)
    except ValueError:
        return False  # shapes that do not broadcast: draw again
    result = FORMULAS[formula](ops["a"], ops["b"], ops["c"])
    result = np.asarray(result)
    if overlap:
        # Write into a view of a's base with the result's shape (when a's base can hold it).
        dest_base = bases["a"].astype(result.dtype) if bases["a"].dtype != result.dtype else bases["a"]
        if dest_base.dtype != bases["a"].dtype or dest_base.shape != tuple(result.shape):
            return False
        lines.append("dest_base a")
        dest_base = bases["a"]
        dest = dest_base
        dest[...] = result
        lines.append("expect " + fmt(repr_values(dest_base)))
        lines.append("end")
        out.extend(lines)
        return True
    # A fresh destination of a larger shape, viewed down to the result's shape.
    dshape = list(result.shape)
    dtype = result.dtype
    base = np.zeros([n * 2 + 1 for n in dshape] or [], dtype=dtype)
    lines.append("dest %s %s" % ("f" if dtype.kind == "f" else "i",
                                 fmt([n * 2 + 1 for n in dshape])))
    tokens = []
    sl = []
    for n in dshape:
        if rng.random() < 0.5:
            tokens.append("r0:%d:2" % (2 * n) if n > 0 else "r0:0:1")
            sl.append(slice(0, 2 * n, 2) if n > 0 else slice(0, 0, 1))
        else:
            tokens.append("r%d:_:-1" % n if n > 0 else "r0:0:1")
            sl.append(slice(n, None, -1) if n > 0 else slice(0, 0, 1))
    if dshape:
        lines.append("dview select " + " ".join(tokens))
    view = base[tuple(sl)] if dshape else base
    if view.shape != result.shape:
        return False
    view[...] = result
    lines.append("expect " + fmt(repr_values(base)))
    lines.append("end")
    out.extend(lines)
    return True


def repr_values(a):
    flat = a.ravel()
    if flat.dtype.kind == "f":
        return [repr(float(v)) for v in flat]
    return [str(int(v)) for v in flat]


def main():
    rng = random.Random(2026)
    out = ["# generated by tests/expr/gen_expression_conformance.py with NumPy %s" % np.__version__]
    made = 0
    while made < 400:
        if case(rng, out):
            made += 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
