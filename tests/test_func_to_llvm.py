"""convert-func-to-llvm against upstream: signatures, descriptors, C
interfaces, external declarations, multiple results, bare pointers."""

from __future__ import annotations

import numpy as np
import pytest
from llvm_lowering_oracle import run_both, same_after_normalizing

SIGNATURES = """
func.func @f(%a: index, %b: i32, %m: memref<?x4xf32>, %u: memref<*xf32>) -> (index, memref<?x4xf32>)
    attributes {llvm.emit_c_interface} {
  %c = arith.addi %a, %a : index
  cf.br ^bb1(%c : index)
^bb1(%i: index):
  return %i, %m : index, memref<?x4xf32>
}
func.func private @ext(memref<2xf32>) -> f32
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @ext2(memref<2x?xf32>, index) -> memref<2xf32> attributes {llvm.emit_c_interface}
func.func @caller(%m: memref<2x?xf32>, %u: memref<*xf32>, %s: memref<2xf32, strided<[?], offset: ?>>) -> (f32, index) {
  %c = arith.constant 1 : index
  %r = call @ext2(%m, %c) : (memref<2x?xf32>, index) -> memref<2xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %f = call @ext(%r) : (memref<2xf32>) -> f32
  return %f, %c : f32, index
}
func.func @none() {
  return
}
"""

BARE = """
func.func private @ext2(memref<2x3xf32>, index) -> memref<2xf32>
func.func @caller(%m: memref<2x3xf32>) -> memref<2xf32> {
  %c = arith.constant 1 : index
  %r = call @ext2(%m, %c) : (memref<2x3xf32>, index) -> memref<2xf32>
  return %r : memref<2xf32>
}
"""


@pytest.mark.parametrize(
    "text, options",
    [(SIGNATURES, ""), (SIGNATURES, "{index-bitwidth=32}"), (BARE, "{use-bare-ptr-memref-call-conv}")],
)
def test_same_ir_as_upstream(text: str, options: str) -> None:
    ours, theirs = same_after_normalizing(text, f"builtin.module(convert-func-to-llvm{options})")
    assert ours == theirs


def test_bare_pointers_refuse_dynamic_memrefs() -> None:
    text = "func.func @d(%m: memref<?xf32>) {\n  return\n}\n"
    ours, theirs = same_after_normalizing(text, "builtin.module(convert-func-to-llvm{use-bare-ptr-memref-call-conv})")
    assert ours == theirs and "func.func" in ours


PROGRAM = """
func.func @minmax(%m: memref<?xf32>) -> (f32, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %first = memref.load %m[%c0] : memref<?xf32>
  %lo, %hi = scf.for %i = %c1 to %n step %c1 iter_args(%l = %first, %h = %first) -> (f32, f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %l2 = arith.minimumf %l, %x : f32
    %h2 = arith.maximumf %h, %x : f32
    scf.yield %l2, %h2 : f32, f32
  }
  return %lo, %hi, %n : f32, f32, index
}
func.func @main(%m: memref<?xf32>, %out: memref<3xf32>) attributes {llvm.emit_c_interface} {
  %lo, %hi, %n = call @minmax(%m) : (memref<?xf32>) -> (f32, f32, index)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nf = arith.index_cast %n : index to i64
  %nff = arith.sitofp %nf : i64 to f32
  memref.store %lo, %out[%c0] : memref<3xf32>
  memref.store %hi, %out[%c1] : memref<3xf32>
  memref.store %nff, %out[%c2] : memref<3xf32>
  return
}
"""

PIPELINE = ("builtin.module(convert-scf-to-cf,convert-arith-to-llvm,convert-func-to-llvm,"
            "finalize-memref-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)")


def test_calls_with_multiple_results_run_as_upstream() -> None:
    data = np.array([3.5, -2.0, 7.25, 0.0, 1.0], np.float32)
    ours, theirs = run_both(PROGRAM, PIPELINE, PIPELINE, "main",
                            lambda: [data.copy(), np.zeros(3, np.float32)])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[1], [-2.0, 7.25, 5.0])
