"""Lit files of mlkit's passes whose every chunk must come out of the pass as
it comes out of upstream's (compared as upstream reads both), issue 14."""

from __future__ import annotations

from pathlib import Path

import pytest

from upstream_oracle import assert_pass_as_upstream, lit_chunks

LIT = Path(__file__).parent.parent / "lit_tests"

FILES = [  # (lit file, pipeline, whether unregistered ops are allowed)
    ("Dialect/arith/expand-ops.mlir", "builtin.module(arith-expand)", False),
    ("Dialect/arith/expand-ops.mlir", "builtin.module(arith-expand{include-bf16=true})", False),
    (
        "Conversion/BufferizationToMemRef/clone.mlir",
        "builtin.module(convert-bufferization-to-memref)",
        False,
    ),
    ("Dialect/scf/forall-to-for.mlir", "builtin.module(func.func(scf-forall-to-for))", False),
    (
        "GPU/launch-sink-index-computations.mlir",
        "builtin.module(gpu-launch-sink-index-computations)",
        True,
    ),
    *[
        (f"Transforms/{name}.mlir", f"builtin.module(one-shot-bufferize{{{options}}})", True)
        for name, options in [
            ("one-shot-bufferize-analysis", "test-analysis-only"),
            ("one-shot-bufferize-analysis", "test-analysis-only bufferize-function-boundaries"),
            ("one-shot-module-bufferize-analysis", "test-analysis-only bufferize-function-boundaries"),
            ("one-shot-bufferize", "test-analysis-only bufferize-function-boundaries"),
            ("one-shot-bufferize-regions",
             "test-analysis-only bufferize-function-boundaries allow-return-allocs-from-loops"),
            ("one-shot-bufferize-while", "test-analysis-only bufferize-function-boundaries"),
            ("one-shot-bufferize-allow-unknown-ops", "allow-unknown-ops"),
            ("one-shot-bufferize-allow-unknown-ops", "allow-unknown-ops bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map"),
            ("one-shot-bufferize-vector-arith", "bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map"),
            ("one-shot-bufferize-function-args", "bufferize-function-boundaries"),
        ]
    ],
    ("Dialect/affine/loop-tiling.mlir", "builtin.module(func.func(affine-loop-tile{tile-size=32}))", True),
    (
        "Dialect/affine/loop-tiling.mlir",
        "builtin.module(func.func(affine-loop-tile{tile-size=32 separate}))",
        True,
    ),
    ("Dialect/affine/loop-tiling.mlir", "builtin.module(func.func(affine-loop-tile{tile-sizes=8}))", True),
    ("Dialect/affine/loop-tiling-model.mlir", "builtin.module(func.func(affine-loop-tile))", False),
    (
        "Dialect/affine/loop-tiling-model.mlir",
        "builtin.module(func.func(affine-loop-tile{cache-size=64}))",
        False,
    ),
    (
        "Conversion/LinalgToStandard/linalg-to-std.mlir",
        "builtin.module(convert-linalg-to-std)",
        False,
    ),
    (
        "Transforms/canonicalize-block-merge.mlir",
        "builtin.module(func.func(canonicalize{region-simplify=aggressive}))",
        True,
    ),
    (
        "Transforms/canonicalize-block-arguments.mlir",
        "builtin.module(func.func(canonicalize))",
        True,
    ),
    (
        "Dialect/scf/canonicalize.mlir",
        "builtin.module(func.func(canonicalize{test-convergence}))",
        False,
    ),
    *[
        ("Transforms/canonicalize-block-arguments.mlir",
         f"builtin.module(func.func(canonicalize{{region-simplify={mode}}}))", True)
        for mode in ("disabled", "aggressive")
    ],
]

CASES = [
    pytest.param(text, pipeline, unregistered, id=f"{name}#{i}:{pipeline}")
    for name, pipeline, unregistered in FILES
    for i, text in enumerate(lit_chunks(LIT / name))
]


@pytest.mark.parametrize(("text", "pipeline", "unregistered"), CASES)
def test_chunk_as_upstream(text: str, pipeline: str, unregistered: bool) -> None:
    assert_pass_as_upstream(text, pipeline, unregistered=unregistered)


def test_lowered_clone_copies_a_strided_view() -> None:
    """convert-bufferization-to-memref's allocation and copy, run: the clone of
    a strided view holds the view's elements. (An unranked clone lowers to a
    memref.reshape with a dynamic-length shape, which finalize-memref-to-llvm
    does not convert yet.)"""
    import numpy as np

    import mlkit

    program = mlkit.compile("""
func.func @c(%a: memref<?x8xf32, strided<[?, ?], offset: ?>>, %out: memref<?x8xf32>) {
  %0 = bufferization.clone %a : memref<?x8xf32, strided<[?, ?], offset: ?>> to memref<?x8xf32, strided<[?, ?], offset: ?>>
  memref.copy %0, %out : memref<?x8xf32, strided<[?, ?], offset: ?>> to memref<?x8xf32>
  memref.dealloc %0 : memref<?x8xf32, strided<[?, ?], offset: ?>>
  return
}""", "builtin.module(convert-bufferization-to-memref, lower-to-cpu{deallocation=false})")
    a = np.arange(56, dtype=np.float32).reshape(7, 8)
    out = np.zeros((4, 8), np.float32)
    program.c(a[::2, ::-1], out)
    np.testing.assert_array_equal(out, a[::2, ::-1])
