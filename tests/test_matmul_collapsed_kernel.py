"""``linalg-matmul-to-microkernel`` on contractions whose ``m``, ``n`` or ``k``
is several loops: a 3-D ``x @ W`` as JAX and IREE write it (``collapse_shape``
+ ``matmul`` + ``expand_shape``, which reshape propagation folds into a
4-loop generic) and that generic written directly, on odd and dynamic sizes,
through ``lower-to-cpu``; the lowered IR runs the micro-kernel, not scalar
loops; a bias + relu after it is absorbed; groups the kernel cannot view as
one dimension are left to the scalar loops and still compute the right
numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

import mlkit
from cpu_pipelines import lowered, own_compile_cache  # noqa: F401
from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

PASS = "linalg-matmul-to-microkernel"
rng = np.random.default_rng(5)


def pipeline(options: str = "") -> str:
    """``lower-to-cpu``, its micro-kernel pass with ``options``."""
    steps = LowerToCPU().pipeline()
    if options:
        steps = steps.replace(f"{PASS}{{", f"{PASS}{{{options} ", 1)
    return f"builtin.module({steps})"


def up_to_kernel(options: str = "") -> str:
    """:func:`pipeline` cut off after the micro-kernel pass."""
    steps = pipeline(options)
    return steps[: steps.index("}", steps.index(PASS)) + 1] + ")"


def tensor(shape: tuple[int | None, ...]) -> str:
    return "tensor<" + "x".join("?" if s is None else str(s) for s in shape) + "xf32>"


def projection_text(batch: int | None, s: int, k: int, n: int) -> str:
    """``(x: batch x s x k) @ (w: k x n)`` as collapse_shape + matmul + expand_shape."""
    x, w = tensor((batch, s, k)), tensor((k, n))
    rows = None if batch is None else batch * s
    x2, y2, y = tensor((rows, k)), tensor((rows, n)), tensor((batch, s, n))
    dims = "%b" if batch is None else str(batch)
    dyn = "" if batch is not None else (
        "  %c0 = arith.constant 0 : index\n  %b = tensor.dim %x, %c0 : " + x + "\n"
        "  %r0 = tensor.dim %x2, %c0 : " + x2 + "\n"
    )  # fmt: skip
    empty = "tensor.empty(%r0)" if batch is None else "tensor.empty()"
    return f"""
func.func @proj(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : {x} into {x2}
{dyn}  %e = {empty} : {y2}
  %f = linalg.fill ins(%zero : f32) outs(%e : {y2}) -> {y2}
  %m = linalg.matmul ins(%x2, %w : {x2}, {w}) outs(%f : {y2}) -> {y2}
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [{dims}, {s}, {n}] : {y2} into {y}
  return %r : {y}
}}
"""


def generic_text(shapes: tuple[tuple[int | None, ...], ...], maps: tuple[str, str, str], loops: int,
                 reductions: tuple[int, ...], epilogue: str = "") -> str:  # fmt: skip
    """A contraction generic on tensors, C from a zero fill; a dynamic C
    size is that of the same position of A (the leading, batch, ones)."""
    a, b, c = (tensor(s) for s in shapes)
    dynamic = [i for i, size in enumerate(shapes[2]) if size is None]
    sizes = "".join(
        f"  %c{i} = arith.constant {i} : index\n  %s{i} = tensor.dim %a, %c{i} : {a}\n"
        for i in dynamic
    )
    empty = "tensor.empty(" + ", ".join(f"%s{i}" for i in dynamic) + ")"
    dims = ", ".join(f"d{i}" for i in range(loops))
    kinds = ", ".join('"reduction"' if i in reductions else '"parallel"' for i in range(loops))
    am, bm, cm = (f"affine_map<({dims}) -> ({m})>" for m in maps)
    return f"""
func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %zero = arith.constant 0.0 : f32
{sizes}  %e = {empty} : {c}
  %f = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}
  %y = linalg.generic {{indexing_maps = [{am}, {bm}, {cm}], iterator_types = [{kinds}]}}
      ins(%a, %b : {a}, {b}) outs(%f : {c}) {{
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {c}
{epilogue}
  return {"%r" if epilogue else "%y"} : {c}
}}
"""


def uses_kernel(text: str, options: str = "") -> bool:
    """Whether the micro-kernel runs the contraction (no linalg op is left after the pass)."""
    after = lowered(text, up_to_kernel(options))
    return "vector.fma" in after and "linalg." not in after


def close(got: np.ndarray, expected: np.ndarray, k: int) -> None:
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5 * max(1, k) ** 0.5 * 10)


# (batch, s, k, n): ones, odd sizes, sizes past a vector and a register tile
SIZES = [(1, 1, 1, 1), (2, 7, 33, 7), (3, 33, 7, 33), (2, 7, 1, 33)]


@pytest.mark.parametrize("batch,s,k,n", SIZES)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic_batch"])
def test_collapse_shape_matmul(batch: int, s: int, k: int, n: int, dynamic: bool) -> None:
    text = projection_text(None if dynamic else batch, s, k, n)
    assert uses_kernel(text)
    x = rng.standard_normal((batch, s, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    close(mlkit.compile(text, pipeline=pipeline()).proj(x, w), x @ w, k)


def test_collapse_shape_matmul_small_blocks() -> None:
    """Several KC slices, MC and NC blocks and edge slivers, on threads."""
    batch, s, k, n = 3, 33, 70, 47
    text = projection_text(batch, s, k, n)
    options = "kc=16 mc=16 nc=64"
    assert uses_kernel(text, options)
    x = rng.standard_normal((batch, s, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    close(mlkit.compile(text, pipeline=pipeline(options)).proj(x, w), x @ w, k)


@pytest.mark.parametrize("batch,s,k,n", SIZES)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic_batch"])
def test_four_loop_generic(batch: int, s: int, k: int, n: int, dynamic: bool) -> None:
    b_dim = None if dynamic else batch
    text = generic_text(((b_dim, s, k), (k, n), (b_dim, s, n)),
                        ("d0, d1, d3", "d3, d2", "d0, d1, d2"), 4, (3,))  # fmt: skip
    assert uses_kernel(text)
    a = rng.standard_normal((batch, s, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    close(mlkit.compile(text, pipeline=pipeline()).f(a, b), a @ b, k)


def test_several_k_and_n_loops() -> None:
    """``C[m, n1, n2] = A[m, k1, k2] * B[k1, k2, n1, n2]``: two k and two n loops."""
    m, k1, k2, n1, n2 = 9, 5, 7, 3, 11
    text = generic_text(((m, k1, k2), (k1, k2, n1, n2), (m, n1, n2)),
                        ("d0, d3, d4", "d3, d4, d1, d2", "d0, d1, d2"), 5, (3, 4))  # fmt: skip
    assert uses_kernel(text)
    a = rng.standard_normal((m, k1, k2)).astype(np.float32)
    b = rng.standard_normal((k1, k2, n1, n2)).astype(np.float32)
    expected = np.einsum("mij,ijpq->mpq", a, b)
    close(mlkit.compile(text, pipeline=pipeline()).f(a, b), expected, k1 * k2)


def test_bias_relu_fused() -> None:
    batch, s, k, n = 2, 7, 33, 40
    c = tensor((batch, s, n))
    epilogue = f"""  %o = tensor.empty() : {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%y, %bias : {c}, tensor<{n}xf32>) outs(%o : {c}) {{
  ^bb0(%v: f32, %q: f32, %out: f32):
    %t = arith.addf %v, %q : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  }} -> {c}"""
    text = generic_text(((batch, s, k), (k, n), (batch, s, n)),
                        ("d0, d1, d3", "d3, d2", "d0, d1, d2"), 4, (3,), epilogue)  # fmt: skip
    text = text.replace(  # the bias is a third argument
        f"(%a: {tensor((batch, s, k))}, %b: {tensor((k, n))})",
        f"(%a: {tensor((batch, s, k))}, %b: {tensor((k, n))}, %bias: tensor<{n}xf32>)",
    )
    assert uses_kernel(text)  # the fill and the bias + relu are in the tiles
    a = rng.standard_normal((batch, s, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    got = mlkit.compile(text, pipeline=pipeline()).f(a, b, bias)
    close(got, np.maximum(a @ b + bias, 0), k)


def test_groups_in_other_orders_are_left_alone() -> None:
    """C holds the m loops as (s, b), A as (b, s): no one flat index for both."""
    batch, s, k, n = 2, 5, 9, 7
    text = generic_text(((batch, s, k), (k, n), (s, batch, n)),
                        ("d0, d1, d3", "d3, d2", "d1, d0, d2"), 4, (3,))  # fmt: skip
    after = lowered(text, up_to_kernel())
    assert "linalg.generic" in after and "vector.fma" not in after
    a = rng.standard_normal((batch, s, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    got = mlkit.compile(text, pipeline=pipeline()).f(a, b)
    close(got, np.transpose(a @ b, (1, 0, 2)), k)


def strided_text(rows: int, offset: str) -> str:
    """The 4-loop contraction of a subview ``[1 or 0, offset..., 0]`` of ``a``
    (4 x 8 x 16) with ``rows`` of its 8 rows, into ``c`` (2 x rows x 32)."""
    start = "1, 0" if offset == "batch" else "0, 2"
    base = 128 if offset == "batch" else 32
    view = f"memref<2x{rows}x16xf32, strided<[128, 16, 1], offset: {base}>>"
    c = f"memref<2x{rows}x32xf32>"
    return f"""
func.func @f(%a: memref<4x8x16xf32>, %b: memref<16x32xf32>, %c: {c}) {{
  %v = memref.subview %a[{start}, 0] [2, {rows}, 16] [1, 1, 1] : memref<4x8x16xf32> to {view}
  linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%v, %b : {view}, memref<16x32xf32>) outs(%c : {c}) {{
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }}
  return
}}
"""


@pytest.mark.parametrize("rows,offset,collapsed", [(8, "batch", True), (5, "rows", False)],
                         ids=["contiguous_view", "view_with_gaps"])  # fmt: skip
def test_strided_views(rows: int, offset: str, collapsed: bool) -> None:
    """A subview whose groups are contiguous is collapsed (with its offset);
    one with gaps between rows is left to the scalar loops."""
    text = strided_text(rows, offset)
    assert uses_kernel(text) == collapsed
    a = rng.standard_normal((4, 8, 16)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float32)
    c = rng.standard_normal((2, rows, 32)).astype(np.float32)
    view = a[1:3] if offset == "batch" else a[0:2, 2 : 2 + rows]
    expected = c + view @ b
    mlkit.compile(text, pipeline=pipeline()).f(a, b, c)
    close(c, expected, 16)
