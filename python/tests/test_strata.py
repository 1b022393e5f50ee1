"""The Python module against NumPy (run by ctest as python.pytest, Debian's python3 and pytest)."""
import gc

import numpy as np
import pytest

import strata


def numbered(shape, dtype=np.float64):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
def test_numpy_to_strata_to_numpy_shares_memory(dtype):
    a = numbered((3, 4)).astype(dtype)
    t = strata.asarray(a)
    assert t.shape == (3, 4)
    assert t.dtype == np.dtype(dtype).name
    b = np.asarray(t)
    assert b.ctypes.data == a.ctypes.data  # the same pointer
    assert b.strides == a.strides
    np.testing.assert_array_equal(b, a)


def test_negative_and_strided_views_keep_their_strides():
    a = numbered((5, 6))
    v = a[::-2, 1::3]
    t = strata.asarray(v)
    assert t.strides == v.strides
    b = np.asarray(t)
    assert b.ctypes.data == v.ctypes.data
    np.testing.assert_array_equal(b, v)


def test_writes_go_through_and_read_only_stays_read_only():
    a = numbered((3, 3))
    t = strata.asarray(a)
    t[1, :] = 7.0
    assert (a[1] == 7.0).all()
    r = numbered((2, 2))
    r.flags.writeable = False
    tr = strata.asarray(r)
    with pytest.raises(ValueError):
        tr[0, 0] = 1.0
    assert not np.asarray(tr).flags.writeable


def test_views_match_numpy():
    a = numbered((4, 5, 6))
    t = strata.asarray(a)
    for key in [(1,), (slice(None, None, -1),), (Ellipsis, 2), (slice(1, 3), slice(None, None, 2), -1),
                (0, [3, 1, 1])]:
        got = t[key]
        np.testing.assert_array_equal(np.asarray(got.copy()), a[key])
    np.testing.assert_array_equal(np.asarray(t.T), a.T)
    np.testing.assert_array_equal(np.asarray(t.transpose(1, 0, 2)), a.transpose(1, 0, 2))
    np.testing.assert_array_equal(np.asarray(strata.asarray(a[0]).roll(2, 1).copy()), np.roll(a[0], 2, 1))
    np.testing.assert_array_equal(np.asarray(t.flip(0)), np.flip(a, 0))
    b = strata.asarray(a[0, 0]).broadcast_to([3, 6])
    np.testing.assert_array_equal(np.asarray(b), np.broadcast_to(a[0, 0], (3, 6)))
    assert t[1, 2, 3] == a[1, 2, 3]


def test_reductions_and_arithmetic_match_numpy():
    a = numbered((4, 5)) * 0.5 - 3
    b = numbered((4, 5)) + 1.0
    ta, tb = strata.asarray(a), strata.asarray(b)
    assert ta.sum() == pytest.approx(a.sum())
    assert ta.min() == a.min() and ta.max() == a.max()
    assert ta.mean() == pytest.approx(a.mean())
    np.testing.assert_allclose(np.asarray(ta.sum(axis=0)), a.sum(axis=0))
    np.testing.assert_allclose(np.asarray(ta + 0.1 * tb), a + 0.1 * b)
    np.testing.assert_allclose(np.asarray((ta - tb) / 2.0), (a - b) / 2.0)
    np.testing.assert_allclose(np.asarray(1.0 - ta), 1.0 - a)
    i = strata.asarray(np.arange(6, dtype=np.int64))
    np.testing.assert_array_equal(np.asarray(i * 3 + 1), np.arange(6) * 3 + 1)
    # A stencil step written in Python, evaluated by strata into a view of the output.
    u = np.random.default_rng(1).random((64, 64))
    v = np.zeros_like(u)
    tu, tv = strata.asarray(u), strata.asarray(v)
    c = tu[1:-1, 1:-1]
    tv[1:-1, 1:-1] = c + 0.1 * (tu[:-2, 1:-1] + tu[2:, 1:-1] + tu[1:-1, :-2] + tu[1:-1, 2:] - 4 * c)
    ref = u[1:-1, 1:-1] + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
    np.testing.assert_allclose(v[1:-1, 1:-1], ref)


def test_dlpack_both_ways():
    a = numbered((3, 4))
    t = strata.from_dlpack(a)  # NumPy's __dlpack__
    assert np.asarray(t).ctypes.data == a.ctypes.data
    back = np.from_dlpack(t)  # strata's __dlpack__
    assert back.ctypes.data == a.ctypes.data
    np.testing.assert_array_equal(back, a)
    assert t.__dlpack_device__() == (1, 0)
    capsule = t.__dlpack__()
    strata.from_dlpack(capsule)
    with pytest.raises(ValueError):
        strata.from_dlpack(capsule)  # consumed twice


def test_lifetimes_outlive_the_producer():
    a = numbered((100, 100))
    t = strata.asarray(a)
    del a
    gc.collect()
    assert t.sum() == pytest.approx(np.arange(10000).sum())
    s = strata.zeros([5, 5])
    view = np.asarray(s[1:3])
    del s
    gc.collect()
    assert view.shape == (2, 5) and (view == 0).all()
    d = strata.from_dlpack(numbered((10,)))
    gc.collect()
    assert d[9] == 9.0


def test_errors_are_python_exceptions_of_the_right_kind():
    t = strata.asarray(numbered((3, 4)))
    with pytest.raises(IndexError):
        t[5]
    with pytest.raises(IndexError):
        t["x"]
    with pytest.raises(ValueError):
        t.reshape([5, 5])
    with pytest.raises(TypeError):
        strata.asarray(np.zeros(3, dtype=np.float16))
    with pytest.raises(TypeError):
        strata.from_dlpack(np.zeros(3, dtype=np.float16))
    with pytest.raises(TypeError):
        strata.zeros([2], dtype="float16")
    with pytest.raises(ValueError):
        t + strata.asarray(numbered((5,)))  # shapes that do not broadcast


def test_printing_is_numpy_like():
    t = strata.asarray(np.array([[0.0, 1.5], [2.0, 3.0]]))
    assert str(t) == "[[0.  1.5]\n [2.  3. ]]"
    assert repr(t).startswith("strata.Tensor([[0.  1.5]")
