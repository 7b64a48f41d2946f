"""``linalg.matvec``, ``linalg.vecmat`` and their generics through
``linalg-matmul-to-microkernel``: the vector loops compute what numpy and the
plain (scalar) lowering compute for sizes 1, 7, 33, 1000 and odd rectangles,
static and dynamic, f32 and f64, at 512-, 256- and 128-bit vectors, for both
matrix layouts (contiguous along ``k``: dot products; along ``y``'s index, as
``vecmat`` and a matvec of a transposed matrix: rows streamed into ``y``);
what the loops cannot read by whole vectors is left alone.
"""

from __future__ import annotations

import numpy as np
import pytest

import mlkit
from cpu_pipelines import PLAIN, lowered, own_compile_cache, with_pass  # noqa: F401
from test_matmul_kernel import tolerance

PASS = "linalg-matmul-to-microkernel"
rng = np.random.default_rng(3)


def with_kernel(options: str = "") -> str:
    return with_pass(f"{PASS}{{{options}}}" if options else PASS)


def shape_text(shape: tuple[int, ...], t: str, dynamic: bool) -> str:
    return "memref<" + "x".join("?" if dynamic else str(s) for s in shape) + f"x{t}>"


def named_text(op: str, rows: int, cols: int, t: str, dynamic: bool) -> str:
    """``matvec``: y[rows] += a[rows][cols] x[cols]; ``vecmat``: y[cols] += x[rows] a[rows][cols]."""
    a = shape_text((rows, cols), t, dynamic)
    if op == "matvec":
        x, y, ins = shape_text((cols,), t, dynamic), shape_text((rows,), t, dynamic), "%a, %x"
        types = f"{a}, {x}"
    else:
        x, y, ins = shape_text((rows,), t, dynamic), shape_text((cols,), t, dynamic), "%x, %a"
        types = f"{x}, {a}"
    return f"""
func.func @mv(%a: {a}, %x: {x}, %y: {y}) {{
  linalg.{op} ins({ins} : {types}) outs(%y : {y})
  return
}}
"""


def transposed_text(rows: int, cols: int, t: str, dynamic: bool) -> str:
    """y[p] += a[k][p] * x[k] written as a generic over (p, k): a column-major matvec."""
    a = shape_text((cols, rows), t, dynamic)
    x, y = shape_text((cols,), t, dynamic), shape_text((rows,), t, dynamic)
    return f"""
func.func @mv(%a: {a}, %x: {x}, %y: {y}) {{
  linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}}
      ins(%a, %x : {a}, {x}) outs(%y : {y}) {{
  ^bb0(%u: {t}, %v: {t}, %o: {t}):
    %m = arith.mulf %u, %v : {t}
    %s = arith.addf %o, %m : {t}
    linalg.yield %s : {t}
  }}
  return
}}
"""


def operands(form: str, rows: int, cols: int, dtype: type) -> tuple[list[np.ndarray], np.ndarray]:
    a = rng.standard_normal((cols, rows) if form == "transposed" else (rows, cols)).astype(dtype)
    if form == "vecmat":
        x, y = rng.standard_normal(rows).astype(dtype), rng.standard_normal(cols).astype(dtype)
        return [a, x, y], y + x @ a
    x, y = rng.standard_normal(cols).astype(dtype), rng.standard_normal(rows).astype(dtype)
    return [a, x, y], y + (a.T if form == "transposed" else a) @ x


def text_of(form: str, rows: int, cols: int, t: str, dynamic: bool) -> str:
    if form == "transposed":
        return transposed_text(rows, cols, t, dynamic)
    return named_text(form, rows, cols, t, dynamic)


def run(text: str, pipeline: str, ops: list[np.ndarray]) -> np.ndarray:
    out = ops[2].copy()
    mlkit.compile(text, pipeline=pipeline).mv(ops[0], ops[1], out)
    return out



FORMS = ["matvec", "vecmat", "transposed"]
SIZES = [(1, 1), (7, 7), (33, 33), (1000, 1000), (5, 300), (300, 3), (130, 17)]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("rows,cols", SIZES)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_against_numpy(form: str, rows: int, cols: int, dynamic: bool) -> None:
    ops, expected = operands(form, rows, cols, np.float32)
    text = text_of(form, rows, cols, "f32", dynamic)
    depth = rows if form == "vecmat" else cols
    np.testing.assert_allclose(run(text, with_kernel(), ops), expected, **tolerance(depth, np.float32))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("options", ["", "vector-bits=256", "vector-bits=128"])
def test_f64_and_widths_same_as_plain(form: str, options: str) -> None:
    for dtype, t in ((np.float32, "f32"), (np.float64, "f64")):
        ops, expected = operands(form, 77, 45, dtype)
        text = text_of(form, 77, 45, t, dynamic=True)
        got = run(text, with_kernel(options), ops)
        np.testing.assert_allclose(got, expected, **tolerance(77, dtype))
        np.testing.assert_allclose(got, run(text, PLAIN, ops), **tolerance(77, dtype))


@pytest.mark.parametrize("form", FORMS)
def test_rewritten_to_vector_loops(form: str) -> None:
    after = lowered(text_of(form, 64, 48, "f32", False), f"builtin.module({PASS})")
    assert "linalg." not in after and "vector.fma" in after
    if form == "matvec":  # rows contiguous along k: dot products
        assert "vector.reduction" in after
    else:  # contiguous along p: rows streamed into y
        assert "vector.broadcast" in after and "vector.reduction" not in after


def test_through_lower_to_cpu() -> None:
    n = 300
    text = f"""
func.func @mv(%a: tensor<{n}x{n}xf32>, %x: tensor<{n}xf32>) -> (tensor<{n}xf32>, tensor<{n}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}xf32>) -> tensor<{n}xf32>
  %r = linalg.matvec ins(%a, %x : tensor<{n}x{n}xf32>, tensor<{n}xf32>)
    outs(%c : tensor<{n}xf32>) -> tensor<{n}xf32>
  %s = linalg.vecmat ins(%x, %a : tensor<{n}xf32>, tensor<{n}x{n}xf32>)
    outs(%c : tensor<{n}xf32>) -> tensor<{n}xf32>
  return %r, %s : tensor<{n}xf32>, tensor<{n}xf32>
}}
"""
    a = rng.standard_normal((n, n)).astype(np.float32)
    x = rng.standard_normal(n).astype(np.float32)
    r, s = mlkit.compile(text).mv(a, x)
    np.testing.assert_allclose(r, a @ x, **tolerance(n, np.float32))
    np.testing.assert_allclose(s, x @ a, **tolerance(n, np.float32))


def test_leaves_integers_and_strided_matrices_alone() -> None:
    ints = named_text("matvec", 8, 8, "i32", False)
    assert "linalg.matvec" in lowered(ints, f"builtin.module({PASS})")
    strided = named_text("matvec", 8, 8, "f32", False).replace(
        "memref<8x8xf32>", "memref<8x8xf32, strided<[16, 2]>>"
    )
    assert "linalg.matvec" in lowered(strided, f"builtin.module({PASS})")
    a = rng.integers(-5, 5, (8, 8)).astype(np.int32)
    x = rng.integers(-5, 5, 8).astype(np.int32)
    np.testing.assert_array_equal(run(ints, with_kernel(), [a, x, np.zeros(8, np.int32)]), a @ x)
