"""Differential tests of ``scf-parallel-loop-tiling`` against upstream MLIR.

mlkit creates the ops in upstream's order, so its output, read and printed by
upstream, must equal upstream's own output op for op (a stricter check than
comparing after ``canonicalize,cse``, which would also fold the ``muli`` by
1 and the static ``affine.min``s away). A matmul tiled this way must still
compute ``a @ b``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mlkit.diagnostics import DiagnosticError
from upstream_oracle import ir, mlkit_print, upstream_print

DYNAMIC_2D = """
func.func @dynamic(%a: index, %b: index, %c: index, %d: index, %s0: index, %s1: index,
                   %m: memref<?x?xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%a, %b) to (%c, %d) step (%s0, %s1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %w = arith.addf %v, %cst : f32
    memref.store %w, %m[%i, %j] : memref<?x?xf32>
  }
  return
}
"""

STATIC_STEP = """
func.func @static_loop_with_step(%m: memref<?x?xindex>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c22 = arith.constant 22 : index
  %c24 = arith.constant 24 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c22, %c24) step (%c3, %c3) {
    memref.store %i, %m[%i, %j] : memref<?x?xindex>
  }
  return
}
"""

ONE_DIM = """
func.func @one_dim(%m: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    memref.store %i, %m[%i] : memref<?xindex>
  }
  return
}
"""

THREE_DIM = """
func.func @three_dim(%n: index, %m: memref<?x?x?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j, %k) = (%c0, %c1, %c0) to (%c16, %n, %c7) step (%c2, %c1, %c1) {
    %s = arith.addi %i, %j : index
    %t = arith.addi %s, %k : index
    memref.store %t, %m[%i, %j, %k] : memref<?x?x?xindex>
  }
  return
}
"""

NESTED = """
func.func @tile_nested_innermost() {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    scf.parallel (%k, %l) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
  }
  return
}

func.func @tile_nested_in_non_ploop(%m: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.parallel (%k) = (%c0) to (%c2) step (%c1) {
      memref.store %i, %m[%k] : memref<?xindex>
    }
  }
  return
}
"""

REDUCTION = """
func.func @reduction(%n: index, %m: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %m[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
"""

# empty or reversed ranges and negative bounds: upstream decides between a
# static bound and affine.min with unsigned (wrapping) arithmetic
ODD_RANGES = """
func.func @odd_ranges(%m: memref<?x?x?xindex>) {
  %c10 = arith.constant 10 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cm3 = arith.constant -3 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%i, %j, %k) = (%c10, %cm3, %c10) to (%c2, %c5, %c10) step (%c3, %c2, %c3) {
    memref.store %i, %m[%i, %j, %k] : memref<?x?x?xindex>
  }
  return
}
"""

CASES = [
    (DYNAMIC_2D, "parallel-loop-tile-sizes=1,4"),
    (DYNAMIC_2D, "parallel-loop-tile-sizes=1,4 no-min-max-bounds=true"),
    (DYNAMIC_2D, ""),
    (DYNAMIC_2D, "parallel-loop-tile-sizes=8"),
    (DYNAMIC_2D, "parallel-loop-tile-sizes=-2,3"),
    (STATIC_STEP, "parallel-loop-tile-sizes=1,4"),
    (STATIC_STEP, "parallel-loop-tile-sizes=1,4 no-min-max-bounds=true"),
    (STATIC_STEP, "parallel-loop-tile-sizes=3,5 no-min-max-bounds=true"),
    (ONE_DIM, "parallel-loop-tile-sizes=4"),
    (ONE_DIM, "parallel-loop-tile-sizes=5"),
    (ONE_DIM, "parallel-loop-tile-sizes=4,2,9"),
    (ONE_DIM, "parallel-loop-tile-sizes=4 no-min-max-bounds=true"),
    (THREE_DIM, "parallel-loop-tile-sizes=4,2"),
    (THREE_DIM, "parallel-loop-tile-sizes=3,2,7"),
    (THREE_DIM, "parallel-loop-tile-sizes=4,2 no-min-max-bounds=true"),
    (NESTED, "parallel-loop-tile-sizes=1,4"),
    (NESTED, "parallel-loop-tile-sizes=1,4 no-min-max-bounds=true"),
    (REDUCTION, "parallel-loop-tile-sizes=4"),
    (ODD_RANGES, "parallel-loop-tile-sizes=2,2,2"),
    (ODD_RANGES, "parallel-loop-tile-sizes=3,3,3"),
    (ODD_RANGES, "parallel-loop-tile-sizes=4,5,4"),
    (ODD_RANGES, "parallel-loop-tile-sizes=-4,-5,-1"),
]


def _pipeline(options: str, anchor: str = "func.func") -> str:
    inner = f"scf-parallel-loop-tiling{{{options}}}"
    return f"builtin.module({anchor}({inner}))" if anchor else f"builtin.module({inner})"


@pytest.mark.parametrize(("text", "options"), CASES)
def test_matches_upstream(text: str, options: str) -> None:
    ours = mlkit_print(text, pipeline=_pipeline(options))
    expected = upstream_print(text, generic=False, pipeline=_pipeline(options))
    assert upstream_print(ours, generic=False) == expected


LIT_FILE = Path(__file__).parent.parent / "lit_tests" / "Transforms" / "scf-parallel-loop-tiling.mlir"
LIT_CHUNKS = LIT_FILE.read_text().split("// -----")


@pytest.mark.parametrize("no_min_max", [False, True])
@pytest.mark.parametrize("chunk", range(len(LIT_CHUNKS)))
def test_lit_chunks_match_upstream(chunk: int, no_min_max: bool) -> None:
    """The inputs of the FileCheck test, with both of its RUN lines."""
    options = "parallel-loop-tile-sizes=1,4" + (" no-min-max-bounds=true" if no_min_max else "")
    text = LIT_CHUNKS[chunk]
    ours = mlkit_print(text, pipeline=_pipeline(options))
    expected = upstream_print(text, generic=False, pipeline=_pipeline(options))
    assert upstream_print(ours, generic=False) == expected


def test_runs_on_any_op() -> None:
    """Upstream's pass has no anchor: run directly on the module it tiles the
    loops in every function."""
    text = DYNAMIC_2D + NESTED
    options = "parallel-loop-tile-sizes=2,2"
    ours = mlkit_print(text, pipeline=_pipeline(options, anchor=""))
    expected = upstream_print(text, generic=False, pipeline=_pipeline(options, anchor=""))
    assert upstream_print(ours, generic=False) == expected


@pytest.mark.parametrize("options", ["parallel-loop-tile-sizes=0", "parallel-loop-tile-sizes=4,0,2"])
def test_zero_tile_size_is_an_error(options: str) -> None:
    with pytest.raises(ir.MLIRError, match="tile size cannot be 0"):
        upstream_print(ONE_DIM, pipeline=_pipeline(options))
    with pytest.raises(DiagnosticError, match="tile size cannot be 0"):
        mlkit_print(ONE_DIM, pipeline=_pipeline(options))


MATMUL = """
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
"""


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MLKIT_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("no_min_max", [False, True])
def test_tiled_matmul_computes_the_product(cache_dir, no_min_max: bool) -> None:
    """Sizes that the tiles do not divide exercise the affine.min bounds and
    the scf.if guards."""
    import mlkit

    options = "parallel-loop-tile-sizes=4,4" + (" no-min-max-bounds=true" if no_min_max else "")
    pipeline = (
        "builtin.module(convert-linalg-to-parallel-loops,"
        f"func.func(scf-parallel-loop-tiling{{{options}}}),lower-to-cpu)"
    )
    program = mlkit.compile(MATMUL, pipeline=pipeline, cache=False)
    rng = np.random.default_rng(0)
    a = rng.random((9, 7), np.float32)
    b = rng.random((7, 10), np.float32)
    c = np.zeros((9, 10), np.float32)
    program.matmul(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
