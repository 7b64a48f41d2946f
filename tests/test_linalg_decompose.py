"""``linalg.softmax``'s decomposition against upstream MLIR and numpy.

- ``transform.structured.decompose_interface`` gives the IR upstream's gives,
  for several ranks, dimensions, element types and dynamic sizes, and
  ``linalg-decompose-aggregated-ops`` gives the same IR without a script.
- Through ``lower-to-cpu`` (where the pass runs first, so the generics fuse
  and vectorize), softmax computes numpy's numbers on odd and dynamic sizes,
  with ``-inf`` entries and large values, along each dimension.
"""

from __future__ import annotations

import numpy as np
import pytest
from upstream_oracle import mlkit_print, upstream_print

import mlkit

SCRIPT = """
transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
  %0 = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
  %1 = transform.structured.decompose_interface %0 : (!transform.any_op) -> !transform.any_op
  transform.yield
}
"""
WITH_SCRIPT = "module attributes {transform.with_named_sequence} {%s%s}"

CASES = [
    ("2x16x32xf32", 2),
    ("2x16x32xf32", 1),
    ("7x5xf32", 0),
    ("?x?xf32", 1),
    ("4x?x3xf64", 0),
    ("9xf16", 0),
]


def _softmax(shape: str, dim: int) -> str:
    t = f"tensor<{shape}>"
    return f"""
func.func @softmax(%x: {t}, %dst: {t}) -> {t} {{
  %0 = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%dst : {t}) -> {t}
  return %0 : {t}
}}
"""


@pytest.mark.parametrize(("shape", "dim"), CASES)
def test_decompose_interface_gives_upstreams_ir(shape: str, dim: int) -> None:
    text = WITH_SCRIPT % (_softmax(shape, dim), SCRIPT)
    pipeline = "builtin.module(transform-interpreter)"
    want = upstream_print(text, generic=True, pipeline=pipeline)
    assert mlkit_print(text, generic=True, pipeline=pipeline).rstrip() == want.rstrip()


@pytest.mark.parametrize(("shape", "dim"), CASES)
def test_the_pass_decomposes_as_the_transform_does(shape: str, dim: int) -> None:
    scripted = mlkit_print(  # the script's output is upstream's (the test above)
        WITH_SCRIPT % (_softmax(shape, dim), SCRIPT),
        pipeline="builtin.module(transform-interpreter,test-transform-dialect-erase-schedule)",
    )
    by_pass = mlkit_print(
        _softmax(shape, dim),
        pipeline="builtin.module(func.func(linalg-decompose-aggregated-ops))",
    )
    scripted = scripted.replace("module attributes {transform.with_named_sequence}", "module")
    assert by_pass.rstrip() == scripted.rstrip()


def _numpy_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (7, 33), (33, 7), (3, 1000)])
@pytest.mark.parametrize("dim", [0, 1])
def test_softmax_computes_numpys_numbers(rows: int, cols: int, dim: int, dynamic: bool) -> None:
    shape = "?x?" if dynamic else f"{rows}x{cols}"
    t = f"tensor<{shape}xf32>"
    empty = (
        f"%c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        f"  %m = tensor.dim %x, %c0 : {t}\n  %n = tensor.dim %x, %c1 : {t}\n"
        f"  %e = tensor.empty(%m, %n) : {t}"
        if dynamic
        else f"%e = tensor.empty() : {t}"
    )
    source = f"""
func.func @softmax(%x: {t}) -> {t} {{
  {empty}
  %0 = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%e : {t}) -> {t}
  return %0 : {t}
}}
"""
    rng = np.random.default_rng(rows * 1000 + cols)
    x = (rng.standard_normal((rows, cols)) * 30).astype(np.float32)
    x[rng.random((rows, cols)) < 0.1] = -np.inf
    x[0, 0] = 80.0  # exp overflows without the shift by the maximum
    got = mlkit.compile(source, cache=False).softmax(x)
    with np.errstate(invalid="ignore"):
        want = _numpy_softmax(x.astype(np.float64), dim)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-7)
