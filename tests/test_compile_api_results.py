"""mlkit.compile's results: handed to numpy without a copy, alive after the
program is gone, freed when the last array over them dies, reused by the
caching allocator; and ``out=``."""

from __future__ import annotations

import gc
import os
import weakref

import numpy as np
import pytest

import mlkit
from mlkit.api import compile as compile_api
from mlkit.api.call import allocation_of
from mlkit.runtime.allocator import caching_allocator

ALLOCATOR = caching_allocator()
needs_allocator = pytest.mark.skipif(ALLOCATOR is None, reason="no caching allocator here")

SOURCE = """
#id = affine_map<(i) -> (i)>
func.func @chain(%x: tensor<?xf32>, %w: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %w : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @fixed(%x: tensor<4x3xf64>) -> tensor<4x3xf64> {
  %e = tensor.empty() : tensor<4x3xf64>
  %r = linalg.add ins(%x, %x : tensor<4x3xf64>, tensor<4x3xf64>) outs(%e : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}
func.func @both(%x: tensor<?xf32>) -> (tensor<?xf32>, i32, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %s = linalg.add ins(%x, %x : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %e2 = tensor.empty(%d) : tensor<?xf32>
  %p = linalg.mul ins(%x, %x : tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
  %k = arith.constant 7 : i32
  return %s, %k, %p : tensor<?xf32>, i32, tensor<?xf32>
}
func.func @sum(%a: tensor<?xf64>) -> f64 {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.reduce ins(%a : tensor<?xf64>) outs(%i : tensor<f64>) dimensions = [0]
    (%v: f64, %acc: f64) {
      %t = arith.addf %v, %acc : f64
      linalg.yield %t : f64
    }
  %c = tensor.extract %r[] : tensor<f64>
  return %c : f64
}
func.func @fill(%a: memref<?xf32>) {
  return
}
"""

SHARED = """
func.func @two(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.add ins(%a, %a : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r, %r : tensor<?xf32>, tensor<?xf32>
}
func.func @ident(%a: memref<?xf32>) -> memref<?xf32> {
  return %a : memref<?xf32>
}
"""
NO_DEALLOCATION = "builtin.module(lower-to-cpu{deallocation=false})"

N = 1 << 18  # 1 MiB of f32: a large block for the allocator


@pytest.fixture(scope="module", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("mlkit-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLKIT_CACHE_DIR", str(path))
        yield path
    compile_api.default_compiler().cache.clear()


@pytest.fixture(scope="module")
def prog():
    return mlkit.compile(SOURCE)


rng = np.random.default_rng(1)


def test_results_are_the_buffers_compiled_code_allocated(prog) -> None:
    x, w = rng.random(N, np.float32), rng.random(N, np.float32)
    r = prog.chain(x, w)
    np.testing.assert_array_equal(r, x * w + x)
    owner = allocation_of(r)
    assert owner is not None and r.ctypes.data >= owner.pointer
    assert r.flags.writeable and r.flags.c_contiguous and not r.flags.owndata
    assert allocation_of(r[::2]) is owner  # views lead to it too
    assert allocation_of(x) is None


def test_results_outlive_the_program(cache_dir) -> None:
    p = mlkit.compile(SOURCE, cache=False)  # nothing but this name keeps it
    program, code = weakref.ref(p), weakref.ref(p._compiled)
    x, w = rng.random(N, np.float32), rng.random(N, np.float32)
    r = p.chain(x, w)
    s, k, q = p.both(x)
    del p
    gc.collect()
    assert program() is None and code() is None  # the JIT's code is gone
    other = mlkit.compile(SOURCE)  # more allocations, of the same sizes
    for _ in range(5):
        other.chain(w, w)
    np.testing.assert_array_equal(r, x * w + x)
    np.testing.assert_array_equal(s, x + x)
    np.testing.assert_array_equal(q, x * x)
    r[:] = 3.0  # still ours to write
    assert float(r.sum()) == 3.0 * N and k == 7


@needs_allocator
def test_the_buffer_is_freed_when_the_last_array_dies(prog) -> None:
    x = rng.random(N, np.float32)
    before = ALLOCATOR.stats().large_frees
    r = prog.chain(x, x)
    view = r[10:20]
    del r
    gc.collect()
    assert ALLOCATOR.stats().large_frees == before  # the view keeps it
    np.testing.assert_array_equal(view, (x * x + x)[10:20])
    del view
    assert ALLOCATOR.stats().large_frees == before + 1


@needs_allocator
def test_results_sharing_a_buffer_free_it_once() -> None:
    p = mlkit.compile(SHARED, pipeline=NO_DEALLOCATION)
    x = rng.random(N, np.float32)
    before = ALLOCATOR.stats().large_frees
    a, b = p.two(x)
    assert allocation_of(a) is allocation_of(b) is not None
    del a
    assert ALLOCATOR.stats().large_frees == before
    np.testing.assert_array_equal(b, x + x)
    del b
    assert ALLOCATOR.stats().large_frees == before + 1


def test_a_result_aliasing_an_argument_is_copied_not_freed() -> None:
    # without deallocation nothing clones the returned argument
    p = mlkit.compile(SHARED, pipeline=NO_DEALLOCATION)
    x = rng.random(N, np.float32)
    for _ in range(20):  # a wrong free() would crash or corrupt the heap here
        r = p.ident(x)
        assert allocation_of(r) is None and not np.shares_memory(r, x)
        np.testing.assert_array_equal(r, x)
        np.testing.assert_array_equal(p.ident(x[::3]), x[::3])
    x[:] = 1.0  # still the caller's


@needs_allocator
def test_repeated_calls_reuse_the_same_block(prog) -> None:
    x = rng.random(N, np.float32)
    prog.chain(x, x)
    before = ALLOCATOR.stats().reused
    addresses = {prog.chain(x, x).ctypes.data for _ in range(10)}
    assert len(addresses) == 1  # each result dies before the next call
    assert ALLOCATOR.stats().reused >= before + 10


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_repeated_large_results_do_not_grow_rss(prog) -> None:
    x = rng.random(1 << 20, np.float32)  # 4 MiB per result
    for _ in range(10):
        prog.chain(x, x)
    before = _rss()
    kept = [prog.chain(x, x) for _ in range(3)]
    for _ in range(300):  # 1.2 GiB if leaked
        kept.append(prog.chain(x, x))
        kept.pop(0)
    assert _rss() - before < 64 * 1024 * 1024
    np.testing.assert_array_equal(kept[-1], x * x + x)


def test_out_writes_into_the_callers_array(prog) -> None:
    x, w = rng.random(N, np.float32), rng.random(N, np.float32)
    y = np.zeros(N, np.float32)
    assert prog.chain(x, w, out=y) is y
    np.testing.assert_array_equal(y, x * w + x)
    assert prog.chain(x, w, out=x) is x  # out may be an argument
    np.testing.assert_array_equal(x, y)
    f = np.empty((4, 3))
    a = rng.random((4, 3))
    assert prog.fixed(a, out=f) is f
    np.testing.assert_array_equal(f, a + a)
    s, p = np.empty(N, np.float32), np.empty(N, np.float32)
    got = prog.both(w, out=(s, None, p))
    assert got[0] is s and got[1] == 7 and got[2] is p
    np.testing.assert_array_equal(s, w + w)
    np.testing.assert_array_equal(p, w * w)
    only, k, fresh = prog.both(w, out=(None, None, p))
    assert fresh is p and k == 7 and allocation_of(only) is not None


def test_out_errors_name_out(prog) -> None:
    x = np.ones(8, np.float32)
    a = np.ones((4, 3))
    with pytest.raises(TypeError, match=r"@chain: out has dtype float64, but result 0 "
                       r"\('tensor<\?xf32>'\) is float32"):  # fmt: skip
        prog.chain(x, x, out=np.empty(8))
    with pytest.raises(TypeError, match="@chain: out must be a numpy array, got list"):
        prog.chain(x, x, out=[0.0] * 8)
    with pytest.raises(ValueError, match=r"@fixed: out has shape \(3, 4\), but result 0 "
                       r"\('tensor<4x3xf64>'\) has shape \(4, 3\)"):  # fmt: skip
        prog.fixed(a, out=np.empty((3, 4)))
    with pytest.raises(ValueError, match=r"@chain: out has shape \(8, 1\), but result 0 .* "
                       r"has shape \(\?\)"):  # fmt: skip
        prog.chain(x, x, out=np.empty((8, 1), np.float32))
    # a size only the call computes is checked after it, before anything is written
    y = np.full(7, 5.0, np.float32)
    with pytest.raises(ValueError, match=r"@chain: out has shape \(7,\), but result 0 .* "
                       r"has shape \(8,\)"):  # fmt: skip
        prog.chain(x, x, out=y)
    assert (y == 5.0).all()
    with pytest.raises(ValueError, match="@chain: out must be C-contiguous"):
        prog.chain(x, x, out=np.empty(16, np.float32)[::2])
    ro = np.empty(8, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="@chain: out is read-only"):
        prog.chain(x, x, out=ro)
    with pytest.raises(TypeError, match=r"@both returns 3 results: out must be a tuple of 3 "
                       r"entries.*got tuple of 2"):  # fmt: skip
        prog.both(x, out=(x, x))
    with pytest.raises(TypeError, match=r"@both: result 1 \('i32'\) is a scalar, so out\[1\] "
                       r"must be None"):  # fmt: skip
        prog.both(x, out=(None, np.empty(1, np.int32), None))
    with pytest.raises(TypeError, match=r"@both: out\[2\] has dtype int32"):
        prog.both(x, out=(None, None, np.empty(8, np.int32)))
    with pytest.raises(TypeError, match="@fill returns nothing: out must be None"):
        prog.fill(x, out=x)
    with pytest.raises(TypeError, match=r"@sum: result 0 \('f64'\) is a scalar, so out must "
                       r"be None"):  # fmt: skip
        prog.sum(np.ones(3), out=np.empty(()))
