"""``linalg-vectorize-loops`` inside the CPU pipeline: the programs compute
what numpy computes and what the plain (scalar) lowering computes, on odd,
tiny, empty and dynamic sizes, at every vector width (512, 256, 128 bits: the
AVX-512, AVX2 and SSE/NEON paths all run here, LLVM splitting wider vectors
where the host has narrower registers), and the pass fires where it should
and leaves alone what it should.

The vectorized pipeline is the plain ``lower-to-cpu`` (no micro-kernels, no
vectorizer) with the pass right after
``buffer-deallocation-pipeline``.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import mlkit
from cpu_pipelines import PLAIN, lowered, own_compile_cache, with_pass  # noqa: F401



def vectorized(options: str = "") -> str:
    return with_pass(f"linalg-vectorize-loops{{{options}}}" if options else "linalg-vectorize-loops")


WIDTHS = [
    "", "vector-bits=256", "vector-bits=128 unroll=1", "vector-bits=512 unroll=4",
    "vector-bits=512 unroll=2 interleave=false",
]
SIZES = [0, 1, 7, 33, 1000]
rng = np.random.default_rng(7)


def vectorizes(text: str) -> bool:
    return "vector.load" in lowered(text, "builtin.module(linalg-vectorize-loops)")


ID1 = "affine_map<(d0) -> (d0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d0)>"
COL = "affine_map<(d0, d1) -> (d1)>"

CHAIN = f"""
func.func @chain(%x: memref<?xf32>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [{ID1}, {ID1}], iterator_types = ["parallel"]}}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %c15 = arith.constant 1.5 : f32
    %c025 = arith.constant 0.25 : f32
    %z = arith.constant 0.0 : f32
    %c3 = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c15 : f32
    %s = arith.addf %m, %c025 : f32
    %r = arith.maximumf %s, %z : f32
    %t = arith.mulf %r, %c3 : f32
    linalg.yield %t : f32
  }}
  return
}}
"""

BIAS = f"""
func.func @bias(%x: memref<?x?xf32>, %b: memref<?xf32>, %s: f32, %y: memref<?x?xf32>) {{
  linalg.generic {{indexing_maps = [{ID2}, {COL}, affine_map<(d0, d1) -> ()>, {ID2}],
                  iterator_types = ["parallel", "parallel"]}}
      ins(%x, %b, %s : memref<?x?xf32>, memref<?xf32>, f32) outs(%y : memref<?x?xf32>) {{
  ^bb0(%a: f32, %c: f32, %k: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    %t = arith.addf %m, %c : f32
    %n = arith.cmpf olt, %t, %o : f32
    %r = arith.select %n, %t, %o : f32
    linalg.yield %r : f32
  }}
  return
}}
func.func @rowscale(%x: memref<?x?xf64>, %r: memref<?xf64>, %y: memref<?x?xf64>) {{
  linalg.generic {{indexing_maps = [{ID2}, {ROW}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %r : memref<?x?xf64>, memref<?xf64>) outs(%y : memref<?x?xf64>) {{
  ^bb0(%a: f64, %c: f64, %o: f64):
    %one = arith.constant 1.0 : f64
    %d = arith.addf %c, %one : f64
    %t = arith.divf %a, %d : f64
    %e = math.exp %t : f64
    linalg.yield %e : f64
  }}
  return
}}
"""

REDUCTIONS = f"""
func.func @rowsum(%x: memref<?x?xf32>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [{ID2}, {ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }}
  return
}}
func.func @colsum(%x: memref<?x?xf32>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [{ID2}, {COL}], iterator_types = ["reduction", "parallel"]}}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }}
  return
}}
func.func @maxcount(%x: memref<?x?xf32>, %m: memref<?xf32>, %n: memref<?xi32>) {{
  linalg.generic {{indexing_maps = [{ID2}, {ROW}, {ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%x : memref<?x?xf32>) outs(%m, %n : memref<?xf32>, memref<?xi32>) {{
  ^bb0(%a: f32, %o: f32, %c: i32):
    %mx = arith.maximumf %o, %a : f32
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %a, %z : f32
    %i = arith.extui %pos : i1 to i32
    %t = arith.addi %i, %c : i32
    linalg.yield %mx, %t : f32, i32
  }}
  return
}}
func.func @total(%x: memref<?xi64>, %s: memref<i64>) {{
  linalg.reduce ins(%x : memref<?xi64>) outs(%s : memref<i64>) dimensions = [0]
    (%a: i64, %acc: i64) {{
      %t = arith.muli %a, %acc : i64
      linalg.yield %t : i64
    }}
  return
}}
func.func @dot(%a: memref<?x?xf64>, %v: memref<?xf64>, %y: memref<?xf64>) {{
  linalg.generic {{indexing_maps = [{ID2}, {COL}, {ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%a, %v : memref<?x?xf64>, memref<?xf64>) outs(%y : memref<?xf64>) {{
  ^bb0(%p: f64, %q: f64, %o: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  }}
  return
}}
"""

INTEGERS = f"""
func.func @ints(%x: memref<?xi32>, %y: memref<?xi32>, %z: memref<?xi32>) {{
  linalg.generic {{indexing_maps = [{ID1}, {ID1}, {ID1}], iterator_types = ["parallel"]}}
      ins(%x, %y : memref<?xi32>, memref<?xi32>) outs(%z : memref<?xi32>) {{
  ^bb0(%a: i32, %b: i32, %o: i32):
    %c3 = arith.constant 3 : i32
    %m = arith.muli %a, %c3 : i32
    %s = arith.subi %m, %b : i32
    %x1 = arith.xori %s, %a : i32
    %r = arith.maxsi %x1, %b : i32
    linalg.yield %r : i32
  }}
  return
}}
func.func @iota(%y: memref<?x?xf32>) {{
  linalg.generic {{indexing_maps = [{ID2}], iterator_types = ["parallel", "parallel"]}}
      outs(%y : memref<?x?xf32>) {{
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.constant 1000 : index
    %ik = arith.muli %i, %k : index
    %v = arith.addi %ik, %j : index
    %w = arith.index_cast %v : index to i64
    %f = arith.sitofp %w : i64 to f32
    linalg.yield %f : f32
  }}
  return
}}
func.func @widen(%x: memref<?xf16>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [{ID1}, {ID1}], iterator_types = ["parallel"]}}
      ins(%x : memref<?xf16>) outs(%y : memref<?xf32>) {{
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %e, %o : f32
    linalg.yield %s : f32
  }}
  return
}}
"""

STRIDED = f"""
func.func @rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %y, %c0 : memref<?x?xf32>
  %n = memref.dim %y, %c1 : memref<?x?xf32>
  %v = memref.subview %x[1, 3] [%m, %n] [1, 1]
      : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%v : memref<?x?xf32, strided<[?, 1], offset: ?>>) outs(%y : memref<?x?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  }}
  return
}}
func.func @strided(%x: memref<?xf32, strided<[?], offset: ?>>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [{ID1}, {ID1}], iterator_types = ["parallel"]}}
      ins(%x : memref<?xf32, strided<[?], offset: ?>>) outs(%y : memref<?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  }}
  return
}}
func.func @transposed(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {{
  linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, {ID2}],
                  iterator_types = ["parallel", "parallel"]}}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  }}
  return
}}
"""

TENSORS = """
func.func @named(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %s = linalg.add ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m = linalg.map { math.absf } ins(%s : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty(%d0) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%m : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  return %m, %r : tensor<?x?xf32>, tensor<?xf32>
}
"""


def both(text: str, options: str = "") -> tuple[mlkit.CompiledProgram, mlkit.CompiledProgram]:
    return mlkit.compile(text, pipeline=vectorized(options)), mlkit.compile(text, pipeline=PLAIN)


@pytest.mark.parametrize("options", WIDTHS)
def test_elementwise_chain(options: str) -> None:
    fast, plain = both(CHAIN, options)
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        y, y0 = np.zeros_like(x), np.zeros_like(x)
        fast.chain(x, y)
        plain.chain(x, y0)
        expected = np.maximum(x * np.float32(1.5) + np.float32(0.25), np.float32(0)) * np.float32(3)
        np.testing.assert_array_equal(y, expected)
        np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize("options", WIDTHS)
def test_broadcast_operands(options: str) -> None:
    fast, plain = both(BIAS, options)
    for m, n in [(1, 1), (3, 7), (5, 33), (2, 1000), (4, 0)]:
        x = rng.standard_normal((m, n)).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal((m, n)).astype(np.float32)
        y0 = y.copy()
        t = x * np.float32(0.5) + b
        expected = np.where(t < y, t, y)
        fast.bias(x, b, np.float32(0.5), y)
        plain.bias(x, b, np.float32(0.5), y0)
        np.testing.assert_array_equal(y, expected)
        np.testing.assert_array_equal(y, y0)
        a = rng.standard_normal((m, n))
        r = rng.random(m)
        z, z0 = np.zeros_like(a), np.zeros_like(a)
        fast.rowscale(a, r, z)
        plain.rowscale(a, r, z0)
        np.testing.assert_allclose(z, np.exp(a / (r[:, None] + 1)), rtol=1e-14)
        np.testing.assert_allclose(z, z0, rtol=1e-14)


@pytest.mark.parametrize("options", WIDTHS)
def test_reductions(options: str) -> None:
    fast, plain = both(REDUCTIONS, options)
    for m, n in [(1, 1), (3, 7), (2, 33), (3, 1000), (2, 0)]:
        x = rng.standard_normal((m, n)).astype(np.float32)
        init = rng.standard_normal(m).astype(np.float32)
        y, y0 = init.copy(), init.copy()
        fast.rowsum(x, y)
        plain.rowsum(x, y0)
        bound = 1e-6 * (np.abs(x).sum(axis=1) + 1)  # float32 sums in another order
        assert np.all(np.abs(y - (init + x.sum(axis=1, dtype=np.float64))) <= bound)
        assert np.all(np.abs(y - y0) <= bound)
        cinit = rng.standard_normal(n).astype(np.float32)
        c, c0 = cinit.copy(), cinit.copy()
        fast.colsum(x, c)
        plain.colsum(x, c0)
        np.testing.assert_array_equal(c, c0)  # an outer reduction keeps its order
        mx, cnt = init.copy(), np.arange(m, dtype=np.int32)
        fast.maxcount(x, mx, cnt)
        np.testing.assert_array_equal(mx, np.maximum(init, x.max(axis=1, initial=-np.inf)))
        np.testing.assert_array_equal(cnt, np.arange(m) + (x > 0).sum(axis=1))
        a, v = rng.standard_normal((m, n)), rng.standard_normal(n)
        d = np.ones(m)
        fast.dot(a, v, d)
        np.testing.assert_allclose(d, 1 + a @ v, rtol=1e-12, atol=1e-12)
    for n in SIZES:
        x = rng.choice(np.array([-1, 1, 2, 3], np.int64), n)
        total = np.array(5, np.int64)
        fast.total(x, total)
        assert total == 5 * np.prod(x)


@pytest.mark.parametrize("options", WIDTHS)
def test_integers_index_and_mixed_widths(options: str) -> None:
    fast, plain = both(INTEGERS, options)
    for n in SIZES:
        x = rng.integers(-1000, 1000, n, dtype=np.int32)
        y = rng.integers(-1000, 1000, n, dtype=np.int32)
        z, z0 = np.zeros_like(x), np.zeros_like(x)
        fast.ints(x, y, z)
        plain.ints(x, y, z0)
        np.testing.assert_array_equal(z, np.maximum((x * 3 - y) ^ x, y))
        np.testing.assert_array_equal(z, z0)
        h = rng.standard_normal(n).astype(np.float16)
        w = rng.standard_normal(n).astype(np.float32)
        w0 = w.copy()
        fast.widen(h, w)
        np.testing.assert_array_equal(w, w0 + h.astype(np.float32))
    for m, n in [(1, 1), (3, 7), (2, 33)]:
        g = np.zeros((m, n), np.float32)
        fast.iota(g)
        np.testing.assert_array_equal(g, np.add.outer(1000 * np.arange(m), np.arange(n)))


def test_strided_rows_vectorize_and_transposes_do_not() -> None:
    fast, plain = both(STRIDED)
    base = rng.standard_normal((5, 40)).astype(np.float32)
    x = base[1:, 3:]  # a subview: unit stride, row stride 40
    y, y0 = np.zeros(x.shape, np.float32), np.zeros(x.shape, np.float32)
    fast.rows(base, y)
    plain.rows(base, y0)
    np.testing.assert_array_equal(y, x * x)
    np.testing.assert_array_equal(y, y0)
    every_other = base[0, ::2]  # a dynamic stride: left scalar
    z = np.zeros(every_other.shape, np.float32)
    fast.strided(every_other, z)
    np.testing.assert_array_equal(z, every_other * every_other)
    t = rng.standard_normal((37, 6)).astype(np.float32)
    out = np.zeros((6, 37), np.float32)
    fast.transposed(t, out)
    np.testing.assert_array_equal(out, t.T * t.T)
    ir = lowered(STRIDED, "builtin.module(linalg-vectorize-loops)")
    rows, rest = ir.split("func.func @strided")
    assert "vector.load" in rows and "vector.store" in rows
    assert rest.count("linalg.generic") == 2 and "vector." not in rest


def test_named_ops_through_bufferization() -> None:
    fast, plain = both(TENSORS)
    for m, n in [(1, 1), (3, 7), (4, 33), (2, 1000)]:
        a = rng.standard_normal((m, n)).astype(np.float32)
        b = rng.standard_normal((m, n)).astype(np.float32)
        m1, r1 = fast.named(a, b)
        m0, r0 = plain.named(a, b)
        np.testing.assert_array_equal(m1, np.abs(a + b))
        np.testing.assert_array_equal(m1, m0)
        np.testing.assert_allclose(r1, np.abs(a + b).sum(axis=1), rtol=1e-5)
    up_to_the_pass = vectorized().split(",convert-linalg-to-loops")[0] + ")"
    ir = lowered(TENSORS, up_to_the_pass)
    assert ir.count("vector.store") >= 2 and "vector.reduction <add>" in ir


def test_what_is_vectorized() -> None:
    for text in (CHAIN, BIAS, REDUCTIONS, INTEGERS):
        assert vectorizes(text)
    ir = lowered(REDUCTIONS, "builtin.module(linalg-vectorize-loops{vectorize-fp-reductions=false})")
    rowsum, rest = ir.split("func.func @colsum")
    assert "linalg.generic" in rowsum  # a float inner reduction stays scalar
    assert "vector.load" in rest.split("func.func @maxcount")[0]  # an outer one is elementwise


def test_vector_width_follows_the_option_and_the_target() -> None:
    ir = lowered(CHAIN, "builtin.module(linalg-vectorize-loops{vector-bits=128 unroll=1})")
    assert "vector<4xf32>" in ir and "step %c4" in ir
    ir = lowered(BIAS, "builtin.module(linalg-vectorize-loops{vector-bits=256})")
    assert "vector<8xf32>" in ir and "vector<4xf64>" in ir
    from mlkit.target.machine import TargetOptions
    from mlkit.target.vector_width import host_vector_bits, target_vector_bits

    assert target_vector_bits(TargetOptions()) == host_vector_bits() in (128, 256, 512)
    assert target_vector_bits(TargetOptions("aarch64-linux-gnu", "cortex-a72")) == 128
    assert target_vector_bits(TargetOptions("x86_64-unknown-linux-gnu", "haswell")) == 256
    assert target_vector_bits(TargetOptions("x86_64-unknown-linux-gnu", "skylake-avx512")) == 512
    assert target_vector_bits(TargetOptions("x86_64-unknown-linux-gnu")) == 128


def test_aarch64_assembly(tmp_path) -> None:
    """The NEON path compiles: the default width follows --mtriple/--mcpu."""
    source = tmp_path / "chain.mlir"
    source.write_text(CHAIN + REDUCTIONS)
    pipeline = vectorized()
    result = subprocess.run(
        [sys.executable, "-m", "mlkit.tools.opt", str(source), "-p", pipeline, "--emit=asm",
         "--mtriple=aarch64-linux-gnu", "--mcpu=cortex-a72", "--opt-level=O2"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "fmul\tv" in result.stdout and ".4s" in result.stdout  # NEON on 4 x f32
    assert "faddp" in result.stdout or "fadd\tv" in result.stdout
