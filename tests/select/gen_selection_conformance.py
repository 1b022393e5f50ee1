#!/usr/bin/python3
"""Generates tests/data/selection_programs.txt: random programs of composite selections run by
NumPy (concatenate, stack+reshape for interleave, repeat, tile, pad in every mode with widths
larger than the axis, where, minimum, maximum, combined with views). tests/select/conformance.cpp
replays each program on strata's lazy selections.

A program is a stack machine, one step per line:
  push <offset> <flip> <shape...>   np.arange(n).reshape(shape) + offset, flipped on axis 0 if flip
  concat <axis> <count>             pop count sources (pushed first = first), np.concatenate
  interleave <axis> <count>         np.stack(sources, axis + 1).reshape(...)
  repeat <count> <axis>             np.repeat
  tile <reps...>                    np.tile
  pad <mode> <value> <widths...>    np.pad(x, pairs, mode[, constant_values=value])
  where                             pop b, mask, a: np.where(mask, a, b), the mask true where
                                    its source value is odd
  minimum | maximum                 pop b, a
  transpose <perm...> | flip <axes...> | select <tokens...>   views, as in the Dimensions data

Run with Debian's python3 (python3-numpy):
    /usr/bin/python3 tests/select/gen_selection_conformance.py > tests/data/selection_programs.txt
"""
import random
import sys

import numpy as np

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
LIMIT = 600


def leaf(rng, shape, lines, stack):
    offset = rng.choice([0, 100, 1000])
    flip = 1 if (shape and rng.random() < 0.3) else 0
    a = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape) + offset
    if flip:
        a = np.flip(a, 0)
    lines.append("push %d %d %s" % (offset, flip, " ".join(map(str, shape))))
    stack.append(a)


def random_shape(rng, rank):
    return [rng.randint(1, 4) for _ in range(rank)]


def step(rng, lines, stack):
    top = stack[-1]
    r = top.ndim
    kind = rng.choice(["concat", "interleave", "repeat", "tile", "pad", "pad", "where",
                       "minimum", "maximum", "transpose", "flip", "select"])
    if r == 0 and kind in ("concat", "interleave", "repeat", "flip", "select", "transpose"):
        kind = "pad"
    if kind == "concat":
        axis = rng.randrange(r)
        count = rng.randint(1, 3)
        sources = [stack.pop()]
        for _ in range(count - 1):
            shape = list(top.shape)
            shape[axis] = rng.randint(0, 3)
            leaf(rng, shape, lines, stack)
            sources.append(stack.pop())
        # The replay pushes in order: rewrite so the earliest pushed is first.
        result = np.concatenate(sources, axis=axis)
        if result.size > LIMIT:
            stack.append(sources[0])
            del lines[len(lines) - (count - 1):]
            return
        lines.append("concat %d %d" % (axis, count))
        stack.append(result)
    elif kind == "interleave":
        axis = rng.randrange(r)
        count = rng.randint(1, 3)
        sources = [stack.pop()]
        for _ in range(count - 1):
            leaf(rng, list(top.shape), lines, stack)
            sources.append(stack.pop())
        shape = list(top.shape)
        shape[axis] *= count
        result = np.stack(sources, axis + 1).reshape(shape)
        if result.size > LIMIT:
            stack.append(sources[0])
            del lines[len(lines) - (count - 1):]
            return
        lines.append("interleave %d %d" % (axis, count))
        stack.append(result)
    elif kind == "repeat":
        count = rng.randint(0, 3)
        axis = rng.randrange(r)
        result = np.repeat(top, count, axis=axis)
        if result.size > LIMIT:
            return
        stack[-1] = result
        lines.append("repeat %d %d" % (count, axis))
    elif kind == "tile":
        reps = [rng.randint(0, 2) for _ in range(rng.randint(1, r + 1))]
        result = np.tile(top, reps)
        if result.size > LIMIT:
            return
        stack[-1] = result
        lines.append("tile " + " ".join(map(str, reps)))
    elif kind == "pad":
        mode = rng.choice(MODES)
        if any(e == 0 for e in top.shape):
            mode = "constant"
        widths = [(rng.randint(0, 5), rng.randint(0, 5)) for _ in range(r)]
        value = rng.randint(-9, -1)
        if mode == "constant":
            result = np.pad(top, widths, mode, constant_values=value)
        else:
            result = np.pad(top, widths, mode)
        if result.size > LIMIT:
            return
        stack[-1] = result
        lines.append("pad %s %d %s" % (mode, value, " ".join("%d %d" % w for w in widths)))
    elif kind in ("where", "minimum", "maximum"):
        a = stack.pop()
        operands = []
        if kind == "where":
            mshape = [1 if rng.random() < 0.4 else e for e in a.shape][rng.randint(0, r):]
            leaf(rng, mshape, lines, stack)
            mask = stack.pop() % 2
            operands.append(mask)
        bshape = [1 if rng.random() < 0.4 else e for e in a.shape][rng.randint(0, r):]
        # The replay pushes a, then the mask, then b: keep that order in the program.
        lines_before = len(lines)
        leaf(rng, bshape, lines, stack)
        b = stack.pop()
        if kind == "where":
            result = np.where(operands[0], a, b)
        elif kind == "minimum":
            result = np.minimum(a, b)
        else:
            result = np.maximum(a, b)
        lines.append(kind)
        stack.append(result)
    elif kind == "transpose":
        perm = list(range(r))
        rng.shuffle(perm)
        stack[-1] = np.transpose(top, perm)
        lines.append("transpose " + " ".join(map(str, perm)))
    elif kind == "flip":
        axes = rng.sample(range(r), rng.randint(1, r))
        stack[-1] = np.flip(top, tuple(axes))
        lines.append("flip " + " ".join(map(str, axes)))
    else:
        n = top.shape[0]
        start = rng.choice([None, rng.randint(-n, n)])
        stop = rng.choice([None, rng.randint(-n, n)])
        stride = rng.choice([1, 2, -1, -2])
        stack[-1] = top[start:stop:stride]

        def b(v):
            return "_" if v is None else str(v)
        lines.append("select r%s:%s:%d" % (b(start), b(stop), stride))


def main():
    rng = random.Random(66)
    out = sys.stdout
    out.write("# generated by tests/select/gen_selection_conformance.py with NumPy %s\n"
              % np.__version__)
    for _ in range(600):
        lines = ["program"]
        stack = []
        leaf(rng, random_shape(rng, rng.choice([1, 2, 2, 3])), lines, stack)
        for _ in range(rng.randint(1, 4)):
            step(rng, lines, stack)
        result = stack[-1]
        lines.append("expect_shape " + " ".join(map(str, result.shape)))
        lines.append("expect " + " ".join(map(str, result.reshape(-1).tolist())))
        lines.append("end")
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
