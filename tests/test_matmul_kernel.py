"""``linalg-matmul-to-microkernel`` inside the CPU pipeline: matmuls compute
what numpy computes and what the plain (scalar) lowering computes, on tiny,
odd, rectangular, empty and dynamic sizes, in f32 and f64, for
``batch_matmul`` and transposed operands, at every vector width (512, 256 and
128 bits all run here: LLVM splits vectors wider than the host's registers),
with small cache blocks that make every edge path run; the fill before and
the bias + relu after a matmul are absorbed; and the pass leaves alone what
it should.

The pipeline is the plain ``lower-to-cpu`` (no micro-kernels, no vectorizer)
with the pass right after
``buffer-deallocation-pipeline``.
"""

from __future__ import annotations

import numpy as np
import pytest

import mlkit
from cpu_pipelines import PLAIN, lowered, own_compile_cache, with_pass  # noqa: F401

PASS = "linalg-matmul-to-microkernel"


def with_kernel(options: str = "") -> str:
    return with_pass(f"{PASS}{{{options}}}" if options else PASS)


def up_to_kernel(options: str = "") -> str:
    """:func:`with_kernel` cut off after the pass."""
    pipeline = with_kernel(options)
    return pipeline[: pipeline.index(PASS)] + PASS + (f"{{{options}}}" if options else "") + ")"


# small blocks: several KC slices, MC and NC blocks and edge slivers at small sizes
SMALL_BLOCKS = "kc=16 mc=16 nc=64"
rng = np.random.default_rng(11)


def memref(shape: tuple[int, ...], t: str, dynamic: bool) -> str:
    return "memref<" + "x".join("?" if dynamic else str(s) for s in shape) + f"x{t}>"


def matmul_text(
    m: int, n: int, k: int, t: str = "f32", dynamic: bool = False,
    transpose_a: bool = False, transpose_b: bool = False,
) -> str:  # fmt: skip
    a = memref((k, m) if transpose_a else (m, k), t, dynamic)
    b = memref((n, k) if transpose_b else (k, n), t, dynamic)
    c = memref((m, n), t, dynamic)
    maps = ""
    if transpose_a or transpose_b:
        am = "(d2, d0)" if transpose_a else "(d0, d2)"
        bm = "(d1, d2)" if transpose_b else "(d2, d1)"
        maps = (
            f"indexing_maps = [affine_map<(d0, d1, d2) -> {am}>, "
            f"affine_map<(d0, d1, d2) -> {bm}>, affine_map<(d0, d1, d2) -> (d0, d1)>] "
        )
    return f"""
func.func @mm(%a: {a}, %b: {b}, %c: {c}) {{
  linalg.matmul {maps}ins(%a, %b : {a}, {b}) outs(%c : {c})
  return
}}
"""


def run_matmul(
    text: str, pipeline: str, a: np.ndarray, b: np.ndarray, c: np.ndarray
) -> np.ndarray:
    out = c.copy()
    mlkit.compile(text, pipeline=pipeline).mm(a, b, out)
    return out


def operands(m: int, n: int, k: int, dtype: type, ta: bool = False, tb: bool = False):
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
    c = rng.standard_normal((m, n)).astype(dtype)
    expected = c + (a.T if ta else a) @ (b.T if tb else b)
    return a, b, c, expected


def tolerance(k: int, dtype: type) -> dict[str, float]:
    eps = 1e-6 if dtype == np.float32 else 1e-14
    return {"rtol": 1e3 * eps, "atol": 10 * eps * max(k, 1)}


SIZES = [(1, 1, 1), (7, 7, 7), (33, 33, 33), (100, 100, 100), (5, 70, 300), (130, 3, 17)]


@pytest.mark.parametrize("m,n,k", SIZES)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_matmul_f32_against_numpy(m: int, n: int, k: int, dynamic: bool) -> None:
    a, b, c, expected = operands(m, n, k, np.float32)
    got = run_matmul(matmul_text(m, n, k, dynamic=dynamic), with_kernel(), a, b, c)
    np.testing.assert_allclose(got, expected, **tolerance(k, np.float32))


@pytest.mark.parametrize("m,n,k", [(7, 7, 7), (33, 65, 17)])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_matmul_f64(m: int, n: int, k: int, dynamic: bool) -> None:
    a, b, c, expected = operands(m, n, k, np.float64)
    got = run_matmul(matmul_text(m, n, k, "f64", dynamic), with_kernel(), a, b, c)
    np.testing.assert_allclose(got, expected, **tolerance(k, np.float64))


def test_matmul_1000_against_numpy() -> None:
    a, b, c, expected = operands(1000, 1000, 1000, np.float32)
    got = run_matmul(matmul_text(1000, 1000, 1000), with_kernel(), a, b, c)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("options", ["vector-bits=256", "vector-bits=128", SMALL_BLOCKS,
                                     f"vector-bits=256 {SMALL_BLOCKS}", "mr=3 nr=48"])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (33, 47, 70), (64, 64, 64)])
def test_vector_widths_and_blocks(options: str, m: int, n: int, k: int) -> None:
    for t, dtype in (("f32", np.float32), ("f64", np.float64)):
        a, b, c, expected = operands(m, n, k, dtype)
        got = run_matmul(matmul_text(m, n, k, t, dynamic=True), with_kernel(options), a, b, c)
        np.testing.assert_allclose(got, expected, **tolerance(k, dtype))


@pytest.mark.parametrize("ta,tb", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("options", ["", SMALL_BLOCKS])
def test_transposed_operands(ta: bool, tb: bool, options: str) -> None:
    m, n, k = 37, 41, 45
    a, b, c, expected = operands(m, n, k, np.float32, ta, tb)
    text = matmul_text(m, n, k, transpose_a=ta, transpose_b=tb)
    got = run_matmul(text, with_kernel(options), a, b, c)
    np.testing.assert_allclose(got, expected, **tolerance(k, np.float32))


def test_same_as_plain_lowering() -> None:
    a, b, c, _ = operands(45, 77, 130, np.float32)
    text = matmul_text(45, 77, 130, dynamic=True)
    np.testing.assert_allclose(
        run_matmul(text, with_kernel(SMALL_BLOCKS), a, b, c),
        run_matmul(text, PLAIN, a, b, c),
        rtol=1e-5, atol=1e-4,
    )  # fmt: skip


def test_empty_sizes() -> None:
    text = matmul_text(0, 0, 0, dynamic=True)
    for m, n, k in ((0, 5, 3), (4, 0, 3), (4, 5, 0)):
        a, b, c, expected = operands(m, n, k, np.float32)
        np.testing.assert_array_equal(run_matmul(text, with_kernel(), a, b, c), expected)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_batch_matmul(dynamic: bool) -> None:
    batch, m, n, k = 3, 19, 35, 21
    a_t, b_t, c_t = (memref(s, "f32", dynamic) for s in ((batch, m, k), (batch, k, n), (batch, m, n)))
    text = f"""
func.func @mm(%a: {a_t}, %b: {b_t}, %c: {c_t}) {{
  linalg.batch_matmul ins(%a, %b : {a_t}, {b_t}) outs(%c : {c_t})
  return
}}
"""
    a = rng.standard_normal((batch, m, k)).astype(np.float32)
    b = rng.standard_normal((batch, k, n)).astype(np.float32)
    c = rng.standard_normal((batch, m, n)).astype(np.float32)
    assert "vector.fma" in lowered(text, f"builtin.module({PASS})")
    for options in ("", SMALL_BLOCKS):
        got = run_matmul(text, with_kernel(options), a, b, c)
        np.testing.assert_allclose(got, c + a @ b, **tolerance(k, np.float32))


def dense_text(m: int, n: int, k: int, also_return_c: bool = False) -> str:
    x, w, y, v = (f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>",
                  f"tensor<{m}x{n}xf32>", f"tensor<{n}xf32>")  # fmt: skip
    results = f"%r, %y : {y}, {y}" if also_return_c else f"%r : {y}"
    types = f"({y}, {y})" if also_return_c else y
    return f"""
func.func @dense(%x: {x}, %w: {w}, %bias: {v}) -> {types} {{
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : {y}
  %c = linalg.fill ins(%half : f32) outs(%e : {y}) -> {y}
  %y = linalg.matmul ins(%x, %w : {x}, {w}) outs(%c : {y}) -> {y}
{bias_relu(y, v, 2)}
  return {results}
}}
"""


def bias_relu(y: str, v: str, rank: int) -> str:
    """``%r = max(%y + %bias, %zero)``, the bias along the last of ``rank`` dimensions."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    row = f"affine_map<({dims}) -> (d{rank - 1})>"
    kinds = ", ".join(['"parallel"'] * rank)
    return f"""  %o = tensor.empty() : {y}
  %r = linalg.generic {{indexing_maps = [{ident}, {row}, {ident}], iterator_types = [{kinds}]}}
      ins(%y, %bias : {y}, {v}) outs(%o : {y}) {{
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }} -> {y}"""


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (33, 47, 70), (64, 96, 300)])
@pytest.mark.parametrize("options", ["", SMALL_BLOCKS])
def test_dense_layer_fused(m: int, n: int, k: int, options: str) -> None:
    text = dense_text(m, n, k)
    after = lowered(text, up_to_kernel(options))
    assert "linalg." not in after  # the fill and the bias + relu are in the tiles
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    got = mlkit.compile(text, pipeline=with_kernel(options)).dense(x, w, bias)
    np.testing.assert_allclose(got, np.maximum(x @ w + 0.5 + bias, 0), **tolerance(k, np.float32))


def test_dense_layer_with_live_c_is_not_fused() -> None:
    m, n, k = 20, 40, 30
    text = dense_text(m, n, k, also_return_c=True)
    after = lowered(text, up_to_kernel())
    assert "vector.fma" in after
    assert after.count("linalg.generic") == 1  # the bias + relu stays; the fill is absorbed
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    r, y = mlkit.compile(text, pipeline=with_kernel()).dense(x, w, bias)
    np.testing.assert_allclose(y, x @ w + 0.5, **tolerance(k, np.float32))
    np.testing.assert_allclose(r, np.maximum(x @ w + 0.5 + bias, 0), **tolerance(k, np.float32))


def test_leaves_integers_and_other_generics_alone() -> None:
    t = "memref<8x8xi32>"
    ints = f"""
func.func @mm(%a: {t}, %b: {t}, %c: {t}) {{
  linalg.matmul ins(%a, %b : {t}, {t}) outs(%c : {t})
  return
}}
"""
    assert "linalg.matmul" in lowered(ints, f"builtin.module({PASS})")
    a = rng.integers(-5, 5, (8, 8)).astype(np.int32)
    c = np.zeros((8, 8), np.int32)
    np.testing.assert_array_equal(run_matmul(ints, with_kernel(), a, a, c), a @ a)


def test_batch_matmul_with_bias_relu_fused() -> None:
    batch, m, n, k = 3, 21, 40, 19
    a_t, b_t, y = (f"tensor<{batch}x{m}x{k}xf32>", f"tensor<{batch}x{k}x{n}xf32>",
                   f"tensor<{batch}x{m}x{n}xf32>")  # fmt: skip
    text = f"""
func.func @dense(%x: {a_t}, %w: {b_t}, %bias: tensor<{n}xf32>) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %c = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %y = linalg.batch_matmul ins(%x, %w : {a_t}, {b_t}) outs(%c : {y}) -> {y}
{bias_relu(y, f"tensor<{n}xf32>", 3)}
  return %r : {y}
}}
"""
    assert "linalg." not in lowered(text, up_to_kernel(SMALL_BLOCKS))
    x = rng.standard_normal((batch, m, k)).astype(np.float32)
    w = rng.standard_normal((batch, k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    for options in ("", SMALL_BLOCKS):
        got = mlkit.compile(text, pipeline=with_kernel(options)).dense(x, w, bias)
        np.testing.assert_allclose(got, np.maximum(x @ w + bias, 0), **tolerance(k, np.float32))
