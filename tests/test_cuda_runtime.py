"""mlkit.runtime.cuda under compiled host code, on a stand-in driver
(:mod:`fake_cuda`): the GPU pipeline's host code is JIT-compiled and run, its
global constructor loads the PTX, and each launch's parameters are decoded
with the types the PTX entry declares and given to a numpy model of the
kernel. This checks, without a GPU, that what the host passes matches what
the kernel expects. test_cuda_gpu.py runs the same on a real GPU."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from fake_cuda import FakeDriver, Launch

from mlkit.api.call import _descriptor
from mlkit.execution.jit import JitError, JitOptions, jit_compile
from mlkit.runtime import cuda

SAXPY = """
func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %nb = arith.ceildivui %n, %c128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
"""
PIPELINE = "builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa opt-level=3})"


def lower(text: str, pipeline: str) -> object:
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, text, "<test>")
    PassRunner(ctx).run(PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module"), module)
    return module


def _floats(address: int, offset: int, size: int) -> np.ndarray:
    return np.ctypeslib.as_array((ctypes.c_float * (offset + size)).from_address(address))[offset:]


def saxpy_model(launch: Launch) -> None:
    """The outlined kernel's parameters: n, then x's and y's descriptors
    (allocated, aligned, offset, size, stride), then a."""
    n, _, xp, xo, xs, xst, _, yp, yo, ys, yst, a = launch.params
    assert (xst, yst) == (1, 1)
    assert launch.grid[0] * launch.block[0] >= n and launch.block == (128, 1, 1)
    x, y = _floats(xp, xo, xs), _floats(yp, yo, ys)
    y[:n] = np.float32(a) * x[:n] + y[:n]


@pytest.fixture
def fake() -> FakeDriver:
    driver = FakeDriver(kernels={"saxpy_kernel": saxpy_model})
    previous = cuda.use_runtime(cuda.CudaRuntime(driver))
    yield driver
    cuda.use_runtime(previous)


def test_host_code_loads_ptx_and_launches_with_the_kernels_parameters(fake: FakeDriver) -> None:
    compiled = jit_compile(lower(SAXPY, PIPELINE), JitOptions(opt_level=2))
    # the global constructor loaded the PTX through the JIT loader, at O3
    assert fake.calls.count("cuModuleLoadDataEx") == 1 and fake.jit_levels == [3]
    assert ".entry saxpy_kernel(" in next(iter(fake.modules.values()))
    saxpy = compiled.ctypes_function(
        "_mlir_ciface_saxpy", None, ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p
    )
    x = np.arange(300, dtype=np.float32)
    y = np.ones(300, dtype=np.float32)
    dx, dy = _descriptor(x), _descriptor(y)
    saxpy(2.0, ctypes.addressof(dx), ctypes.addressof(dy))
    np.testing.assert_array_equal(y, 2 * np.arange(300, dtype=np.float32) + 1)
    (launch,) = fake.launches
    assert launch.grid == (3, 1, 1) and launch.params[0] == 300 and launch.params[-1] == 2.0
    # a synchronous launch runs on a stream of its own
    assert fake.calls[-4:] == ["cuStreamCreate", "cuLaunchKernel", "cuStreamSynchronize",
                               "cuStreamDestroy"]  # fmt: skip


def test_failed_driver_calls_are_reported_as_upstream_reports_them(
    fake: FakeDriver, capfd: pytest.CaptureFixture[str]
) -> None:
    compiled = jit_compile(lower(SAXPY, PIPELINE))
    del compiled
    get_function = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
        cuda.callback_address("mgpuModuleGetFunction")
    )
    module = next(iter(fake.modules))
    assert get_function(module, b"no_such_kernel") is None
    assert (
        "'cuModuleGetFunction(&function, module, name)' failed with 'CUDA_ERROR_NOT_FOUND'"
        in capfd.readouterr().err
    )


def test_memory_functions(fake: FakeDriver) -> None:
    """mgpuMemAlloc (device and host-shared), mgpuMemcpy, mgpuMemset32,
    mgpuMemFree and host registration of a memref, as upstream's wrappers."""

    def fn(name: str) -> object:
        restype, argtypes = cuda.MGPU_SIGNATURES[name]
        return ctypes.CFUNCTYPE(restype, *argtypes)(cuda.callback_address(name))

    device = fn("mgpuMemAlloc")(64, None, False)
    shared = fn("mgpuMemAlloc")(64, None, True)
    assert fake.calls[-2:] == ["cuMemAlloc", "cuMemAllocManaged"]
    assert fn("mgpuMemAlloc")(0, None, False) is None  # nothing for an empty buffer
    fn("mgpuMemset32")(device, 7, 16, None)
    fn("mgpuMemcpy")(shared, device, 64, None)
    assert list((ctypes.c_uint32 * 16).from_address(shared)) == [7] * 16
    fn("mgpuMemFree")(device, None)
    fn("mgpuMemFree")(shared, None)
    assert not fake.buffers
    # a 3x4 f32 view at offset 2: 48 bytes from the aligned pointer + 8
    data = np.zeros(14, dtype=np.float32)
    view = np.lib.stride_tricks.as_strided(data[2:], shape=(3, 4), strides=(16, 4))
    desc = _descriptor(view)
    desc.offset, desc.aligned = 2, data.ctypes.data
    fn("mgpuMemHostRegisterMemRef")(2, ctypes.addressof(desc), 4)
    assert fake.registered == [(data.ctypes.data + 8, 48)]
    fn("mgpuMemHostUnregisterMemRef")(2, ctypes.addressof(desc), 4)
    assert fake.registered == []


@pytest.mark.skipif(cuda.available(), reason="CUDA is usable here")
def test_without_cuda_a_gpu_program_is_a_clear_error() -> None:
    previous = cuda.use_runtime(None)
    try:
        with pytest.raises(JitError, match=r"the program calls the GPU runtime \(mgpu\w+\), but"):
            jit_compile(lower(SAXPY, PIPELINE))
    finally:
        cuda.use_runtime(previous)


MATMUL = """
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %e = tensor.empty() : tensor<64x16xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
"""


def _matrix(desc: list[int]) -> np.ndarray:
    """A 2-d view of a kernel's expanded memref parameters."""
    _, aligned, offset, rows, cols, row_stride, col_stride = desc
    base = _floats(aligned, offset, (rows - 1) * row_stride + (cols - 1) * col_stride + 1)
    return np.lib.stride_tricks.as_strided(base, (rows, cols), (row_stride * 4, col_stride * 4))


def _covers(launch: Launch, c: np.ndarray) -> None:
    """The two parallel loops tiled onto a 16x16 block (the default 8x32
    shape fitted to 16 columns), columns along x, rows along y."""
    rows, cols = c.shape
    assert launch.block == (16, 16, 1)
    assert launch.grid == (-(-cols // 16), -(-rows // 16), 1)


def linalg_model(launch: Launch) -> None:
    """The fill kernel (one memref, the zero sunk into it), a grid of 16x16
    thread blocks over C, and the matmul kernel (A, B, C), a block of 16x16
    threads per 64x64 tile of C (gpu-stage-matmul-tiles)."""
    if len(launch.params) == 7:
        c = _matrix(launch.params)
        _covers(launch, c)
        c[...] = 0
        return
    a, b, c = (_matrix(launch.params[i : i + 7]) for i in (0, 7, 14))
    rows, cols = c.shape
    assert launch.block == (16, 16, 1)
    assert launch.grid == (-(-cols // 64), -(-rows // 64), 1)
    c += a @ b


def test_compile_for_cuda_runs_kernels_on_managed_memory() -> None:
    import mlkit

    driver = FakeDriver(kernels={"matmul_kernel": linalg_model})
    previous = cuda.use_runtime(cuda.CudaRuntime(driver))
    try:
        program = mlkit.compile(MATMUL, target="cuda", cache=False)
        rng = np.random.default_rng(0)
        a = rng.standard_normal((64, 32), dtype=np.float32)
        b = rng.standard_normal((32, 16), dtype=np.float32)
        c = program.matmul(a, b)
    finally:
        cuda.use_runtime(previous)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert [launch.kernel for launch in driver.launches] == ["matmul_kernel"] * 2
    # the arguments were staged in managed memory, and the result allocated
    # there by the host code; all of it is freed
    assert driver.calls.count("cuMemAllocManaged") == 3
    assert not driver.buffers


def test_compile_for_cuda_without_cuda_is_a_value_error() -> None:
    import mlkit

    if cuda.available():
        pytest.skip("CUDA is usable here")
    previous = cuda.use_runtime(None)
    try:
        with pytest.raises(ValueError, match="target 'cuda': "):
            mlkit.compile(MATMUL, target="cuda", cache=False)
        with pytest.raises(ValueError, match="target must be 'cpu' or 'cuda'"):
            mlkit.compile(MATMUL, target="tpu")
    finally:
        cuda.use_runtime(previous)
