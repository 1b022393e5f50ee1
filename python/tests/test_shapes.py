"""strata.JaggedTensor, sparse and tiled tensors and strata.draw from Python, against NumPy."""
import gc

import numpy as np
import pytest

import strata


def random_rows(rng, n, longest=6):
    return [rng.standard_normal(int(rng.integers(0, longest + 1))).round(2) for _ in range(n)]


def test_jagged_from_lists_shares_values_and_offsets_with_numpy():
    j = strata.JaggedTensor([[1.5, 2, 3], [], [4, 5]])
    assert len(j) == 3 and j.dtype == "float64" and j.type == "3 * var * float64" and j.size == 5
    np.testing.assert_array_equal(j.values, [1.5, 2, 3, 4, 5])
    np.testing.assert_array_equal(j.offsets, [0, 3, 3, 5])
    assert j.offsets.dtype == np.int64 and not j.offsets.flags.writeable
    assert not j.values.flags.owndata  # strata's memory
    assert np.shares_memory(j.values, np.asarray(j[2]))  # a row is a view of the same values
    j.values[0] = 10  # writes go through
    j[2][1] = 50
    assert j.to_list() == [[10.0, 2.0, 3.0], [], [4.0, 50.0]]
    assert str(j) == "[[10, 2, 3], [], [4, 50]]"
    assert repr(j) == "strata.JaggedTensor([[10, 2, 3], [], [4, 50]], dtype=float64)"
    values = j.values
    del j
    gc.collect()
    np.testing.assert_array_equal(values, [10, 2, 3, 4, 50])  # the array keeps strata's memory
    assert strata.JaggedTensor([[1, 2], [3]]).dtype == "int64"
    assert strata.JaggedTensor([[True], []]).dtype == "bool"
    assert strata.JaggedTensor([[1, 2]], dtype="float32").dtype == "float32"
    assert strata.JaggedTensor([]).type == "0 * var * float64"


def test_jagged_from_offsets_reads_a_list_offset_array():
    values = np.arange(10)
    j = strata.JaggedTensor.from_offsets(values, np.array([2, 4, 4, 9], dtype=np.int32))
    assert j.to_list() == [[2, 3], [], [4, 5, 6, 7, 8]]
    np.testing.assert_array_equal(j.offsets, [0, 2, 2, 7])  # strata's offsets start at 0
    np.testing.assert_array_equal(np.asarray(j.num()), [2, 0, 5])


def test_jagged_from_starts_stops_packs_a_list_array():
    # awkward's documented ListArray: starts [0, 3, 3], stops [3, 3, 5]
    content = np.array([1.1, 2.2, 3.3, 4.4, 5.5])
    j = strata.JaggedTensor.from_starts_stops(content, [0, 3, 3], [3, 3, 5])
    assert j.to_list() == [[1.1, 2.2, 3.3], [], [4.4, 5.5]]
    # rows in any order, overlapping, leaving values unused; packed: offsets from 0
    j = strata.JaggedTensor.from_starts_stops(content, np.array([3, 0, 1]), np.array([5, 2, 4]))
    assert j.to_list() == [[4.4, 5.5], [1.1, 2.2], [2.2, 3.3, 4.4]]
    np.testing.assert_array_equal(j.offsets, [0, 2, 4, 7])
    assert not np.shares_memory(j.values, content)
    assert strata.JaggedTensor.from_starts_stops(np.arange(4, dtype=np.int32), [1], [3]).dtype == "int32"
    with pytest.raises(IndexError, match=r"from_arrays: list 1 is values\[2:6\]"):
        strata.JaggedTensor.from_starts_stops(content, [0, 2], [1, 6])
    with pytest.raises(ValueError, match="2 starts but 1 stops"):
        strata.JaggedTensor.from_starts_stops(content, [0, 2], [1])
    with pytest.raises(ValueError, match="starts must be a 1-D integer array"):
        strata.JaggedTensor.from_starts_stops(content, [0.5], [1])


@pytest.mark.parametrize("seed", range(4))
def test_jagged_reductions_match_numpy_row_by_row(seed):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng, 9)
    rows[0] = rows[0][:1] if len(rows[0]) else np.array([0.5])  # a row of one
    j = strata.JaggedTensor(rows)
    full = [r for r in rows if len(r)]
    for name in ["sum", "prod", "mean"]:
        got = np.asarray(getattr(j, name)(axis=1))
        want = [getattr(np, name)(r) if len(r) else (np.nan if name == "mean" else getattr(np, name)(r)) for r in rows]
        np.testing.assert_allclose(got, want, rtol=1e-12)
    for name in ["min", "max", "argmin", "argmax"]:
        got = np.asarray(getattr(j, name)(-1))
        for r, g in zip(rows, got):
            if len(r):
                assert g == getattr(np, name)(r)
    for ddof in [0, 1]:
        got = np.asarray(j.var(1, ddof=ddof))
        for r, g in zip(rows, got):
            if len(r) > ddof:
                assert g == pytest.approx(np.var(r, ddof=ddof))
        assert np.asarray(j.std(axis=1, ddof=ddof))[0] == pytest.approx(np.std(rows[0], ddof=ddof)) \
            if len(rows[0]) > ddof else True
    np.testing.assert_array_equal(np.asarray(j.count(1)), [len(r) for r in rows])
    # axis=None: every value; axis=0: element k of every row that has one (awkward's axis=0)
    values = np.concatenate(rows)
    assert j.sum() == pytest.approx(values.sum()) and j.max() == values.max()
    assert j.count() == values.size and j.mean() == pytest.approx(values.mean())
    longest = max(len(r) for r in rows)
    columns = [[r[k] for r in rows if len(r) > k] for k in range(longest)]
    np.testing.assert_allclose(np.asarray(j.sum(axis=0)), [sum(c) for c in columns])
    np.testing.assert_array_equal(np.asarray(j.max(axis=0)), [max(c) for c in columns])


@pytest.mark.parametrize("seed", range(3))
def test_jagged_min_max_from_initial_match_numpy(seed):
    # NumPy's initial=: np.min(row, initial=v) for every row (an empty row gives v), over all
    # values, and across rows (awkward's axis=0 with initial=)
    rng = np.random.default_rng(seed)
    rows = random_rows(rng, 9)
    rows.append(np.array([]))
    rows[1] = np.array([np.nan, 1.0])
    j = strata.JaggedTensor(rows)
    for name in ["min", "max"]:
        f = getattr(np, name)
        for v in [0.0, -0.5, 2]:
            got = np.asarray(getattr(j, name)(1, initial=v))
            np.testing.assert_array_equal(got, [f(r, initial=v) for r in rows])
            values = np.concatenate(rows)
            assert np.array_equal(getattr(j, name)(initial=v), f(values, initial=v), equal_nan=True)
            longest = max(len(r) for r in rows)
            columns = [np.array([r[k] for r in rows if len(r) > k]) for k in range(longest)]
            np.testing.assert_array_equal(np.asarray(getattr(j, name)(0, initial=v)),
                                          [f(c, initial=v) for c in columns])
    clean = strata.JaggedTensor([[1.0, 5.0], [], [3.0]])
    assert [clean.max(initial=2.0), clean.max(initial=7.0)] == [5.0, 7.0]
    assert [clean.min(initial=2.0), clean.min(initial=0.0)] == [1.0, 0.0]
    empty = strata.JaggedTensor([[], []])
    assert empty.max(initial=3.0) == 3.0 and np.asarray(empty.min(1, initial=-1.0)).tolist() == [-1.0, -1.0]
    # mask_identity wins over initial for an empty row (awkward: None)
    assert strata.JaggedTensor([[1.0, 5.0], []]).max(1, initial=2.0, mask_identity=True).tolist() \
        == [5.0, None]
    ints = strata.JaggedTensor.from_offsets(np.array([3, 1, 2], dtype=np.int64), np.array([0, 2, 2, 3]))
    assert np.asarray(ints.min(1, initial=2)).tolist() == [1, 2, 2]
    with pytest.raises(TypeError, match="min: initial=0.5"):
        ints.min(1, initial=0.5)
    with pytest.raises(TypeError, match="max: initial='a'"):
        j.max(1, initial="a")


@pytest.mark.parametrize("seed", range(3))
def test_jagged_nan_reductions_and_average_match_numpy_row_by_row(seed):
    rng = np.random.default_rng(100 + seed)
    rows = [np.where(rng.random(n) < 0.3, np.nan, rng.integers(-3, 4, n).astype(float))
            for n in rng.integers(0, 7, 12)]
    rows[1] = np.array([np.nan, np.nan])  # nothing but NaN: an empty row to the nan-reductions
    j = strata.JaggedTensor(rows)
    kept = [r[~np.isnan(r)] for r in rows]
    np.testing.assert_array_equal(np.asarray(j.nansum(1)), [k.sum() for k in kept])
    np.testing.assert_array_equal(np.asarray(j.nanprod(-1)), [k.prod() for k in kept])
    np.testing.assert_allclose(np.asarray(j.nanmean(1)),
                               [k.mean() if len(k) else np.nan for k in kept], rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(j.nanmin(1)), [k.min() if len(k) else np.inf for k in kept])
    np.testing.assert_array_equal(np.asarray(j.nanmax(1)), [k.max() if len(k) else -np.inf for k in kept])
    want = [np.nanargmax(r) if len(k) else -1 for r, k in zip(rows, kept)]
    np.testing.assert_array_equal(np.asarray(j.nanargmax(1)), want)
    want = [np.nanargmin(r) if len(k) else -1 for r, k in zip(rows, kept)]
    np.testing.assert_array_equal(np.asarray(j.nanargmin(1)), want)
    np.testing.assert_allclose(np.asarray(j.nanvar(1, ddof=1)),
                               [k.var(ddof=1) if len(k) > 1 else np.nan for k in kept], rtol=1e-12)
    values = np.concatenate(rows)
    assert j.nansum() == np.nansum(values) and j.nanmax() == np.nanmax(values)
    assert j.nanstd() == pytest.approx(np.nanstd(values))
    assert j.nanargmin() == np.nanargmin(values)
    # weighted means: np.average of each row, and of every value
    w = strata.JaggedTensor([rng.integers(1, 4, len(r)).astype(float) for r in rows])
    x = strata.JaggedTensor([np.nan_to_num(r) for r in rows])
    ws = w.to_list()
    got = np.asarray(x.average(w, 1))
    for r, wr, g in zip(rows, ws, got):
        if len(r):
            assert g == pytest.approx(np.average(np.nan_to_num(r), weights=wr))
        else:
            assert np.isnan(g)
    assert x.average(w) == pytest.approx(np.average(np.nan_to_num(values), weights=np.concatenate(ws)))
    with pytest.raises(ValueError, match="weights of shape"):
        x.average(strata.JaggedTensor([[1.0]]), 1)
    with pytest.raises(TypeError, match="weights of float32"):
        x.average(strata.JaggedTensor([np.ones(len(r), np.float32) for r in rows]), 1)
    # weighted var / std (awkward's weight=): with integer weights, NumPy's np.cov with fweights
    for ddof in (0, 1):
        got_var = np.asarray(x.var(1, ddof, weight=w))
        got_std = np.asarray(x.std(1, ddof=ddof, weight=w))
        for r, wr, v, s in zip(rows, ws, got_var, got_std):
            if len(r) and sum(wr) > ddof:
                want = np.cov(np.nan_to_num(r), fweights=np.asarray(wr, int), ddof=ddof)
                assert v == pytest.approx(float(want), rel=1e-12)
                assert s == pytest.approx(np.sqrt(float(want)), rel=1e-12)
            elif not len(r):
                assert np.isnan(v) and np.isnan(s)
        want = np.cov(np.nan_to_num(values), fweights=np.concatenate(ws).astype(int), ddof=ddof)
        assert x.var(ddof=ddof, weight=w) == pytest.approx(float(want), rel=1e-12)
    masked = x.var(1, mask_identity=True, weight=w)
    assert [m is None for m in masked.tolist()] == [len(r) == 0 for r in rows]
    with pytest.raises(ValueError, match="var.*weights of shape"):
        x.var(1, weight=strata.JaggedTensor([[1.0]]))
    with pytest.raises(TypeError, match="std: weight= "):
        x.std(1, weight=[1.0, 2.0])


def test_jagged_missing_values_are_numpy_masked_arrays():
    # awkward's documented examples: ak.firsts, ak.pad_none, ak.min(..., mask_identity=True)
    j = strata.JaggedTensor([[1.1, 2.2, 3.3], [], [4.4, 5.5]])
    first = j.firsts()
    assert isinstance(first, np.ma.MaskedArray)
    assert first.tolist() == [1.1, None, 4.4]
    assert j.lasts().tolist() == [3.3, None, 5.5]
    assert j.min(1, mask_identity=True).tolist() == [1.1, None, 4.4]
    assert j.argmax(1, mask_identity=True).tolist() == [2, None, 1]
    mean = j.mean(1, mask_identity=True)
    assert mean.mask.tolist() == [False, True, False]
    assert mean.filled(0.0).tolist() == pytest.approx([2.2, 0.0, 4.95])
    assert j.max(0, mask_identity=True).tolist() == [4.4, 5.5, 3.3]
    assert np.asarray(j.min(1)).tolist() == [1.1, np.inf, 4.4]  # the identity unless asked
    b = strata.JaggedTensor([[0, 1, 2], [], [3, 4], [5], [6, 7, 8, 9]])
    assert b.pad_none(2) == [[0, 1, 2], [None, None], [3, 4], [5, None], [6, 7, 8, 9]]
    clipped = b.pad_none(2, clip=True)
    assert clipped.tolist() == [[0, 1], [None, None], [3, 4], [5, None], [6, 7]]
    assert clipped.dtype == np.int64
    # the nan-reductions mask a row of nothing but NaN too
    n = strata.JaggedTensor([[1.0, np.nan], [np.nan], []])
    assert n.nanmax(1, mask_identity=True).tolist() == [1.0, None, None]
    assert n.nanvar(1, mask_identity=True).tolist() == [0.0, None, None]
    assert strata.JaggedTensor([[np.nan], []]).nansum(mask_identity=True) is None
    assert strata.JaggedTensor([[], []]).sum(mask_identity=True) is None
    assert n.sum(mask_identity=True) != n.sum(mask_identity=True)  # NaN: there are values
    # random rows against NumPy's masked arrays
    rng = np.random.default_rng(5)
    rows = random_rows(rng, 30)
    r = strata.JaggedTensor(rows)
    got = r.max(1, mask_identity=True)
    want = np.ma.masked_array([x.max() if len(x) else 0.0 for x in rows],
                              mask=[len(x) == 0 for x in rows])
    np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    np.testing.assert_array_equal(got.filled(7.0), want.filled(7.0))
    with pytest.raises(ValueError, match="target -1"):
        b.pad_none(-1, clip=True)


def test_jagged_bad_input_raises_python_errors():
    with pytest.raises(ValueError, match="row 1 has 2 dimensions"):
        strata.JaggedTensor([[1], [[1, 2]]])
    with pytest.raises(ValueError, match="offsets decrease at row 1"):
        strata.JaggedTensor.from_offsets(np.arange(5), [0, 3, 2])
    with pytest.raises(ValueError, match="outside the 5 values"):
        strata.JaggedTensor.from_offsets(np.arange(5), [0, 6])
    with pytest.raises(ValueError, match="1-D integer array"):
        strata.JaggedTensor.from_offsets(np.arange(5), [0.0, 2.0])
    with pytest.raises(ValueError, match="values must be 1-D"):
        strata.JaggedTensor.from_offsets(np.zeros((2, 2)), [0, 4])
    j = strata.JaggedTensor([[1.0], [2.0, 3.0]])
    with pytest.raises(IndexError, match="row 2 is out of range for 2 rows"):
        j[2]
    with pytest.raises(IndexError, match="axis 2"):
        j.sum(axis=2)
    with pytest.raises(TypeError, match="bool"):
        strata.JaggedTensor([[True]]).sum(1)
    with pytest.raises(TypeError, match="float16"):
        strata.JaggedTensor([[1.0]], dtype="float16")
    assert j.to_list() == [[1.0], [2.0, 3.0]]  # unchanged by the failed calls


def test_sparse_tensors_from_coo_and_csr_match_dense():
    rng = np.random.default_rng(7)
    dense = rng.standard_normal((6, 5)) * (rng.random((6, 5)) < 0.3)
    coords = np.argwhere(dense)
    s = strata.sparse_coo([6, 5], coords, dense[dense != 0])
    assert s.is_sparse and s.nnz == len(coords)
    np.testing.assert_array_equal(np.asarray(s.to_dense()), dense)
    data, indices, indptr = s.csr()
    rebuilt = strata.csr_matrix((data, indices, indptr), shape=[6, 5])
    np.testing.assert_array_equal(np.asarray(rebuilt.to_dense()), dense)
    # scipy's layout, worked out by hand; repeated entries add
    c = strata.csr_matrix(([1.0, 2, 3, 4], [0, 2, 1, 1], [0, 2, 2, 4]), shape=[3, 3])
    np.testing.assert_array_equal(np.asarray(c.to_dense()), [[1, 0, 2], [0, 0, 0], [0, 7, 0]])
    assert strata.to_sparse(np.eye(4)).nnz == 4
    assert not strata.asarray(dense).is_sparse
    # a sparse tensor in an expression reads as its dense values
    np.testing.assert_array_equal(np.asarray(s * 2 + 1), dense * 2 + 1)


def test_sparse_bad_input():
    with pytest.raises(IndexError):
        strata.sparse_coo([2, 2], [[0, 5]], [1.0])  # index out of bounds
    with pytest.raises(IndexError):
        strata.sparse_coo([2, 2], [[0, 1, 1]], [1.0])  # a row with 3 entries for rank 2
    with pytest.raises(ValueError, match="indptr has 3 entries for 3 rows"):
        strata.csr_matrix(([1.0], [0], [0, 1, 1]), shape=[3, 3])
    with pytest.raises(ValueError, match="not sparse"):
        strata.asarray(np.eye(2)).csr()


def test_tiled_tensors_share_tiles_with_numpy():
    a = np.arange(35.0).reshape(5, 7)
    t = strata.TiledTensor(a, [2, 3])
    assert t.shape == (5, 7) and t.grid == (3, 3) and t.dtype == "float64"
    np.testing.assert_array_equal(np.asarray(t.to_dense()), a)
    np.testing.assert_array_equal(np.asarray(t.tile([1, 2])), a[2:4, 6:7])  # a ragged edge tile
    assert t[4, 6] == 34.0
    corner = np.asarray(t.tile([0, 0]))
    corner[...] = -1  # the tile is strata's storage: writes go through
    assert t[1, 2] == -1 and t[0, 3] == 3.0
    with pytest.raises(ValueError):
        strata.TiledTensor(a, [2, 0])  # a tile extent of 0
    with pytest.raises(IndexError):
        t.tile([3, 0])
    with pytest.raises(IndexError, match=r"index \[5 0\] is outside"):
        t[5, 0]
    with pytest.raises(IndexError, match="tile grid"):
        t.tile([0])


def test_draw_returns_svg_for_jupyter():
    pictures = [strata.draw(strata.JaggedTensor([[1, 2], [3]]), "rows"),
                strata.draw(strata.sparse_coo([3, 3], [[0, 1]], [2.0])),
                strata.draw(strata.TiledTensor(np.zeros((4, 4)), [2, 2])),
                strata.draw(strata.asarray(np.eye(2)))]
    for p in pictures:
        assert isinstance(p, strata.SVG)
        assert "<svg" in p._repr_svg_() and p._repr_svg_() == p.data == str(p)
    assert "rows" in pictures[0].data
    with pytest.raises(TypeError, match="strata.draw"):
        strata.draw([1, 2])
    with pytest.raises(ValueError):
        strata.draw(strata.asarray(np.zeros((100, 100))))  # more cells than a picture holds


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(2, 3), (3, 2)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(3, 3)]),
    ("i,j->ij", [(3,), (2,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ijab,abcd->ijcd", [(2, 3, 2, 2), (2, 2, 3, 1)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 2), (2, 4), (4, 3)]),
]


@pytest.mark.parametrize("spec,shapes", EINSUM_CASES)
def test_einsum_equals_numpy_on_arrays_and_tiled_tensors(spec, shapes):
    rng = np.random.default_rng(len(spec))
    arrays = [rng.integers(-3, 4, s).astype(np.float64) for s in shapes]
    want = np.einsum(spec, *arrays, optimize=True)
    got = np.asarray(strata.einsum(spec, *arrays))
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    # Views that are not contiguous (reversed, transposed storage) go in as they are.
    views = [np.flip(np.asfortranarray(np.flip(a, 0)), 0) if a.ndim else a for a in arrays]
    assert all(v.ndim == 0 or v.strides[0] < 0 for v in views)
    np.testing.assert_array_equal(np.asarray(strata.einsum(spec, *views)), want)
    # A tiled first operand (tiles that rarely divide the extents): a tiled result.
    if arrays[0].ndim > 0:
        tiled = strata.TiledTensor(arrays[0], [2] * arrays[0].ndim)
        t = strata.einsum(spec, tiled, *arrays[1:])
        assert isinstance(t, strata.TiledTensor)
        np.testing.assert_array_equal(np.asarray(t.to_dense()), want)


def test_einsum_result_dtype_is_numpys():
    a32 = np.ones((2, 3), np.float32)
    i32 = np.arange(6, dtype=np.int32).reshape(3, 2)
    i64 = np.arange(6, dtype=np.int64).reshape(3, 2)
    assert np.asarray(strata.einsum("ij,jk", a32, a32.T)).dtype == np.float32
    assert np.asarray(strata.einsum("ij,jk", i32.T, i32)).dtype == np.int32
    assert np.asarray(strata.einsum("ij,jk", i32.T, i64)).dtype == np.int64
    assert np.asarray(strata.einsum("ij,jk", a32, i64)).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(strata.einsum("ij,jk", i32.T, i64)),
                                  np.einsum("ij,jk", i32.T, i64))
    t = strata.einsum("ij,jk", strata.TiledTensor(i32.T, [1, 2]), i32)
    assert t.dtype == "int32"


def test_einsum_of_complex_numbers_is_numpys():
    rng = np.random.default_rng(7)
    z = rng.integers(-3, 4, (3, 4)) + 1j * rng.integers(-3, 4, (3, 4))
    w = (rng.integers(-3, 4, (4, 2)) + 1j * rng.integers(-3, 4, (4, 2))).astype(np.complex64)
    r = rng.integers(-3, 4, (4, 2)).astype(np.float64)
    for spec, ops in [("ij,jk->ik", (z, w)), ("ij,jk", (z[::-1], r)), ("ii", (z[:, :3],)),
                      ("ij,ij->", (z, np.conj(z))), ("ij,jk->ik", (w.T, w))]:
        want = np.einsum(spec, *ops, optimize=True)
        got = np.asarray(strata.einsum(spec, *ops))
        assert got.dtype == want.dtype, spec  # complex64 with complex64 stays complex64
        np.testing.assert_array_equal(got, want)


def test_einsum_bad_input():
    a = np.ones((2, 3))
    with pytest.raises(ValueError, match="einsum: .*character '%' at position 4"):
        strata.einsum("ij,j%->ik", a, a)
    with pytest.raises(ValueError, match="label 'j' has extent 3 in operand 0 and 2"):
        strata.einsum("ij,jk->ik", a, a)
    with pytest.raises(TypeError, match="strata.einsum: a tiled operand with a complex one"):
        strata.einsum("ij,jk->ik", strata.TiledTensor(a, [1, 2]), np.ones((3, 2), complex))
    with pytest.raises(TypeError, match="strata.einsum: bool operands are not offered"):
        strata.einsum("i,i", np.ones(2, bool), np.ones(2, bool))
    with pytest.raises(ValueError, match="strata.einsum: 5 operands"):
        strata.einsum("i,i,i,i,i", *[np.ones(2)] * 5)
    with pytest.raises(ValueError, match="strata.einsum: no operands"):
        strata.einsum("ij")
