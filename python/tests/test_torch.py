"""PyTorch -> strata -> PyTorch through DLPack (Debian's python3-torch 1.13, installed by
scripts/install-deps): the same memory both ways, strides kept, lifetimes, expressions, errors."""
import gc

import numpy as np
import pytest
import torch

import strata

DTYPES = [torch.float64, torch.float32, torch.int64, torch.int32]


@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_to_strata_to_torch_shares_the_pointer(dtype):
    x = torch.arange(24).reshape(4, 6).to(dtype)[1:, ::2]  # a strided view
    s = strata.from_dlpack(x)
    assert s.dtype == str(dtype).replace("torch.", "")
    assert s.shape == tuple(x.shape)
    assert s.strides == tuple(k * x.element_size() for k in x.stride())
    assert np.asarray(s).ctypes.data == x.data_ptr()  # the same memory
    np.testing.assert_array_equal(np.asarray(s), x.numpy())
    back = torch.from_dlpack(s)
    assert back.data_ptr() == x.data_ptr() and back.stride() == x.stride()
    assert torch.equal(back, x)


def test_writes_and_expressions_see_torch_memory():
    x = torch.zeros(3, 4, dtype=torch.float64)
    s = strata.from_dlpack(x)
    s[1, :] = 5.0
    assert x[1].tolist() == [5.0] * 4
    y = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    s[...] = strata.from_dlpack(y) * 2 + s  # a lazy expression over two torch buffers
    assert torch.equal(x, y * 2 + torch.tensor([[0.0], [5.0], [0.0]]))


def test_lifetimes_outlive_the_producer():
    x = torch.arange(1000, dtype=torch.float64)
    s = strata.from_dlpack(x)
    del x
    gc.collect()
    assert s.sum() == sum(range(1000))
    t = strata.zeros([4, 4])
    view = torch.from_dlpack(t[1:3])  # strata's memory in torch
    del t
    gc.collect()
    assert view.shape == (2, 4) and float(view.sum()) == 0.0


def test_bad_input_from_torch():
    with pytest.raises(TypeError, match="float16"):
        strata.from_dlpack(torch.zeros(3, dtype=torch.float16))
    with pytest.raises(TypeError, match="bfloat16"):
        strata.from_dlpack(torch.zeros(3, dtype=torch.bfloat16))
    capsule = torch.utils.dlpack.to_dlpack(torch.ones(2))
    strata.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed"):
        strata.from_dlpack(capsule)  # a capsule is taken once
