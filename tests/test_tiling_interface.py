"""Tiling and tile-and-fuse through ``transform-interpreter``: the tiled programs
compute numpy's numbers (odd, unit and dynamic sizes, partial tiles), and on the
cases where upstream's interpreter is right, upstream tiles into the same loop
nest and the same ops."""

from __future__ import annotations

import re

import numpy as np
import pytest

import mlkit

TILED = "builtin.module(transform-interpreter,test-transform-dialect-erase-schedule,lower-to-cpu)"

MATMUL_RELU = """
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {{transform.with_named_sequence}} {{
  func.func @f(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %e = tensor.empty() : tensor<{m}x{n}xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%0 : tensor<{m}x{n}xf32>) outs(%e : tensor<{m}x{n}xf32>) {{
    ^bb0(%x: f32, %o: f32):
      %y = arith.maximumf %x, %zero : f32
      linalg.yield %y : f32
    }} -> tensor<{m}x{n}xf32>
    return %r : tensor<{m}x{n}xf32>
  }}
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %0 = transform.structured.match ops{{["{target}"]}} in %root : (!transform.any_op) -> !transform.any_op
    {script}
    transform.yield
  }}
}}
"""

FUSE = (
    "%1, %l:2 = transform.structured.fuse %0 tile_sizes [8, 16] interchange [1, 0]"
    " : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)"
)
TILE_ALL = (
    "%1, %l:3 = transform.structured.tile_using_for %0 tile_sizes [4, 8, 16]"
    " : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)"
)
FUSE_WITH_REDUCTION = TILE_ALL.replace("tile_using_for", "fuse")


def _case(m: int, k: int, n: int, target: str, script: str) -> str:
    return MATMUL_RELU.format(m=m, k=k, n=n, target=target, script=script)


def _inputs(m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    return (
        rng.standard_normal((m, k), dtype=np.float32),
        rng.standard_normal((k, n), dtype=np.float32),
    )


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (7, 5, 33), (33, 40, 17), (16, 32, 64)])
@pytest.mark.parametrize(
    "target,script",
    [("linalg.generic", FUSE), ("linalg.matmul", TILE_ALL), ("linalg.matmul", FUSE_WITH_REDUCTION)],
    ids=["fuse", "tile", "fuse-reduction-tiled"],
)
def test_tiled_program_matches_numpy(m: int, k: int, n: int, target: str, script: str) -> None:
    a, b = _inputs(m, k, n)
    out = mlkit.compile(_case(m, k, n, target, script), TILED, cache=False).f(a, b)
    np.testing.assert_allclose(out, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


DYNAMIC = """
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %0 : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %l:3 = transform.structured.tile_using_for %0 tile_sizes [5, 3, 4] interchange = [2, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


def test_dynamic_shapes_match_numpy() -> None:
    prog = mlkit.compile(DYNAMIC, TILED, cache=False)
    for m, k, n in [(1, 1, 1), (7, 9, 11), (20, 6, 3)]:
        a, b = _inputs(m, k, n)
        c = np.ones((m, n), np.float32)
        np.testing.assert_allclose(prog.f(a, b, c), c + a @ b, rtol=1e-4, atol=1e-4)


CONV = """
module attributes {transform.with_named_sequence} {
  func.func @f(%in: tensor<2x17x15x3xf32>, %w: tensor<3x3x3x5xf32>, %out: tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32> {
    %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x17x15x3xf32>, tensor<3x3x3x5xf32>) outs(%out : tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32>
    return %0 : tensor<2x8x7x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %l:4 = transform.structured.tile_using_for %0 tile_sizes [1, 3, 2, 0, 0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


def test_strided_conv_tiles_match_numpy() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 17, 15, 3), dtype=np.float32)
    w = rng.standard_normal((3, 3, 3, 5), dtype=np.float32)
    out = mlkit.compile(CONV, TILED, cache=False).f(x, w, np.zeros((2, 8, 7, 5), np.float32))
    windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))[:, ::2, ::2]
    expected = np.einsum("nhwcpq,pqcf->nhwf", windows, w)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def _shape_of_nest(text: str) -> list[str]:
    """The loops and structured ops of the tiled function, in order, ignoring
    the ops canonicalization leaves dead outside the nest."""
    body = text.split("transform.named_sequence")[0]
    names = re.findall(r"\b(scf\.for|linalg\.\w+|tensor\.(?:extract|insert)_slice)\b", body)
    return names[names.index("scf.for") :] if "scf.for" in names else names


@pytest.mark.parametrize(
    "target,script", [("linalg.generic", FUSE), ("linalg.matmul", TILE_ALL)], ids=["fuse", "tile"]
)
def test_same_nest_as_upstream(target: str, script: str) -> None:
    oracle = pytest.importorskip("upstream_oracle")
    text = _case(33, 40, 17, target, script)
    pipeline = "builtin.module(transform-interpreter,canonicalize,cse)"
    upstream = oracle.upstream_print(text, generic=False, pipeline=pipeline)
    ours = oracle.mlkit_print(text, pipeline=pipeline)
    assert _shape_of_nest(ours) == _shape_of_nest(upstream)
    # upstream's tiled program, lowered by mlkit, computes what mlkit's does
    a, b = _inputs(33, 40, 17)
    erase = "builtin.module(test-transform-dialect-erase-schedule,lower-to-cpu)"
    theirs = mlkit.compile(upstream, erase, cache=False).f(a, b)
    np.testing.assert_allclose(mlkit.compile(text, TILED, cache=False).f(a, b), theirs, rtol=1e-5, atol=1e-5)


FORALL_SCRIPTS = {
    "tile_sizes": "%1, %2 = transform.structured.tile_using_forall %0 tile_sizes [8, 16]"
    " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
    "num_threads": "%1, %2 = transform.structured.tile_using_forall %0 num_threads [3, 2]"
    " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
    "fuse": "%1, %2 = transform.structured.fuse %0 tile_sizes [8, 16] {use_forall}"
    " : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
}


def _forall_header(text: str) -> list[str]:
    """Each forall's bounds and shared outputs' types, and the ops of its body."""
    body = text.split("transform.named_sequence")[0]
    headers = re.findall(r"scf\.forall \([^)]*\) (.*) shared_outs", body)
    names = re.findall(r"\b(linalg\.\w+|tensor\.(?:extract|parallel_insert)_slice)\b", body)
    return headers + names[names.index("tensor.extract_slice") :]


@pytest.mark.parametrize("kind", sorted(FORALL_SCRIPTS))
def test_forall_nest_as_upstream(kind: str) -> None:
    oracle = pytest.importorskip("upstream_oracle")
    target = "linalg.generic" if kind == "fuse" else "linalg.matmul"
    text = _case(33, 40, 17, target, FORALL_SCRIPTS[kind])
    pipeline = "builtin.module(transform-interpreter,canonicalize,cse)"
    upstream = oracle.upstream_print(text, generic=False, pipeline=pipeline)
    ours = oracle.mlkit_print(text, pipeline=pipeline)
    assert _forall_header(ours) == _forall_header(upstream)


def _forall_case(m: int, k: int, n: int, kind: str) -> str:
    target = "linalg.generic" if kind == "fuse" else "linalg.matmul"
    return _case(m, k, n, target, FORALL_SCRIPTS[kind])


@pytest.mark.parametrize(
    "m,k,n",
    [pytest.param(1, 1, 1, id="1x1x1"), pytest.param(7, 5, 33, id="7x5x33"), pytest.param(33, 40, 17, id="33x40x17")],
)
@pytest.mark.parametrize("kind", sorted(FORALL_SCRIPTS))
def test_forall_tiled_program_matches_numpy(m: int, k: int, n: int, kind: str) -> None:
    """The forall-tiled programs bufferize (shared outputs to buffers, each
    parallel_insert_slice to a copy into a subview) and run on the thread pool;
    with 3 threads on 1 row, the threads past the end get empty tiles."""
    a, b = _inputs(m, k, n)
    out = mlkit.compile(_forall_case(m, k, n, kind), TILED, cache=False).f(a, b)
    np.testing.assert_allclose(out, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def _bufferized_forall(text: str) -> list[str]:
    """The ops of the bufferized function from its first forall on, without
    the casts upstream leaves unused."""
    body = text.split("transform.named_sequence")[0]
    names = re.findall(r"\b(scf\.forall|memref\.(?:alloc|subview|copy)|linalg\.\w+|return)\b", body)
    return names[names.index("scf.forall") :]


@pytest.mark.parametrize("kind", sorted(FORALL_SCRIPTS))
def test_forall_bufferizes_as_upstream(kind: str) -> None:
    """One-shot-bufferize of a tiled forall gives upstream's structure: in
    place shared outputs, a private buffer for a fused producer, a subview and
    a copy per parallel_insert_slice."""
    oracle = pytest.importorskip("upstream_oracle")
    tiled = oracle.mlkit_print(
        _forall_case(7, 5, 33, kind),
        pipeline="builtin.module(transform-interpreter,test-transform-dialect-erase-schedule,canonicalize,cse)",
    )
    pipeline = "builtin.module(one-shot-bufferize{bufferize-function-boundaries})"
    upstream = oracle.upstream_print(tiled, generic=False, pipeline=pipeline)
    ours = oracle.mlkit_print(tiled, pipeline=pipeline)
    assert _bufferized_forall(ours) == _bufferized_forall(upstream)
    assert "shared_outs" not in ours and "parallel_insert_slice" not in ours


def test_forall_out_of_place_output_as_upstream() -> None:
    """A shared output read after the loop: upstream and mlkit both copy it
    into a fresh buffer before the loop."""
    oracle = pytest.importorskip("upstream_oracle")
    text = """
func.func @f(%t: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %o[%i] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %f = linalg.fill ins(%cst : f32) outs(%s : tensor<2xf32>) -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  %v = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %v : tensor<8xf32>, f32
}
"""
    pipeline = "builtin.module(one-shot-bufferize{bufferize-function-boundaries})"
    ours = oracle.mlkit_print(text, pipeline=pipeline)
    upstream = oracle.upstream_print(text, generic=False, pipeline=pipeline)
    ops = lambda t: re.findall(r"\b(memref\.(?:alloc|copy|subview|load)|scf\.forall|linalg\.fill)\b", t)  # noqa: E731
    assert ops(ours) == ops(upstream)
    assert ops(ours)[:3] == ["memref.alloc", "memref.copy", "scf.forall"]
