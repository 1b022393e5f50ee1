"""strata.Expr, the lazy expressions, against NumPy: the same values (bit for bit where NumPy's
operation is one IEEE operation), the same result types, the same broadcasting, on random views."""
import itertools

import numpy as np
import pytest

import strata

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.bool_]


def random_view(rng, shape, dtype=np.float64):
    """A random strided view of shape `shape` over a bigger array: negative steps, offsets, a
    transposed or broadcast axis now and then; returns the NumPy view (strata reads it in place)."""
    base_shape = [2 * n + 3 for n in shape]
    base = rng.standard_normal(base_shape) * 10
    if np.dtype(dtype).kind in "iu":
        base = np.round(base)
    base = base.astype(dtype) if dtype != np.bool_ else base > 0
    key = []
    for n in shape:
        step = int(rng.choice([1, 2, -1, -2]))
        start = int(rng.integers(0, 3)) if step > 0 else 2 * n + 2 - int(rng.integers(0, 3))
        key.append(slice(start, start + step * n if start + step * n >= 0 else None, step))
    view = base[tuple(key)]
    assert view.shape == tuple(shape)
    if len(shape) >= 2 and rng.random() < 0.3:
        view = np.asfortranarray(view)  # column-major: the last axis is not the fast one
    return view


SHAPES = [(), (1,), (0,), (7,), (3, 1), (1, 5), (4, 5), (2, 0, 3), (3, 4, 5), (2, 1, 3, 2)]


@pytest.mark.parametrize("shape", SHAPES)
def test_arithmetic_on_random_views_is_numpy_bit_for_bit(shape):
    rng = np.random.default_rng(len(shape) * 7 + sum(shape))
    for _ in range(5):
        a, b, c = (random_view(rng, shape) for _ in range(3))
        ta, tb, tc = strata.asarray(a), strata.asarray(b), strata.asarray(c)
        cases = [
            (ta + tb * tc - 2.5, a + b * c - 2.5),
            ((ta - tb) / (tc + 100.0), (a - b) / (c + 100.0)),
            (3 - ta * 0.5 + tb / 7, 3 - a * 0.5 + b / 7),
            (-ta + abs(tb), -a + abs(b)),
            (ta ** 2 + abs(tb) ** 0.5 - tc ** -1, a ** 2 + abs(b) ** 0.5 - c ** -1),  # fast powers
            (strata.sqrt(abs(ta)) * tb, np.sqrt(abs(a)) * b),
            (strata.where(ta > tb, ta, tc * 2), np.where(a > b, a, c * 2)),
            ((ta <= tb) == (tc != 0), (a <= b) == (c != 0)),
        ]
        for got, want in cases:
            assert isinstance(got, strata.Expr)
            assert got.shape == want.shape and got.dtype == want.dtype.name
            np.testing.assert_array_equal(np.asarray(got), want)


def test_transcendental_functions_match_numpy_closely():
    rng = np.random.default_rng(3)
    a = random_view(rng, (6, 7))
    t = strata.asarray(a)
    for f in ["exp", "sin", "cos", "tanh"]:
        np.testing.assert_allclose(np.asarray(getattr(strata, f)(t)), getattr(np, f)(a), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(strata.log(abs(t) + 1)), np.log(abs(a) + 1), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(t ** 3.0 + abs(t) ** t), a ** 3.0 + abs(a) ** a, rtol=1e-14)
    f32 = a.astype(np.float32)
    got = strata.exp(strata.asarray(f32) / 10)
    assert got.dtype == "float32"
    np.testing.assert_allclose(np.asarray(got), np.exp(f32 / 10), rtol=1e-6)


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((5,), (2, 3, 5)), ((2, 1, 4), (3, 1)),
                                    ((1,), ()), ((0, 1), (1, 3))])
def test_broadcasting_follows_numpy(shapes):
    rng = np.random.default_rng(5)
    a, b = (random_view(rng, s) for s in shapes)
    got = strata.asarray(a) * 2 - strata.asarray(b)
    np.testing.assert_array_equal(np.asarray(got), a * 2 - b)


def test_result_types_follow_numpy():
    """Every pair of element types and Python numbers, for +, *, / and <, against NumPy 1.24
    (Python numbers are weak: they take the tensor's type unless their value does not fit)."""
    samples = {d: np.array([1, 0, 1], dtype=d) for d in DTYPES}
    operands = list(samples.values()) + [2, -40000, 70000, 2**40, 2.5, 1e300, True]
    ops = [lambda p, q: p + q, lambda p, q: p * q, lambda p, q: p / q, lambda p, q: p < q,
           lambda p, q: p - q]
    for x, y in itertools.product(operands, repeat=2):
        if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
            continue
        tx = strata.asarray(x) if isinstance(x, np.ndarray) else x
        ty = strata.asarray(y) if isinstance(y, np.ndarray) else y
        for op in ops:
            try:
                with np.errstate(all="ignore"):
                    want = op(x, y)
            except TypeError:  # NumPy refuses bool - bool: so does strata
                with pytest.raises(TypeError):
                    op(tx, ty)
                continue
            got = op(tx, ty)
            assert got.dtype == want.dtype.name, (x, y, got.dtype, want.dtype)
            with np.errstate(all="ignore"):
                np.testing.assert_array_equal(np.asarray(got), want)


def test_integer_overflow_wraps_as_numpy():
    a = np.array([2**62, -(2**63), 2**31 - 1], dtype=np.int64)
    t = strata.asarray(a)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(np.asarray(t * 4 + t - (-t)), a * 4 + a - (-a))
    i = np.array([2**31 - 1, -(2**31)], dtype=np.int32)
    ti = strata.asarray(i)
    np.testing.assert_array_equal(np.asarray(ti + 1), i + np.int32(1))
    np.testing.assert_array_equal(np.asarray(abs(ti)), abs(i))
    np.testing.assert_array_equal(np.asarray(ti ** 3), i ** 3)


def test_assignment_casts_broadcasts_and_reads_before_it_writes():
    a = np.arange(12.0).reshape(3, 4)
    t = strata.asarray(a)
    ref = a.copy()
    t[1:, :] = t[:-1, :] * 10 + 1  # reads rows it writes, shifted: NumPy evaluates first
    ref[1:, :] = ref[:-1, :] * 10 + 1
    np.testing.assert_array_equal(a, ref)
    t[...] = t * 2  # element for element, in place
    ref[...] = ref * 2
    np.testing.assert_array_equal(a, ref)
    t[:, ::-1] = t + 0  # reversed onto itself
    ref[:, ::-1] = ref + 0
    np.testing.assert_array_equal(a, ref)
    t[0] = strata.asarray(np.array([1.0, 2.0, 3.0, 4.0])) ** 2  # broadcast rows
    t[1:] = 5
    ref[0], ref[1:] = np.array([1.0, 2.0, 3.0, 4.0]) ** 2, 5
    np.testing.assert_array_equal(a, ref)
    ints = np.zeros((2, 3), dtype=np.int32)
    strata.asarray(ints)[...] = strata.asarray(np.array([[-2.7, 0.5, 9.9]])) * 1.0  # truncates
    np.testing.assert_array_equal(ints, np.array([[-2, 0, 9], [-2, 0, 9]]))
    flags = np.zeros(3, dtype=np.bool_)
    strata.asarray(flags)[...] = strata.asarray(np.array([0.0, 2.0, -1.0])) + 0
    np.testing.assert_array_equal(flags, [False, True, True])


def test_rolled_and_indexed_operands_and_destinations():
    a = np.arange(20.0).reshape(4, 5)
    t = strata.asarray(a)
    rolled = t.roll(2, 1)  # not strided memory
    got = rolled + t[[3, 0, 1, 2]]
    np.testing.assert_array_equal(np.asarray(got), np.roll(a, 2, 1) + a[[3, 0, 1, 2]])
    out = np.zeros((4, 5))
    strata.asarray(out).roll(1, 0)[...] = t * 3  # into a rolled view: np.roll(out, 1, 0)[...] = 3a
    np.testing.assert_array_equal(out, np.roll(a * 3, -1, 0))


def test_expressions_are_lazy_and_evaluate_when_used():
    a = np.ones(4)
    t = strata.asarray(a)
    e = t + 1
    a[0] = 10  # the operands are read when the expression is evaluated (documented)
    np.testing.assert_array_equal(e.eval(), [11, 2, 2, 2])
    assert isinstance(e.eval(), strata.Tensor)
    assert e.sum() == 17 and e.max() == 11 and e[0] == 11 and len(e) == 4
    assert str(e) == "[11.  2.  2.  2.]"
    assert repr(e).startswith("strata.Expr([11.")
    assert (e.astype("int32")).dtype == "int32"
    assert (e.astype(np.float32)).dtype == "float32"
    # NumPy arrays take part without a copy; ndarray + tensor hands over to strata.
    b = np.arange(4.0)
    assert isinstance(b + t, strata.Expr)
    np.testing.assert_array_equal(np.asarray(b + t), b + a)
    assert bool(strata.asarray(np.array([3.0])) > 2)


def test_large_expressions_run_in_parallel_with_the_same_result():
    rng = np.random.default_rng(9)
    u = rng.random((700, 300))
    w = rng.random(300)
    got = strata.asarray(u)[::-1] * strata.asarray(w) - strata.sqrt(strata.asarray(u))
    np.testing.assert_array_equal(np.asarray(got), u[::-1] * w - np.sqrt(u))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fused_steps_over_several_blocks_of_a_row_are_numpy_bit_for_bit(dtype):
    # Rows of 598 elements: several blocks and a partial one; fused steps reading views of
    # different rows, a column broadcast along the rows, reversed rows and numbers.
    rng = np.random.default_rng(5)
    u = rng.random((300, 600)).astype(dtype)
    col = rng.random((298, 1)).astype(dtype)
    v = np.zeros_like(u)
    tu, tv, tc = strata.asarray(u), strata.asarray(v), strata.asarray(col)
    c = tu[1:-1, 1:-1]
    tv[1:-1, 1:-1] = c + 0.1 * (tu[:-2, 1:-1] + tu[2:, 1:-1] + tu[1:-1, :-2] + tu[1:-1, 2:] - 4 * c)
    want = np.zeros_like(u)
    m = u[1:-1, 1:-1]
    want[1:-1, 1:-1] = m + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * m)
    np.testing.assert_array_equal(v, want)
    got = (tc * tu[1:-1, ::-1][:, 1:-1] + tc / 3) * (tu[2:, 1:-1] - tc) - (c - 2) / (c + 1)
    ref = (col * u[1:-1, ::-1][:, 1:-1] + col / 3) * (u[2:, 1:-1] - col) - (m - 2) / (m + 1)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(np.asarray(got), ref)


def test_bad_expressions_raise_python_errors_naming_the_operation():
    t = strata.asarray(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"a \+ b.*\[2 3\].*\[4\]"):
        t + strata.asarray(np.zeros(4))  # does not broadcast: raised by the operator
    with pytest.raises(ValueError, match="into shape"):
        t[0] = t * 2  # a (2, 3) value into a (3,) view
    flags = strata.asarray(np.zeros(3, dtype=np.bool_))
    with pytest.raises(TypeError, match=r"-.*bool"):
        flags - flags
    with pytest.raises(TypeError, match="negative"):
        -flags
    ints = strata.asarray(np.arange(3))
    with pytest.raises(ValueError, match="negative integer powers"):
        ints ** -1
    with pytest.raises(TypeError, match="astype.*float16"):
        t.astype("float16")
    with pytest.raises(TypeError, match="__setitem__"):
        t[0] = "text"
    with pytest.raises(TypeError, match="strata.sqrt"):
        strata.sqrt("text")
    with pytest.raises(TypeError):
        t + "text"  # NotImplemented both ways: Python's TypeError
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t > 0)
    read_only = np.zeros(3)
    read_only.flags.writeable = False
    r = strata.asarray(read_only)
    with pytest.raises(ValueError, match="read-only"):
        r[...] = r + 1
    assert (read_only == 0).all()
    with pytest.raises(TypeError):
        np.sqrt(t)  # ufuncs are refused: strata.sqrt is the lazy one


def test_complex_tensors_and_expressions_match_numpy():
    rng = np.random.default_rng(11)
    z = rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))
    w = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64)
    tz, tw = strata.asarray(z), strata.asarray(w)
    assert tz.dtype == "complex128" and tw.dtype == "complex64"
    assert np.asarray(tz).ctypes.data == z.ctypes.data  # no copy
    np.testing.assert_array_equal(np.asarray(tz * (2 - 1j) + 1 - tz[::-1]), z * (2 - 1j) + 1 - z[::-1])
    np.testing.assert_array_equal(np.asarray(tz * tw), z * w)  # complex64 widens to complex128
    assert (tz * tw).dtype == "complex128" and (tw * 2.5).dtype == "complex64"
    assert (strata.asarray(np.ones(3, np.float32)) + 1j).dtype == "complex64"
    assert (strata.asarray(np.ones(3, np.int32)) + 1j).dtype == "complex128"
    np.testing.assert_allclose(np.asarray(tz / tw), z / w, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(tz / (tz + 3)), z / (z + 3), rtol=1e-15)
    got = abs(tz)
    assert got.dtype == "float64"
    np.testing.assert_allclose(np.asarray(got), abs(z), rtol=1e-15)
    for f in ["sqrt", "exp", "log", "sin", "cos", "tanh"]:
        np.testing.assert_allclose(np.asarray(getattr(strata, f)(tz)), getattr(np, f)(z), rtol=1e-13)
    np.testing.assert_array_equal(np.asarray(tz == tz[0]), z == z[0])
    np.testing.assert_array_equal(np.asarray(tz ** 2), z ** 2)
    assert tz.sum() == pytest.approx(z.sum()) and tz.mean() == pytest.approx(z.mean())
    np.testing.assert_allclose(np.asarray(tz.mean(axis=0)), z.mean(axis=0))
    out = np.zeros(5)
    strata.asarray(out)[...] = tw  # complex into float: the real part (NumPy's unsafe cast)
    np.testing.assert_array_equal(out, w.real.astype(np.float64))
    assert str(strata.asarray(np.array([1 + 2j, -3j]))) == str(np.array([1 + 2j, -3j]))
    back = np.from_dlpack(tz)
    assert back.ctypes.data == z.ctypes.data and back.dtype == np.complex128
    assert strata.from_dlpack(z).dtype == "complex128"
    assert strata.zeros([2], "complex64").dtype == "complex64"
    with pytest.raises(TypeError, match="no order"):
        tz < tz
    with pytest.raises(TypeError, match="no order"):
        tz.max()
    with pytest.raises(TypeError, match="complex128"):
        strata.JaggedTensor([[1j]])


def test_real_and_imag_are_writable_views_as_numpy():
    z = np.array([[1 + 2j, 3 + 4j], [5 + 6j, 7 + 8j]])
    tz = strata.asarray(z)
    assert tz.real.dtype == "float64" and tz.imag.strides == z.imag.strides  # (32, 16)
    np.testing.assert_array_equal(np.asarray(tz.real), z.real)
    assert np.asarray(tz.imag).ctypes.data == z.imag.ctypes.data  # the same memory
    expected = z.copy()
    tz.imag = tz.real.T  # one memory: read from a copy first, as NumPy
    expected.imag = expected.real.T
    np.testing.assert_array_equal(z, expected)
    tz.real = tz.imag[::-1] * 2
    expected.real = expected.imag[::-1] * 2
    np.testing.assert_array_equal(z, expected)
    tz.imag[0] = 0  # a view of a view
    expected.imag[0] = 0
    np.testing.assert_array_equal(z, expected)
    w = np.zeros(3, np.complex64)
    tw = strata.asarray(w)
    tw.imag = 1.5
    assert tw.real.dtype == "float32" and (w == 1.5j).all()
    # A real tensor: real is itself, imag read-only zeros and not settable (NumPy).
    x = np.arange(3.0)
    tx = strata.asarray(x)
    tx.real = tx.real + 1
    np.testing.assert_array_equal(x, [1, 2, 3])
    np.testing.assert_array_equal(np.asarray(tx.imag), np.zeros(3))
    with pytest.raises(TypeError, match="imag = value: a float64 tensor has no imaginary part"):
        tx.imag = 1
    with pytest.raises(ValueError, match="read-only"):
        tx.imag[...] = 1


def test_two_imports_of_one_array_assign_as_numpy():
    # Two buffers over one memory: writing one while reading the other reads from a copy.
    x = np.arange(1.0, 6.0)
    a, b = strata.asarray(x), strata.asarray(x[::-1])
    a[...] = b
    np.testing.assert_array_equal(x, [5, 4, 3, 2, 1])
    y = np.arange(1.0, 6.0)
    c, d = strata.asarray(y[1:]), strata.asarray(y[:-1])
    c[...] = d * 1  # NumPy: y[1:] = y[:-1] shifts
    np.testing.assert_array_equal(y, [1, 1, 2, 3, 4])


def test_views_that_are_not_strided_memory_come_out_as_copies():
    # np.asarray of a rolled view (no strided memory) aborted Python: a C++ exception in the
    # buffer protocol. Now memoryview raises BufferError and NumPy copies through __array__.
    x = np.arange(4.0)
    t = strata.asarray(x).roll(1, 0)
    np.testing.assert_array_equal(np.asarray(t), np.roll(x, 1))
    with pytest.raises(BufferError, match="not strided memory"):
        memoryview(t)
    np.testing.assert_array_equal(np.asarray(strata.asarray(x).imag), np.zeros(4))


def test_conj_as_numpy():
    z = np.array([1 + 2j, -3j, 4.0])
    tz = strata.asarray(z)
    np.testing.assert_array_equal(np.asarray(strata.conj(tz)), np.conj(z))
    np.testing.assert_array_equal(np.asarray(tz.conj() * tz), z.conj() * z)
    w = z.astype(np.complex64)
    assert strata.conj(strata.asarray(w)).dtype == "complex64"
    x = np.array([1.5, -2.0])
    got = strata.conj(strata.asarray(x))
    assert got.dtype == "float64"
    np.testing.assert_array_equal(np.asarray(got), np.conj(x))
    tz[...] = tz.conj()  # the conjugate in place
    np.testing.assert_array_equal(z, np.array([1 - 2j, 3j, 4.0]))
