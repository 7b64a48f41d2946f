"""The vector ops contractions need against upstream MLIR: upstream reads
mlkit's printing of them as the same IR, and kernels lowered by mlkit's
``convert-vector-to-scf`` + ``convert-to-llvm`` compute in upstream's
ExecutionEngine what upstream's own lowering computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from llvm_lowering_oracle import run, run_both
from upstream_oracle import assert_upstream_reads_same_ir, mlkit_print, upstream_print

LIT = Path(__file__).parent.parent / "lit_tests"
MLKIT = ("builtin.module(convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
         "expand-strided-metadata,lower-affine,convert-to-llvm,reconcile-unrealized-casts)")
UPSTREAM = ("builtin.module(func.func(lower-vector-mask),convert-vector-to-scf{full-unroll=true},convert-vector-to-llvm,"
            "lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
            "finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts)")

MATMUL = ("[affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
          "affine_map<(i, j, k) -> (i, j)>]")


def test_ops_read_the_same_in_upstream() -> None:
    assert_upstream_reads_same_ir(LIT / "Dialect" / "vector" / "ops.mlir")


@pytest.mark.parametrize("path", ["Conversion/VectorToSCF/unroll.mlir",
                                  "Conversion/VectorToLLVM/contract-mask-print.mlir"])
def test_lowered_output_parses_in_upstream(path: str) -> None:
    pipeline = "builtin.module(convert-vector-to-scf)" if "SCF" in path else \
        "builtin.module(convert-vector-to-llvm)"
    for chunk in (LIT / path).read_text().split("// -----"):
        upstream_print(mlkit_print(chunk, pipeline=pipeline))


def _kernel(args: str, body: str) -> str:
    return f"""
func.func @k({args}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1.0 : f32
  %c0_i8 = arith.constant 0 : i8
{body}
  return
}}
"""


KERNELS: dict[str, tuple[str, str, list[tuple[int, ...] | tuple[tuple[int, ...], str]]]] = {
    # name: (arguments, body, shapes of the arrays, f32 unless a dtype is given);
    # the last array is the output
    "matmul_out_of_bounds": (
        "%a: memref<2x3xf32>, %b: memref<3x5xf32>, %c: memref<2x5xf32>",
        f"""  %va = vector.transfer_read %a[%c0, %c0], %pad : memref<2x3xf32>, vector<2x4xf32>
  %vb = vector.transfer_read %b[%c0, %c0], %pad : memref<3x5xf32>, vector<4x4xf32>
  %vc = vector.transfer_read %c[%c0, %c0], %pad : memref<2x5xf32>, vector<2x4xf32>
  %r = vector.contract {{indexing_maps = {MATMUL}, iterator_types = ["parallel", "parallel", "reduction"]}} %va, %vb, %vc : vector<2x4xf32>, vector<4x4xf32> into vector<2x4xf32>
  vector.transfer_write %r, %c[%c0, %c1] : vector<2x4xf32>, memref<2x5xf32>""",
        [(2, 3), (3, 5), (2, 5)],
    ),
    "matvec_transposed_lhs": (
        "%a: memref<4x3xf32>, %x: memref<4xf32>, %y: memref<3xf32>",
        """  %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x3xf32>, vector<4x3xf32>
  %vx = vector.transfer_read %x[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  %vy = vector.transfer_read %y[%c0], %pad {in_bounds = [true]} : memref<3xf32>, vector<3xf32>
  %r = vector.contract {indexing_maps = [affine_map<(i, k) -> (k, i)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} %va, %vx, %vy : vector<4x3xf32>, vector<4xf32> into vector<3xf32>
  vector.transfer_write %r, %y[%c0] {in_bounds = [true]} : vector<3xf32>, memref<3xf32>""",
        [(4, 3), (4,), (3,)],
    ),
    "dot_and_outerproduct": (
        "%x: memref<5xf32>, %o: memref<4x3xf32>",
        """  %vx = vector.transfer_read %x[%c0], %pad : memref<5xf32>, vector<4xf32>
  %vy = vector.transfer_read %x[%c2], %pad : memref<5xf32>, vector<3xf32>
  %init = arith.constant 0.5 : f32
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %vx, %vx, %init : vector<4xf32>, vector<4xf32> into f32
  %acc = vector.broadcast %d : f32 to vector<4x3xf32>
  %p = vector.outerproduct %vx, %vy, %acc : vector<4xf32>, vector<3xf32>
  vector.transfer_write %p, %o[%c0, %c0] : vector<4x3xf32>, memref<4x3xf32>""",
        [(5,), (4, 3)],
    ),
    "masks_and_columns": (
        "%a: memref<3x4xf32>, %o: memref<3x4xf32>",
        """  %m = vector.create_mask %c2, %c2 : vector<3x4xi1>
  %r = vector.transfer_read %a[%c0, %c1], %pad, %m : memref<3x4xf32>, vector<3x4xf32>
  %col = vector.transfer_read %a[%c1, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xf32>, vector<4xf32>
  %m1 = vector.create_mask %c2 : vector<4xi1>
  vector.transfer_write %r, %o[%c0, %c0] : vector<3x4xf32>, memref<3x4xf32>
  vector.mask %m1 { vector.transfer_write %col, %o[%c2, %c1] : vector<4xf32>, memref<3x4xf32> } : vector<4xi1>
  vector.transfer_write %col, %o[%c0, %c2] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<3x4xf32>""",
        [(3, 4), (3, 4)],
    ),
    "broadcasts": (
        "%a: memref<2x3xf32>, %o: memref<2x4xf32>",
        """  %b = vector.transfer_read %a[%c1, %c0], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<2x3xf32>, vector<2x4xf32>
  %s = vector.transfer_read %a[%c0, %c2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<2x3xf32>, vector<4xf32>
  %r = vector.insert %s, %b [0] : vector<4xf32> into vector<2x4xf32>
  vector.transfer_write %r, %o[%c0, %c0] : vector<2x4xf32>, memref<2x4xf32>""",
        [(2, 3), (2, 4)],
    ),
    "masked_matmul_and_dot": (
        "%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>, %o: memref<3xf32>",
        f"""  %va = vector.transfer_read %a[%c0, %c0], %pad : memref<2x3xf32>, vector<2x3xf32>
  %vb = vector.transfer_read %b[%c0, %c0], %pad : memref<3x2xf32>, vector<3x2xf32>
  %vc = vector.transfer_read %c[%c0, %c0], %pad : memref<2x2xf32>, vector<2x2xf32>
  %m = vector.create_mask %c2, %c1, %c2 : vector<2x2x3xi1>
  %r = vector.mask %m {{ vector.contract {{indexing_maps = {MATMUL}, iterator_types = ["parallel", "parallel", "reduction"]}} %va, %vb, %vc : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32> }} : vector<2x2x3xi1> -> vector<2x2xf32>
  vector.transfer_write %r, %c[%c0, %c0] : vector<2x2xf32>, memref<2x2xf32>
  %row = vector.extract %va[1] : vector<3xf32> from vector<2x3xf32>
  %md = vector.create_mask %c2 : vector<3xi1>
  %init = arith.constant 0.25 : f32
  %d = vector.mask %md {{ vector.contract {{indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]}} %row, %row, %init : vector<3xf32>, vector<3xf32> into f32 }} : vector<3xi1> -> f32
  memref.store %d, %o[%c1] : memref<3xf32>""",
        [(2, 3), (3, 2), (2, 2), (3,)],
    ),
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_runs_like_upstream(name: str) -> None:
    args, body, shapes = KERNELS[name]

    def arrays() -> list[np.ndarray]:
        made = []
        for n, spec in enumerate(shapes):
            shape, dtype = spec if isinstance(spec[0], tuple) else (spec, "float32")
            size = int(np.prod(shape))  # type: ignore[arg-type]
            values = (np.arange(size) * (n + 3)) % 7 - 2
            made.append(values.astype(dtype).reshape(shape))  # type: ignore[call-overload]
        return made

    ours, theirs = run_both(_kernel(args, body), MLKIT, UPSTREAM, "k", arrays)
    for got, expected in zip(ours, theirs):
        np.testing.assert_array_equal(got, expected)
    assert not np.array_equal(ours[-1], arrays()[-1])


def test_mixed_precision_contract_sign_extends() -> None:
    """i8 operands into an i32 accumulator sign-extend before they multiply,
    as upstream's documentation of vector.contract has it (upstream's own
    lowerings leave such contractions); checked against numpy."""
    body = """  %va = vector.transfer_read %a[%c0, %c0], %c0_i8 {in_bounds = [true, true]} : memref<2x3xi8>, vector<2x3xi8>
  %init = arith.constant dense<[100, -100]> : vector<2xi32>
  %r = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} %va, %va, %init : vector<2x3xi8>, vector<2x3xi8> into vector<2xi32>
  vector.transfer_write %r, %o[%c0] {in_bounds = [true]} : vector<2xi32>, memref<2xi32>"""
    a = np.array([[-100, 90, 3], [-128, 127, -1]], dtype=np.int8)
    out = np.zeros(2, dtype=np.int32)
    run(mlkit_print(_kernel("%a: memref<2x3xi8>, %o: memref<2xi32>", body), pipeline=MLKIT), "k",
        [a, out])
    wide = a.astype(np.int32)
    np.testing.assert_array_equal(out, (wide * wide).sum(axis=1) + np.array([100, -100]))
