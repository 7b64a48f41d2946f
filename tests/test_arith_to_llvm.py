"""convert-arith-to-llvm against upstream: the same IR after canonicalize/cse
where mlkit emits upstream's ops, and the same numbers where it does not."""

from __future__ import annotations

import numpy as np
import pytest
from llvm_lowering_oracle import run_both, same_after_normalizing

PASS = "builtin.module(convert-arith-to-llvm)"

ONE_TO_ONE = """
func.func @f(%a: i32, %b: i32, %x: f32, %y: f32, %i: index, %v: vector<4xi32>, %w: vector<4xi32>)
    -> (i32, i32, i32, i32, i32, f32, i1, i1, i32, index, f32, f32, f32, i32, i32, i32, f32, f64, i1, vector<4xi32>, vector<4xindex>, i64, i64, f32) {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.ceildivsi %a, %b : i32
  %2 = arith.floordivsi %a, %b : i32
  %3 = arith.ceildivui %a, %b : i32
  %4 = arith.remsi %a, %b : i32
  %5 = arith.addf %x, %y fastmath<fast> : f32
  %6 = arith.cmpf olt, %x, %y : f32
  %7 = arith.cmpi slt, %a, %b : i32
  %8 = arith.index_cast %i : index to i32
  %9 = arith.index_cast %a : i32 to index
  %10 = arith.maximumf %x, %y : f32
  %11 = arith.minnumf %x, %y : f32
  %12 = arith.negf %x : f32
  %13 = arith.select %7, %a, %b : i32
  %14:2 = arith.mulsi_extended %a, %b : i32
  %15 = arith.shrui %a, %b : i32
  %16 = arith.uitofp %a : i32 to f32
  %17 = arith.extf %x : f32 to f64
  %18 = arith.cmpf ueq, %x, %y fastmath<nnan> : f32
  %19 = arith.andi %v, %w : vector<4xi32>
  %20 = arith.constant dense<2> : vector<4xindex>
  %21 = arith.extsi %a : i32 to i64
  %22 = arith.extui %b : i32 to i64
  %23 = arith.sitofp %b : i32 to f32
  return %0, %1, %2, %3, %4, %5, %6, %18, %8, %9, %10, %11, %12, %13, %14#0, %14#1, %16, %17, %7, %19, %20, %21, %22, %23
    : i32, i32, i32, i32, i32, f32, i1, i1, i32, index, f32, f32, f32, i32, i32, i32, f32, f64, i1, vector<4xi32>, vector<4xindex>, i64, i64, f32
}
"""


@pytest.mark.parametrize("options", ["", "{index-bitwidth=32}"])
def test_same_ir_as_upstream(options: str) -> None:
    ours, theirs = same_after_normalizing(ONE_TO_ONE, f"builtin.module(convert-arith-to-llvm{options})")
    assert ours == theirs


def test_leaves_tensors_alone() -> None:
    text = """
func.func @t(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    ours, theirs = same_after_normalizing(text, PASS)
    assert ours == theirs
    assert "arith.addf" in ours


# min/max and addui_extended take a different (icmp/select) route: run them.
INTEGER_PROGRAM = """
func.func @main(%in: memref<16xi32>, %out: memref<16x8xi32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %j = arith.subi %c15, %i : index
    %a = memref.load %in[%i] : memref<16xi32>
    %b = memref.load %in[%j] : memref<16xi32>
    %0 = arith.maxsi %a, %b : i32
    %1 = arith.minsi %a, %b : i32
    %2 = arith.maxui %a, %b : i32
    %3 = arith.minui %a, %b : i32
    %4:2 = arith.addui_extended %a, %b : i32, i1
    %5 = arith.extui %4#1 : i1 to i32
    %6 = arith.floordivsi %a, %b : i32
    %7 = arith.ceildivsi %a, %b : i32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    memref.store %0, %out[%i, %c0] : memref<16x8xi32>
    memref.store %1, %out[%i, %c1] : memref<16x8xi32>
    memref.store %2, %out[%i, %c2] : memref<16x8xi32>
    memref.store %3, %out[%i, %c3] : memref<16x8xi32>
    memref.store %4#0, %out[%i, %c4] : memref<16x8xi32>
    memref.store %5, %out[%i, %c5] : memref<16x8xi32>
    memref.store %6, %out[%i, %c6] : memref<16x8xi32>
    memref.store %7, %out[%i, %c7] : memref<16x8xi32>
  }
  return
}
"""


def test_integer_semantics_match_upstream() -> None:
    values = np.array([7, -7, 3, -3, 2**31 - 1, -(2**31), 1, -1, 100, -100, 5, 9, -2, 13, 2**30, -5],
                      dtype=np.int32)
    pipeline = "builtin.module(convert-scf-to-cf,convert-arith-to-llvm,convert-func-to-llvm,finalize-memref-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)"
    ours, theirs = run_both(
        INTEGER_PROGRAM, pipeline, pipeline, "main",
        lambda: [values.copy(), np.zeros((16, 8), np.int32)],
    )
    np.testing.assert_array_equal(ours[1], theirs[1])
    a, b = values, values[::-1]
    np.testing.assert_array_equal(ours[1][:, 0], np.maximum(a, b))
    np.testing.assert_array_equal(ours[1][:, 3], np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32))
