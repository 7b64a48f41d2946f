"""Kernels on a real NVIDIA GPU through cuda-python; every test skips itself
where CUDA is not usable (no bindings, no driver or no device).
test_cuda_runtime.py checks the same paths on a stand-in driver everywhere."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from test_cuda_runtime import MATMUL, PIPELINE, SAXPY, lower

from mlkit.api.call import _descriptor
from mlkit.execution.jit import JitOptions, jit_compile
from mlkit.runtime import cuda

pytestmark = pytest.mark.skipif(not cuda.available(), reason="no usable CUDA GPU here")


def test_saxpy_launch_on_the_gpu() -> None:
    compiled = jit_compile(lower(SAXPY, PIPELINE), JitOptions(opt_level=2))
    saxpy = compiled.ctypes_function(
        "_mlir_ciface_saxpy", None, ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p
    )
    runtime = cuda.current()
    n = 1 << 20
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    buffers = [runtime.alloc(n * 4, True) for _ in range(2)]
    try:
        views = [np.frombuffer((ctypes.c_char * (n * 4)).from_address(b), np.float32) for b in buffers]
        views[0][:], views[1][:] = x, y
        dx, dy = _descriptor(views[0]), _descriptor(views[1])
        saxpy(3.0, ctypes.addressof(dx), ctypes.addressof(dy))
        np.testing.assert_array_equal(views[1], 3 * x + 1)
    finally:
        for b in buffers:
            runtime.call("cuMemFree", b)


def test_compile_for_cuda_matches_numpy() -> None:
    import mlkit

    program = mlkit.compile(MATMUL, target="cuda", cache=False)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((64, 32), dtype=np.float32)
    b = rng.standard_normal((32, 16), dtype=np.float32)
    np.testing.assert_allclose(program.matmul(a, b), a @ b, rtol=1e-4, atol=1e-4)
    # transposed and sliced inputs are staged like contiguous ones
    at = np.asfortranarray(a)
    np.testing.assert_allclose(program.matmul(at, b[:, :]), a @ b, rtol=1e-4, atol=1e-4)
