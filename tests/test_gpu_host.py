"""Programs compiled for the GPU, run on the CPU by mlkit.runtime.gpu_host:
the host code is the CUDA target's (lower-to-cuda), its launches run each
kernel's host copy (gpu-kernels-to-host) over the launch's grid and block.
So the numbers, the launch sizes and the kernels' bounds guards are checked
against numpy without a GPU. Sizes are small and odd, so that tiles do not
divide them."""

from __future__ import annotations

import numpy as np
import pytest

from mlkit.api.cuda_host import HostGpu, compile_on_host
from mlkit.runtime.gpu_host import Launch

MATMUL = """
func.func @matmul(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                     outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""

CHAIN = """
func.func @chain(%x: tensor<{n}xf32>, %y: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %m = linalg.mul ins(%x, %y : tensor<{n}xf32>, tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) -> tensor<{n}xf32>
  %t = math.tanh %m : tensor<{n}xf32>
  %s = arith.addf %t, %x : tensor<{n}xf32>
  return %s : tensor<{n}xf32>
}}
"""

ROW_SUM = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: tensor<{m}x{n}xf32>) -> tensor<{m}xf32> {{
  %e = tensor.empty() : tensor<{m}xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m}xf32>) -> tensor<{m}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%a : tensor<{m}x{n}xf32>) outs(%f : tensor<{m}xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<{m}xf32>
  return %r : tensor<{m}xf32>
}}
"""

# a block sum through workgroup memory: barriers, one of them in a loop
BLOCK_SUMS = """
module attributes {gpu.container_module} {
  func.func @block_sums(%x: memref<?xf32>, %out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %nb = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@block_sum blocks in (%nb, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>, %n : index)
    return
  }
  gpu.module @kernels {
    gpu.func @block_sum(%x: memref<?xf32>, %out: memref<?xf32>, %n: index)
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %i = gpu.global_id x
      %tx = gpu.thread_id x
      %in = arith.cmpi ult, %i, %n : index
      %v = scf.if %in -> (f32) {
        %l = memref.load %x[%i] : memref<?xf32>
        scf.yield %l : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %buf[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c7 step %c1 {
        %s = arith.shrui %c64, %k : index
        %lt = arith.cmpi ult, %tx, %s : index
        scf.if %lt {
          %j = arith.addi %tx, %s : index
          %a = memref.load %buf[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
          %b = memref.load %buf[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %buf[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %r = memref.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        %bx = gpu.block_id x
        memref.store %r, %out[%bx] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""

# workgroup reductions by a kind and by a body, each the same for every thread
ALL_REDUCE = """module attributes {gpu.container_module} {
  func.func @sums(%x: memref<?xf32>, %out: memref<?xf32>, %m: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %n = memref.dim %out, %c0 : memref<?xf32>
    gpu.launch_func @kernels::@row blocks in (%n, %c1, %c1) threads in (%c100, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>, %m : memref<?xi32>)
    return
  }
  gpu.module @kernels {
    gpu.func @row(%x: memref<?xf32>, %out: memref<?xf32>, %m: memref<?xi32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %sx = gpu.block_dim x
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %x[%i] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %s, %out[%bx] : memref<?xf32>
      }
      %ti = arith.index_cast %tx : index to i32
      %mx = gpu.all_reduce %ti uniform {
      ^bb0(%a: i32, %b: i32):
        %r = arith.maxsi %a, %b : i32
        gpu.yield %r : i32
      } : (i32) -> i32
      memref.store %mx, %m[%bx] : memref<?xi32>
      gpu.return
    }
  }
}
"""

RNG = np.random.default_rng(17)


def _covers(launch: Launch, shape: tuple[int, ...]) -> None:
    """The launch's threads cover ``shape`` (its last dimension along x)."""
    extents = [g * b for g, b in zip(launch.grid, launch.block)]
    for extent, size in zip(extents, reversed(shape)):
        assert extent >= size


@pytest.mark.parametrize(("m", "k", "n"), [(64, 40, 48), (33, 20, 50), (130, 90, 70)])
def test_matmul_matches_numpy(m: int, k: int, n: int) -> None:
    """The matmul's kernel stages 64x16 and 16x64 tiles of A and B in
    workgroup memory (gpu-stage-matmul-tiles): a block of 16x16 threads per
    64x64 tile of C, K in steps of 16, zeros outside A and B."""
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(MATMUL.format(m=m, k=k, n=n))
    a = RNG.standard_normal((m, k), dtype=np.float32)
    b = RNG.standard_normal((k, n), dtype=np.float32)
    with gpu:
        c = program.matmul(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    fill, mm = gpu.launches
    assert fill.module == "matmul_kernel" and mm.module == "matmul_kernel_0"
    assert fill.threads_per_block >= 128
    _covers(fill, (m, n))
    assert mm.block == (16, 16, 1)
    assert mm.grid == (-(-n // 64), -(-m // 64), 1)


def test_matmul_without_shared_memory_tiles() -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(
            MATMUL.format(m=33, k=20, n=50), "builtin.module(lower-to-cuda{host-kernels matmul-tiles=false})"
        )
        a = RNG.standard_normal((33, 20), dtype=np.float32)
        b = RNG.standard_normal((20, 50), dtype=np.float32)
        c = program.matmul(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    for launch in gpu.launches:
        assert launch.threads_per_block >= 128
        _covers(launch, (33, 50))


@pytest.mark.parametrize("n", [1000, 33])
def test_elementwise_chain_with_tanh_matches_numpy(n: int) -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(CHAIN.format(n=n))
    x = RNG.standard_normal(n, dtype=np.float32)
    y = RNG.standard_normal(n, dtype=np.float32)
    with gpu:
        z = program.chain(x, y)
    np.testing.assert_allclose(z, np.tanh(x * y) + x, rtol=1e-5, atol=1e-6)
    (launch,) = gpu.launches  # one fused kernel
    assert launch.grid[0] * launch.block[0] >= n


@pytest.mark.parametrize(
    ("m", "n", "options", "grid", "block"),
    [
        (33, 1000, "", (33, 1, 1), (256, 1, 1)),  # a block per row, gpu.all_reduce
        (5, 128, "", (5, 1, 1), (128, 1, 1)),  # fewer threads for a shorter row
        (7, 1000, "reduction-threads=64", (7, 1, 1), (64, 1, 1)),
        (1000, 33, "", (4, 1, 1), (256, 1, 1)),  # rows shorter than 128: a thread per row
        (33, 1000, "block-reductions=false", (1, 1, 1), (64, 1, 1)),
    ],
)
def test_row_sum_matches_numpy(
    m: int, n: int, options: str, grid: tuple[int, int, int], block: tuple[int, int, int]
) -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(
            ROW_SUM.format(m=m, n=n), f"builtin.module(lower-to-cuda{{host-kernels {options}}})"
        )
        a = RNG.standard_normal((m, n), dtype=np.float32)
        r = program.row_sum(a)
    np.testing.assert_allclose(r, a.sum(axis=1), rtol=1e-4, atol=1e-4)
    fill, reduce = gpu.launches
    assert (reduce.grid, reduce.block) == (grid, block)


REDUCE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> ({out})>
func.func @reduce(%a: tensor<{m}x{n}x{t}>, %init: tensor<{k}x{t}>) -> tensor<{k}x{t}> {{
  %r = linalg.generic {{indexing_maps = [#id, #out], iterator_types = [{iterators}]}}
      ins(%a : tensor<{m}x{n}x{t}>) outs(%init : tensor<{k}x{t}>) {{
  ^bb0(%v: {t}, %acc: {t}):
    {body}
    linalg.yield %s : {t}
  }} -> tensor<{k}x{t}>
  return %r : tensor<{k}x{t}>
}}
"""
ROWS = {"out": "d0", "iterators": '"parallel", "reduction"'}
COLUMNS = {"out": "d1", "iterators": '"reduction", "parallel"'}


@pytest.mark.parametrize(
    ("kind", "t", "body", "expected"),
    [
        ("rows", "f32", "%s = arith.maximumf %v, %acc : f32", lambda a, i: np.maximum(a.max(1), i)),
        ("rows", "f32", "%q = arith.mulf %v, %v : f32\n    %s = arith.addf %acc, %q : f32",
         lambda a, i: (a * a).sum(1) + i),
        ("rows", "i32", "%s = arith.maxsi %v, %acc : i32", lambda a, i: np.maximum(a.max(1), i)),
        ("rows", "i32", "%s = arith.xori %v, %acc : i32",
         lambda a, i: np.bitwise_xor.reduce(a, axis=1) ^ i),
        ("columns", "f32", "%s = arith.addf %v, %acc : f32", lambda a, i: a.sum(0) + i),
    ],
    ids=["max", "squares", "max-i32", "xor-i32", "columns"],
)
def test_reductions_match_numpy(kind: str, t: str, body: str, expected: object) -> None:
    """The combiner and what it combines come from the generic's body; the
    result starts from the output's values. A column reduction keeps a
    thread per column."""
    m, n = 40, 300
    k = m if kind == "rows" else n
    text = REDUCE.format(m=m, n=n, k=k, t=t, body=body, **(ROWS if kind == "rows" else COLUMNS))
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(text)
        if t == "f32":
            a = RNG.standard_normal((m, n), dtype=np.float32)
            init = RNG.standard_normal(k, dtype=np.float32)
        else:
            a = RNG.integers(-1000, 1000, (m, n), dtype=np.int32)
            init = RNG.integers(-1000, 1000, k, dtype=np.int32)
        r = program.reduce(a, init)
    np.testing.assert_allclose(r, expected(a, init), rtol=1e-4, atol=1e-3)  # type: ignore[operator]
    launch = gpu.launches[-1]  # after the copy of init into the result
    assert launch.block == (256, 1, 1)
    assert launch.grid == ((m, 1, 1) if kind == "rows" else (2, 1, 1))


def test_dynamic_shapes() -> None:
    text = """
    func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = tensor.dim %a, %c0 : tensor<?x?xf32>
      %n = tensor.dim %b, %c1 : tensor<?x?xf32>
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %z = arith.constant 0.0 : f32
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                         outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      return %r : tensor<?x?xf32>
    }
    """
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(text)
    a = RNG.standard_normal((37, 5), dtype=np.float32)
    b = RNG.standard_normal((5, 70), dtype=np.float32)
    with gpu:
        c = program.matmul(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    fill, mm = gpu.launches
    assert fill.block == (32, 8, 1)
    assert (mm.grid, mm.block) == ((2, 1, 1), (16, 16, 1))  # 64x64 tiles, from memref.dim


def test_barriers_and_workgroup_memory() -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(BLOCK_SUMS)
    x = RNG.standard_normal(1000, dtype=np.float32)
    out = np.zeros(8, dtype=np.float32)
    with gpu:
        program.block_sums(x, out)
    expected = [x[i : i + 128].sum() for i in range(0, 1000, 128)]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert [(l.grid, l.block) for l in gpu.launches] == [((8, 1, 1), (128, 1, 1))]


def test_all_reduce_by_kind_and_by_body() -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(ALL_REDUCE)
        x = RNG.standard_normal(300, dtype=np.float32)
        out = np.zeros(3, np.float32)
        largest = np.zeros(3, np.int32)
        program.sums(x, out, largest)
    np.testing.assert_allclose(out, x.reshape(3, 100).sum(axis=1), rtol=1e-5, atol=1e-5)
    assert list(largest) == [99] * 3  # the largest thread id of each block


def test_f64_row_sum() -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(ROW_SUM.format(m=3, n=500).replace("f32", "f64"))
        a = RNG.standard_normal((3, 500))
        r = program.row_sum(a)
    np.testing.assert_allclose(r, a.sum(axis=1), rtol=1e-12)
    assert gpu.launches[-1].grid == (3, 1, 1)


def test_a_launch_no_gpu_could_run_fails_as_on_a_gpu(capfd: pytest.CaptureFixture[str]) -> None:
    text = BLOCK_SUMS.replace("threads in (%c128, %c1, %c1)", "threads in (%c128, %c128, %c1)")
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(text)
    out = np.full(1, 7, dtype=np.float32)
    with gpu:
        program.block_sums(np.ones(100, dtype=np.float32), out)
    assert "'cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem, " \
        "stream, params, extra)' failed with 'CUDA_ERROR_INVALID_VALUE'" in capfd.readouterr().err
    assert out[0] == 7 and gpu.launches == []


def test_without_host_copies_the_kernel_is_not_found(capfd: pytest.CaptureFixture[str]) -> None:
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(CHAIN.format(n=10), pipeline="builtin.module(lower-to-cuda)")
    with gpu:
        program.chain(np.ones(10, np.float32), np.ones(10, np.float32))
    assert "failed with 'CUDA_ERROR_NOT_FOUND'" in capfd.readouterr().err


def test_the_host_backend_needs_the_host_gpu() -> None:
    with pytest.raises(ValueError, match="only under mlkit.runtime.gpu_host.HostGpu"):
        compile_on_host(CHAIN.format(n=10))


CONSTANT = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @add_row(%x: tensor<{m}x3xf32>) -> tensor<{m}x3xf32> {{
  %d = arith.constant dense<[1.5, -2.0, 4.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<{m}x3xf32>
  %r = linalg.generic {{indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %d : tensor<{m}x3xf32>, tensor<3xf32>) outs(%e : tensor<{m}x3xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<{m}x3xf32>
  return %r : tensor<{m}x3xf32>
}}
"""


def test_a_constant_global_is_read_from_the_kernels_module() -> None:
    """The constant's memref.global is copied into the gpu.module (the
    kernel takes no pointer to host memory); its host copy is what the
    kernel's host copy reads."""
    gpu = HostGpu()
    with gpu:
        program = compile_on_host(CONSTANT.format(m=70))
        x = RNG.standard_normal((70, 3), dtype=np.float32)
        r = program.add_row(x)
    np.testing.assert_allclose(r, x + np.array([1.5, -2.0, 4.0], np.float32))
    (launch,) = gpu.launches
    assert launch.threads_per_block >= 128
