#!/usr/bin/python3
"""Generates tests/data/numpy_functions.txt: NumPy's element-wise functions, mask operators and
reductions applied to random views of random arrays of several dtypes, with the result's dtype,
shape and values, for tests/expr/functions_conformance.cpp to replay on strata.

Each case:

    case <function> <arguments...>          e.g. "case sum axes 0 2 keepdims 1", "case clip"
    operand <name a|b> <dtype> <shape...>   a base array of that dtype...
    values <values...>                      ...with these row-major values (nan, inf, -inf)
    view <step...>                          a view step of the last operand
    result <dtype> <shape...>               NumPy's result
    expect <values...>                      its values, row-major
    end

dtypes: float64 float32 int64 int32 bool. View steps as tests/data/expression_cases.txt
(select, flip, transpose, roll, index arrays, unsqueeze).

Operand dtypes are chosen where strata's documented type rule and NumPy's agree (strata follows
C++'s conversions: NumPy would make int32 + float32 float64, math of int8 float16).

Run with Debian's python3 (python3-numpy):
    /usr/bin/python3 tests/expr/gen_numpy_functions.py > tests/data/numpy_functions.txt
"""
import random
import warnings

import numpy as np

warnings.simplefilter("ignore")  # NaN, division by zero: the values are what is tested

FLOATS = ["float64", "float32"]
INTS = ["int64", "int32"]

# name -> (operands, dtypes allowed for a, function)
UNARY = {
    "square": (FLOATS + INTS, np.square),
    "sign": (FLOATS + INTS, np.sign),
    "round": (FLOATS + INTS, np.round),
    "rint": (FLOATS + INTS, np.rint),
    "trunc": (FLOATS + INTS, np.trunc),
    "floor": (FLOATS + INTS, np.floor),
    "ceil": (FLOATS + INTS, np.ceil),
    "abs": (FLOATS + INTS, np.abs),
    "isnan": (FLOATS + INTS, np.isnan),
    "isinf": (FLOATS + INTS, np.isinf),
    "isfinite": (FLOATS + INTS, np.isfinite),
    "sqrt": (FLOATS + INTS, np.sqrt),
    "exp": (FLOATS + INTS, np.exp),
    "expm1": (FLOATS + INTS, np.expm1),
    "log": (FLOATS + INTS, np.log),
    "log1p": (FLOATS + INTS, np.log1p),
    "log2": (FLOATS + INTS, np.log2),
    "log10": (FLOATS + INTS, np.log10),
    "sin": (FLOATS + INTS, np.sin),
    "cos": (FLOATS + INTS, np.cos),
    "tan": (FLOATS + INTS, np.tan),
    "arcsin": (FLOATS + INTS, np.arcsin),
    "arccos": (FLOATS + INTS, np.arccos),
    "arctan": (FLOATS + INTS, np.arctan),
    "sinh": (FLOATS + INTS, np.sinh),
    "cosh": (FLOATS + INTS, np.cosh),
    "tanh": (FLOATS + INTS, np.tanh),
    "nan_to_num": (FLOATS + INTS, np.nan_to_num),
    "logical_not": (FLOATS + INTS + ["bool"], np.logical_not),
    "invert": (["bool"], np.invert),
    "bool_plus_one": (["bool"], lambda a: a + 1),
    "bool_times_half": (["bool"], lambda a: a * 0.5),
    "negative": (FLOATS + INTS, np.negative),
}

# pairs of dtypes whose promotion NumPy and C++ agree on
PAIRS = [(d, d) for d in FLOATS + INTS] + [("float32", "float64"), ("int32", "int64"),
                                           ("int64", "float64"), ("float64", "int32")]
BINARY = {
    "arctan2": (PAIRS, np.arctan2),
    "hypot": (PAIRS, np.hypot),
    # |b|: NumPy refuses negative integer exponents (strata documents its answer apart)
    "power": (PAIRS, lambda a, b: np.power(a, np.abs(b))),
    "true_divide": (PAIRS, np.true_divide),
    "floor_divide": (PAIRS, np.floor_divide),
    "mod": (PAIRS, np.mod),
    "fmod": (PAIRS, np.fmod),
    "minimum": (PAIRS, np.minimum),
    "maximum": (PAIRS, np.maximum),
    "logical_and": (PAIRS + [("bool", "bool")], np.logical_and),
    "logical_or": (PAIRS + [("bool", "bool")], np.logical_or),
    "logical_xor": (PAIRS + [("bool", "bool")], np.logical_xor),
    "and": ([("bool", "bool")], lambda a, b: a & b),
    "or": ([("bool", "bool")], lambda a, b: a | b),
    "xor": ([("bool", "bool")], lambda a, b: a ^ b),
    "clip_arrays": ([("float32", "float64"), ("float64", "float64"), ("int32", "int64"),
                     ("int64", "int64")], lambda a, b: np.clip(a, b, b + 2)),
    "where_mixed": ([("float32", "float64"), ("int32", "int64"), ("int64", "float64")],
                    lambda a, b: np.where(a > b, a, b)),
}

# scalar clips: the bounds are Python scalars, which do not widen a tensor of their kind
CLIPS = {
    "clip_int_bounds": (FLOATS + INTS, lambda a: np.clip(a, -1, 2)),
    "clip_float_bounds": (FLOATS + INTS, lambda a: np.clip(a, 0.5, 2.5)),
    "clip_crossed": (FLOATS + INTS, lambda a: np.clip(a, 2, -1)),
}

# reductions: (dtypes, function(a, axis, keepdims, extra)); axis None reduces everything
REDUCTIONS = {
    "sum": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.sum(a, axis=ax, keepdims=kd)),
    "prod": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.prod(a, axis=ax, keepdims=kd)),
    "min": (FLOATS + INTS, lambda a, ax, kd: np.min(a, axis=ax, keepdims=kd)),
    "max": (FLOATS + INTS, lambda a, ax, kd: np.max(a, axis=ax, keepdims=kd)),
    "mean": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.mean(a, axis=ax, keepdims=kd)),
    "any": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.any(a, axis=ax, keepdims=kd)),
    "all": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.all(a, axis=ax, keepdims=kd)),
    "count_nonzero": (FLOATS + INTS + ["bool"],
                      lambda a, ax, kd: np.count_nonzero(a, axis=ax, keepdims=kd)),
    "var": (FLOATS + INTS, lambda a, ax, kd: np.var(a, axis=ax, keepdims=kd)),
    "var_ddof1": (FLOATS + INTS, lambda a, ax, kd: np.var(a, axis=ax, keepdims=kd, ddof=1)),
    "std": (FLOATS + INTS, lambda a, ax, kd: np.std(a, axis=ax, keepdims=kd)),
    "std_ddof1": (FLOATS + INTS, lambda a, ax, kd: np.std(a, axis=ax, keepdims=kd, ddof=1)),
    "nansum": (FLOATS + INTS, lambda a, ax, kd: np.nansum(a, axis=ax, keepdims=kd)),
    "nanmean": (FLOATS + INTS, lambda a, ax, kd: np.nanmean(a, axis=ax, keepdims=kd)),
    "nanmin": (FLOATS + INTS, lambda a, ax, kd: np.nanmin(a, axis=ax, keepdims=kd)),
    "nanmax": (FLOATS + INTS, lambda a, ax, kd: np.nanmax(a, axis=ax, keepdims=kd)),
}
# one axis or none (keepdims along an axis)
ARG_REDUCTIONS = {
    "argmin": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.argmin(a, axis=ax, keepdims=kd)),
    "argmax": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.argmax(a, axis=ax, keepdims=kd)),
    "cumsum": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.cumsum(a, axis=ax)),
    "cumprod": (FLOATS + INTS + ["bool"], lambda a, ax, kd: np.cumprod(a, axis=ax)),
}
# reductions that NumPy refuses on empty input (strata throws): drawn on non-empty operands
NEEDS_ELEMENTS = {"min", "max", "nanmin", "nanmax", "argmin", "argmax"}


def fmt(x):
    return " ".join(str(v) for v in x)


def text(v, dtype):
    if dtype == "bool":
        return "1" if v else "0"
    if dtype.startswith("int") or dtype.startswith("uint"):
        return str(int(v))
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if dtype == "float32":
        return repr(float(np.float32(v)))
    return repr(v)


def base_values(rng, dtype, n, special):
    """Small values with repeats (ties for argmin), some NaN and infinities for floats."""
    if dtype == "bool":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=bool)
    if dtype.startswith("int"):
        return np.array([rng.randint(-4, 4) for _ in range(n)], dtype=dtype)
    out = []
    for _ in range(n):
        r = rng.random()
        if special and r < 0.08:
            out.append(float("nan"))
        elif special and r < 0.12:
            out.append(rng.choice([float("inf"), float("-inf")]))
        else:
            out.append(rng.choice([rng.randint(-4, 4) / 2.0, rng.uniform(-3, 3)]))
    return np.array(out, dtype=dtype)


def random_view(rng, arr, lines):
    for _ in range(rng.randint(0, 3)):
        r = arr.ndim
        kind = rng.choice(["select", "select", "flip", "transpose", "roll", "index", "unsqueeze"])
        if r == 0:
            kind = "unsqueeze"
        if kind == "select":
            tokens = []
            sl = []
            for n in arr.shape:
                start = None if rng.random() < 0.4 else rng.randint(-n - 1, n + 1)
                stop = None if rng.random() < 0.4 else rng.randint(-n - 1, n + 1)
                step = rng.choice([1, 1, 2, -1, -2])
                b = lambda v: "_" if v is None else str(v)
                tokens.append("r%s:%s:%d" % (b(start), b(stop), step))
                sl.append(slice(start, stop, step))
            arr = arr[tuple(sl)]
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


def operand(rng, name, dtype, lines, shape=None, special=True, min_rank=0):
    if shape is None:
        rank = rng.randint(min_rank, 3)
        shape = [rng.choice([0, 1, 2, 3, 4, 5, 6]) if rng.random() < 0.2 else rng.randint(1, 6)
                 for _ in range(rank)]
    n = int(np.prod(shape, dtype=np.int64))
    base = base_values(rng, dtype, n, special).reshape(shape)
    lines.append("operand %s %s %s" % (name, dtype, fmt(shape)))
    lines.append("values " + fmt(text(v, dtype) for v in base.ravel()))
    return random_view(rng, base, lines)


def finish(lines, result, out):
    result = np.asarray(result)
    dtype = str(result.dtype)
    lines.append("result %s %s" % (dtype, fmt(result.shape)))
    lines.append("expect " + fmt(text(v, dtype) for v in result.ravel()))
    lines.append("end")
    out.extend(lines)


def unary_case(rng, out):
    name = rng.choice(list(UNARY) + list(CLIPS))
    dtypes, f = UNARY[name] if name in UNARY else CLIPS[name]
    dtype = rng.choice(dtypes)
    lines = ["case " + name]
    a = operand(rng, "a", dtype, lines)
    finish(lines, f(a), out)
    return True


def binary_case(rng, out):
    name = rng.choice(list(BINARY))
    pairs, f = BINARY[name]
    da, db = rng.choice(pairs)
    if rng.random() < 0.5:
        da, db = db, da
    lines = ["case " + name]
    # NumPy 1.x promotes a 0-d array as a scalar (value-based casting); strata's rank-0 tensor
    # is a tensor. Operands of different dtypes are drawn with rank 1 or more.
    rank = 0 if da == db else 1
    a = operand(rng, "a", da, lines, min_rank=rank)
    b = operand(rng, "b", db, lines, special=name not in {"clip_arrays"}, min_rank=rank)
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    del shape
    finish(lines, f(a, b), out)
    return True


def reduction_case(rng, out):
    table = REDUCTIONS if rng.random() < 0.75 else ARG_REDUCTIONS
    name = rng.choice(list(table))
    dtypes, f = table[name]
    dtype = rng.choice(dtypes)
    lines = []
    a = operand(rng, "a", dtype, lines)
    if name in NEEDS_ELEMENTS and a.size == 0:
        return False
    keepdims = rng.random() < 0.3
    if table is ARG_REDUCTIONS:
        axis = None if a.ndim == 0 or rng.random() < 0.3 else rng.randint(-a.ndim, a.ndim - 1)
        if axis is None and name in {"argmin", "argmax"}:
            keepdims = False
        if name in NEEDS_ELEMENTS and axis is not None and a.shape[axis] == 0:
            return False
        axes = None if axis is None else [axis]
    else:
        if a.ndim == 0 or rng.random() < 0.25:
            axes = None
        else:
            k = rng.randint(1, a.ndim)
            axes = sorted(rng.sample(range(a.ndim), k))
            axes = [x - a.ndim if rng.random() < 0.3 else x for x in axes]
            if name in NEEDS_ELEMENTS and any(a.shape[x] == 0 for x in axes):
                return False
        axis = None if axes is None else tuple(axes)
    header = "case %s" % name
    if axes is not None:
        header += " axes " + fmt(axes)
    header += " keepdims %d" % (1 if keepdims else 0)
    result = f(a, axis, keepdims)
    finish([header] + lines, result, out)
    return True


def main():
    rng = random.Random(35)
    out = ["# generated by tests/expr/gen_numpy_functions.py with NumPy %s" % np.__version__]
    for draw, count in ((unary_case, 300), (binary_case, 250), (reduction_case, 450)):
        made = 0
        while made < count:
            if draw(rng, out):
                made += 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
