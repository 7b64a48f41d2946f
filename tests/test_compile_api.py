"""mlkit.compile: numpy round trips, errors, the compile cache, ownership."""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys

import numpy as np
import pytest

import mlkit
from mlkit.api import compile as compile_api
from mlkit.api.cache import CompileCache
from mlkit.api.call import allocation_of

COMPILER = compile_api.default_compiler()  # the one mlkit.compile uses
STATS = COMPILER.stats

MATMUL_TENSOR = """
func.func @matmul(%a: tensor<8x6xf32>, %b: tensor<6x5xf32>, %c: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x6xf32>, tensor<6x5xf32>) outs(%c : tensor<8x5xf32>) -> tensor<8x5xf32>
  return %r : tensor<8x5xf32>
}
"""

KERNELS = """
func.func @matmul(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%c : memref<?x?xf32>)
  return
}
func.func @matmul_dense(%a: memref<4x3xf64>, %b: memref<3x2xf64>, %c: memref<4x2xf64>) {
  linalg.matmul ins(%a, %b : memref<4x3xf64>, memref<3x2xf64>) outs(%c : memref<4x2xf64>)
  return
}
func.func @add(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %s = linalg.add ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
func.func @sum(%a: tensor<?xf64>) -> f64 {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.reduce ins(%a : tensor<?xf64>) outs(%i : tensor<f64>) dimensions = [0]
    (%x: f64, %acc: f64) {
      %s = arith.addf %x, %acc : f64
      linalg.yield %s : f64
    }
  %c = tensor.extract %r[] : tensor<f64>
  return %c : f64
}
func.func @sum0(%a: tensor<?xf64>) -> tensor<f64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.reduce ins(%a : tensor<?xf64>) outs(%i : tensor<f64>) dimensions = [0]
    (%x: f64, %acc: f64) {
      %s = arith.addf %x, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<f64>
}
func.func @addsub(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %s = linalg.add ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %d = linalg.sub ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %k = arith.constant 7 : i32
  return %s, %d, %k : tensor<?x?xf32>, tensor<?x?xf32>, i32
}
func.func @scale(%x: f64, %n: i32) -> f64 {
  %f = arith.sitofp %n : i32 to f64
  %r = arith.mulf %x, %f : f64
  return %r : f64
}
func.func private @helper() {
  return
}
"""

rng = np.random.default_rng(0)


def owns(a: np.ndarray) -> bool:
    """Whether ``a`` owns its memory: numpy's own, or a buffer compiled code
    allocated and handed over (freed when the last array over it dies)."""
    return a.flags.owndata or allocation_of(a) is not None


@pytest.fixture(scope="module", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("mlkit-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLKIT_CACHE_DIR", str(path))
        COMPILER.cache.clear()
        yield path
    COMPILER.cache.clear()


@pytest.fixture(scope="module")
def prog(cache_dir):
    return mlkit.compile(KERNELS)


def test_matmul_on_tensors(cache_dir) -> None:
    p = mlkit.compile(MATMUL_TENSOR)
    a = rng.random((8, 6), np.float32)
    b = rng.random((6, 5), np.float32)
    c = np.zeros((8, 5), np.float32)
    r = p.matmul(a, b, c)
    np.testing.assert_allclose(r, a @ b, rtol=1e-5)
    assert owns(r) and r.dtype == np.float32
    assert not c.any()  # a tensor argument is a value: never written


def test_matmul_on_memrefs_writes_in_place(prog) -> None:
    a = rng.random((7, 4), np.float32)
    b = rng.random((4, 3), np.float32)
    c = np.zeros((7, 3), np.float32)
    assert prog.matmul(a, b, c) is None
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_static_memref_matmul(prog) -> None:
    a, b, c = rng.random((4, 3)), rng.random((3, 2)), np.zeros((4, 2))
    prog.matmul_dense(a, b, c)
    np.testing.assert_allclose(c, a @ b)


@pytest.mark.parametrize("layout", ["transposed", "sliced", "fortran", "negative"])
def test_strided_inputs(prog, layout: str) -> None:
    base_a = rng.random((12, 10), np.float32)
    base_b = rng.random((10, 12), np.float32)
    if layout == "transposed":
        a, b = base_a.T, base_b.T
    elif layout == "sliced":
        a, b = base_a[1::2, ::3], base_b[::3, 2:7]
    elif layout == "fortran":
        a, b = np.asfortranarray(base_a), np.asfortranarray(base_b)
    else:
        a, b = base_a[::-1], base_b[:, ::-1]
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    prog.matmul(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
    r = prog.add(a, a)  # identity-layout tensors: copied when not contiguous
    np.testing.assert_allclose(r, a + a)


def test_misaligned_input_is_copied(prog) -> None:
    raw = np.zeros(4 * 9 + 1, np.uint8)
    a = raw[1:].view(np.float32).reshape(3, 3)
    assert not a.flags.aligned
    a[...] = rng.random((3, 3), np.float32)
    c = np.zeros((3, 3), np.float32)
    prog.matmul(a, a, c)
    np.testing.assert_allclose(c, a @ a, rtol=1e-5)


def test_strided_memref_output_written_back(prog) -> None:
    a = rng.random((4, 3))
    b = rng.random((3, 2))
    big = np.zeros((2, 4))
    prog.matmul_dense(a, b, big.T)  # not contiguous: copied in and back
    np.testing.assert_allclose(big.T, a @ b)


def test_elementwise_add(prog) -> None:
    a = rng.random((5, 9), np.float32)
    b = rng.random((5, 9), np.float32)
    r = prog.add(a, b)
    np.testing.assert_array_equal(r, a + b)
    assert owns(r) and r.flags.c_contiguous


def test_reduction_to_scalar_and_0d(prog) -> None:
    x = rng.random(33)
    assert prog.sum(x) == pytest.approx(x.sum())
    r = prog.sum0(x[::3])
    assert isinstance(r, np.ndarray) and r.shape == () and owns(r)
    assert float(r) == pytest.approx(x[::3].sum())
    assert prog.sum(np.zeros(0)) == 0.0


def test_multiple_results(prog) -> None:
    a = rng.random((3, 4), np.float32)
    b = rng.random((3, 4), np.float32)
    s, d, k = prog.addsub(a, b)
    np.testing.assert_allclose(s, a + b)
    np.testing.assert_allclose(d, a - b)
    assert k == 7 and owns(s) and owns(d)


def test_scalars(prog) -> None:
    assert prog.scale(1.5, 4) == 6.0
    assert prog.scale(2, np.int32(-3)) == -6.0


def test_module_object_and_listing(prog) -> None:
    from mlkit.context import make_context
    from mlkit.syntax.parser import parse_module

    module = parse_module(make_context(), MATMUL_TENSOR, "m")
    p = mlkit.compile(module)
    assert p.functions == ["matmul"]
    assert "helper" not in prog.functions and "matmul" in prog.functions


def test_errors(prog) -> None:
    f32 = np.zeros((3, 3), np.float32)
    with pytest.raises(TypeError, match=r"@matmul takes 3 arguments.*got 2"):
        prog.matmul(f32, f32)
    with pytest.raises(TypeError, match=r"argument 0 .*dtype float32, got float64"):
        prog.matmul(f32.astype(np.float64), f32, f32)
    with pytest.raises(ValueError, match=r"argument 1 .*rank 2, got rank 1"):
        prog.matmul(f32, np.zeros(3, np.float32), f32)
    with pytest.raises(ValueError, match=r"argument 2 .*shape \(4, 2\), got \(2, 4\)"):
        prog.matmul_dense(np.zeros((4, 3)), np.zeros((3, 2)), np.zeros((2, 4)))
    with pytest.raises(TypeError, match=r"argument 0 .*numpy array, got list"):
        prog.add([[1.0]], f32)
    with pytest.raises(TypeError, match=r"argument 0 .*float, got str"):
        prog.scale("x", 1)
    with pytest.raises(TypeError, match=r"argument 1 .*int, got float"):
        prog.scale(1.0, 1.5)
    with pytest.raises(ValueError, match=r"argument 1 .*does not fit in i32"):
        prog.scale(1.0, 1 << 40)
    ro = np.zeros((3, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        prog.matmul(f32, f32, ro)
    with pytest.raises(AttributeError, match=r"no public function 'nope'.*'add'"):
        _ = prog.nope
    with pytest.raises(AttributeError, match="helper"):
        _ = prog.helper  # private
    with pytest.raises(ValueError, match=r"<mlkit.compile>:1:\d+: error"):
        mlkit.compile("func.func @f( {")
    with pytest.raises(ValueError, match="error"):
        mlkit.compile("func.func @f(%a: i32) -> f32 { return %a : i32 }")
    with pytest.raises(ValueError):
        mlkit.compile(MATMUL_TENSOR, pipeline="builtin.module(no-such-pass)")
    with pytest.raises(ValueError, match="opt_level"):
        mlkit.compile(MATMUL_TENSOR, opt_level=7)
    with pytest.raises(TypeError):
        mlkit.compile(42)


def test_memory_cache_skips_passes(cache_dir) -> None:
    src = MATMUL_TENSOR.replace("@matmul", "@mm_cache")
    before = dataclasses.replace(STATS)
    p1 = mlkit.compile(src)
    assert STATS.pipeline_runs == before.pipeline_runs + 1
    p2 = mlkit.compile(src)
    assert p2 is p1
    assert STATS.pipeline_runs == before.pipeline_runs + 1
    # different options or pipeline: a different entry
    mlkit.compile(src, opt_level=1)
    assert STATS.pipeline_runs == before.pipeline_runs + 2


def test_disk_cache_skips_passes(cache_dir) -> None:
    src = MATMUL_TENSOR.replace("@matmul", "@mm_disk")
    mlkit.compile(src)
    assert list(cache_dir.glob("*.json"))
    COMPILER.cache.memory.clear()
    runs = STATS.pipeline_runs
    hits = STATS.disk_hits
    p = mlkit.compile(src)
    assert STATS.pipeline_runs == runs
    assert STATS.disk_hits == hits + 1
    a = rng.random((8, 6), np.float32)
    b = rng.random((6, 5), np.float32)
    np.testing.assert_allclose(p.mm_disk(a, b, np.zeros((8, 5), np.float32)), a @ b, rtol=1e-5)


def test_disk_cache_in_a_second_process(cache_dir) -> None:
    src = MATMUL_TENSOR.replace("@matmul", "@mm_proc")
    compile_api.Compiler().compile(src)  # fingerprinted now, as the second process will be
    code = (
        "import sys, numpy as np, mlkit\n"
        "from mlkit.api.compile import default_compiler\n"
        "p = mlkit.compile(sys.stdin.read())\n"
        "a = np.ones((8, 6), np.float32); b = np.ones((6, 5), np.float32)\n"
        "r = p.mm_proc(a, b, np.zeros((8, 5), np.float32))\n"
        "stats = default_compiler().stats\n"
        "print(stats.pipeline_runs, stats.disk_hits, r[0, 0])\n"
    )
    env = dict(os.environ, MLKIT_CACHE_DIR=str(cache_dir))
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=src,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.split() == ["0", "1", "6.0"]


def test_damaged_disk_entry_recompiles(cache_dir) -> None:
    src = MATMUL_TENSOR.replace("@matmul", "@mm_bad")
    key = COMPILER.cache.key(
        src,
        f"cpu:{COMPILER.backend('cpu').pipeline}",
        importlib.import_module("mlkit.execution.jit").JitOptions(opt_level=3),
    )
    (cache_dir / f"{key}.json").write_text('{"format": 2, "llvm_ir": "garbage", "signatures": []}')
    p = mlkit.compile(src)
    assert p.functions == ["mm_bad"]


def test_compilers_keep_their_own_cache_and_counters(cache_dir) -> None:
    src = MATMUL_TENSOR.replace("@matmul", "@mm_own")
    mine = mlkit.compile(src)
    # the same sources (even if someone edits them meanwhile), so the same disk entries
    other = compile_api.Compiler(CompileCache(fingerprint=COMPILER.cache.fingerprint()))
    p = other.compile(src)  # from the shared disk cache, not from mlkit.compile's memory
    assert p is not mine
    assert other.stats == compile_api.CompileStats(jit_compiles=1, disk_hits=1)
    assert other.compile(src) is p and other.stats.memory_hits == 1
    with pytest.raises(ValueError, match=r"target must be 'cpu' or 'cuda', got 'tpu'"):
        other.compile(src, target="tpu")


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_results_own_their_memory_no_leak(prog) -> None:
    a = rng.random((128, 128), np.float32)  # 64 KiB per result
    for _ in range(50):
        prog.add(a, a)
        prog.addsub(a, a)
    before = _rss()
    for _ in range(1000):  # 3 results of 64 KiB each: ~190 MiB if leaked
        r = prog.add(a, a)
        s, d, _k = prog.addsub(a, a)
        assert owns(r) and owns(s) and owns(d)
    assert _rss() - before < 32 * 1024 * 1024
    np.testing.assert_array_equal(r, a + a)


ALIASES = """
memref.global "private" constant @g : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
func.func @ident(%a: memref<?xf32>) -> memref<?xf32> {
  return %a : memref<?xf32>
}
func.func @glob() -> memref<3xf32> {
  %g = memref.get_global @g : memref<3xf32>
  return %g : memref<3xf32>
}
func.func @tid(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @twice(%a: memref<?xf32>) -> (memref<?xf32>, memref<?xf32>) {
  return %a, %a : memref<?xf32>, memref<?xf32>
}
func.func @vec(%a: vector<4xf32>) -> vector<4xf32> {
  return %a : vector<4xf32>
}
"""


def test_results_aliasing_arguments_or_globals_are_copied_not_freed() -> None:
    p = mlkit.compile(ALIASES)
    x = np.arange(5, dtype=np.float32)
    for _ in range(50):  # a wrong free() would crash or corrupt the heap here
        r = p.ident(x)
        assert owns(r) and not np.shares_memory(r, x)
        np.testing.assert_array_equal(r, x)
        np.testing.assert_array_equal(p.glob(), [1, 2, 3])
        np.testing.assert_array_equal(p.tid(x[:4]), x[:4])
        a, b = p.twice(x)
        np.testing.assert_array_equal(a, x)
        np.testing.assert_array_equal(b, x)
        np.testing.assert_array_equal(p.ident(x[::2]), x[::2])
    with pytest.raises(
        AttributeError, match=r"'vec' cannot be called: its parameter 0 \('vector<4xf32>'\)"
    ):
        _ = p.vec


TIED = """
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @add_row(%m: memref<?x?xf32>, %v: memref<?xf32>) {
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<?xf32>) outs(%m : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
"""


def test_mismatched_dynamic_sizes_are_a_value_error_naming_both(cache_dir) -> None:
    """Sizes the body needs equal are checked before the call: without the
    check the loops would run past the end of the smaller array."""
    prog = mlkit.compile(TIED)
    a, b = np.ones((4, 3), np.float32), np.ones((3, 5), np.float32)
    np.testing.assert_array_equal(prog.mm(a, b, np.zeros((4, 5), np.float32)), a @ b)
    with pytest.raises(ValueError, match=r"argument 1 \('tensor<\?x\?xf32>'\) has size 2 in "
                       r"dimension 0, but argument 0 .* has size 3 in dimension 1; "
                       r"'linalg.matmul' at line 3 needs them equal"):  # fmt: skip
        prog.mm(a, np.ones((2, 5), np.float32), np.zeros((4, 5), np.float32))
    with pytest.raises(ValueError, match="argument 2 .* has size 6 in dimension 1"):
        prog.mm(a, b, np.zeros((4, 6), np.float32))
    # a broadcast ties the vector to the matrix's columns only
    m = np.zeros((7, 3), np.float32)
    prog.add_row(m, np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(m, np.tile(np.arange(3, dtype=np.float32), (7, 1)))
    with pytest.raises(ValueError, match=r"argument 1 .* has size 7 in dimension 0, but "
                       r"argument 0 .* has size 3 in dimension 1"):  # fmt: skip
        prog.add_row(m, np.zeros(7, np.float32))
    # the ties come back from the disk cache too
    COMPILER.cache.memory.clear()
    hits = STATS.disk_hits
    again = mlkit.compile(TIED)
    assert STATS.disk_hits == hits + 1
    assert again.signatures["mm"].ties == prog.signatures["mm"].ties


# -- reading what was compiled; calling by parameter name ------------------------

SUB = """
func.func @sub(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.subf %x, %y : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @functions(%x: f32) -> f32 {
  return %x : f32
}
"""


def test_program_shows_its_lowered_mlir_and_the_ir_after_a_pass() -> None:
    import mlkit

    prog = mlkit.compile(SUB)
    assert "llvm.func @sub" in prog.mlir and "linalg" not in prog.mlir
    assert "scf.for" in prog.mlir_after("convert-linalg-to-loops")
    assert "linalg.generic" in prog.mlir_after("convert-elementwise-to-linalg")
    with pytest.raises(KeyError, match="ran no pass 'no-such-pass'"):
        prog.mlir_after("no-such-pass")
    assert "define" in prog.llvm_ir


def test_arguments_by_parameter_name() -> None:
    import numpy as np

    import mlkit

    prog = mlkit.compile(SUB)
    a, b = np.arange(4, dtype=np.float32), np.ones(4, dtype=np.float32)
    for out in (prog.sub(a, y=b), prog.sub(y=b, x=a), prog.sub(x=a, y=b)):
        np.testing.assert_array_equal(out, a - b)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        prog.sub(a, z=b)
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        prog.sub(a, x=b)
    with pytest.raises(TypeError, match="missing argument"):
        prog.sub(y=b)
    # a function named like one of the program's attributes, through prog["..."]
    assert prog["functions"](2.5) == 2.5
