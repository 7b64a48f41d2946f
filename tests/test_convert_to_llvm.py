"""convert-to-llvm against upstream: whole programs (arith, scf lowered to cf,
memref, func calls, math) lowered by mlkit's passes alone and by upstream's,
run by upstream's ExecutionEngine."""

from __future__ import annotations

import numpy as np
import pytest
from llvm_lowering_oracle import run_both, same_after_normalizing

UPSTREAM_STYLE = "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)"

MATMUL = """
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %p] : memref<?x?xf32>
        %y = memref.load %b[%p, %j] : memref<?x?xf32>
        %xy = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %xy : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  call @matmul(%a, %b, %tmp) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %tmp[%i, %j] : memref<?x?xf32>
      %neg = arith.cmpf olt, %v, %v : f32
      %r = scf.if %neg -> (f32) {
        scf.yield %v : f32
      } else {
        %h = arith.constant 0.5 : f32
        %w = arith.mulf %v, %h : f32
        scf.yield %w : f32
      }
      memref.store %r, %c[%i, %j] : memref<?x?xf32>
    }
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}
"""


@pytest.mark.parametrize(
    "pipeline",
    [
        UPSTREAM_STYLE,
        "builtin.module(convert-scf-to-cf,convert-arith-to-llvm,convert-func-to-llvm,"
        "finalize-memref-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)",
        "builtin.module(convert-scf-to-cf,convert-to-llvm{filter-dialects=memref,func},"
        "convert-to-llvm,reconcile-unrealized-casts)",
    ],
)
def test_matmul_runs_as_upstream(pipeline: str) -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    ours, theirs = run_both(MATMUL, pipeline, UPSTREAM_STYLE, "main",
                            lambda: [a.copy(), b.copy(), np.zeros((5, 4), np.float32)])
    np.testing.assert_array_equal(ours[2], theirs[2])
    np.testing.assert_allclose(ours[2], 0.5 * (a @ b), rtol=1e-5)


MATH = """
func.func @main(%x: memref<8xf32>, %y: memref<8xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %a = math.absf %v : f32
    %s = math.sqrt %a : f32
    %e = math.exp %v : f32
    %r = arith.addf %s, %e : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  return
}
"""


def test_math_is_included() -> None:
    pytest.importorskip("mlkit.passes.conversion.math_to_llvm")
    x = np.linspace(-2, 2, 8).astype(np.float32)
    ours, theirs = run_both(MATH, UPSTREAM_STYLE, UPSTREAM_STYLE, "main",
                            lambda: [x.copy(), np.zeros(8, np.float32)])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_allclose(ours[1], np.sqrt(np.abs(x)) + np.exp(x), rtol=1e-5)


def test_same_ir_as_upstream_for_arith_cf_func() -> None:
    text = """
func.func @f(%a: i32, %b: i32, %c: i1) -> (i32, index) {
  %i = arith.index_cast %a : i32 to index
  cf.cond_br %c, ^bb1(%i : index), ^bb1(%i : index)
^bb1(%k: index):
  %s = arith.addi %a, %b : i32
  return %s, %k : i32, index
}
"""
    ours, theirs = same_after_normalizing(text, "builtin.module(convert-to-llvm,reconcile-unrealized-casts)")
    assert ours == theirs


SUBVIEW = """
func.func @main(%m: memref<6x8xf32>, %out: memref<3x4xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = memref.subview %m[1, 2] [3, 4] [2, 1] : memref<6x8xf32> to memref<3x4xf32, strided<[16, 1], offset: 10>>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %v[%i, %j] : memref<3x4xf32, strided<[16, 1], offset: 10>>
      memref.store %x, %out[%i, %j] : memref<3x4xf32>
    }
  }
  return
}
"""


def test_subview_after_expand_strided_metadata() -> None:
    pytest.importorskip("mlkit.passes.transforms.expand_strided_metadata")
    pipeline = "builtin.module(expand-strided-metadata,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)"
    m = np.arange(48, dtype=np.float32).reshape(6, 8)
    ours, theirs = run_both(SUBVIEW, pipeline, pipeline, "main",
                            lambda: [m.copy(), np.zeros((3, 4), np.float32)])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[1], m[1::2, 2:6])
