"""convert-index-to-llvm against upstream: the same IR after canonicalize/cse,
and the same results when run."""

from __future__ import annotations

import numpy as np
import pytest
from llvm_lowering_oracle import run_both, same_after_normalizing

OPS = """
func.func @f(%a: index, %b: index, %i: i32) -> (index, index, index, index, i1, i32, index, i1, index, index, index, index, index, index, index, index, index) {
  %0 = index.ceildivs %a, %b
  %1 = index.ceildivu %a, %b
  %2 = index.floordivs %a, %b
  %3 = index.constant 42
  %4 = index.bool.constant true
  %5 = index.casts %a : index to i32
  %6 = index.castu %i : i32 to index
  %7 = index.cmp slt(%a, %b)
  %8 = index.sizeof
  %9 = index.add %a, %b
  %10 = index.shrs %a, %b
  %11 = index.remu %a, %b
  %12 = index.xor %a, %b
  %13 = index.maxs %a, %b
  %14 = index.mins %a, %b
  %15 = index.maxu %a, %b
  %16 = index.minu %a, %b
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16 : index, index, index, index, i1, i32, index, i1, index, index, index, index, index, index, index, index, index
}
"""


@pytest.mark.parametrize("options", ["", "{index-bitwidth=32}", "{index-bitwidth=16}"])
def test_same_ir_as_upstream(options: str) -> None:
    ours, theirs = same_after_normalizing(OPS, f"builtin.module(convert-index-to-llvm{options})")
    assert ours == theirs


PROGRAM = """
func.func @main(%in: memref<12xindex>, %out: memref<12x7xindex>) attributes {llvm.emit_c_interface} {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %c11 = index.constant 11
  %c12 = index.constant 12
  scf.for %i = %c0 to %c12 step %c1 {
    %j = index.sub %c11, %i
    %a = memref.load %in[%i] : memref<12xindex>
    %b = memref.load %in[%j] : memref<12xindex>
    %r0 = index.maxs %a, %b
    %r1 = index.mins %a, %b
    %r2 = index.maxu %a, %b
    %r3 = index.minu %a, %b
    %r4 = index.ceildivs %a, %b
    %r5 = index.floordivs %a, %b
    %r6 = index.ceildivu %a, %b
    %k2 = index.constant 2
    %k3 = index.constant 3
    %k4 = index.constant 4
    %k5 = index.constant 5
    %k6 = index.constant 6
    memref.store %r0, %out[%i, %c0] : memref<12x7xindex>
    memref.store %r1, %out[%i, %c1] : memref<12x7xindex>
    memref.store %r2, %out[%i, %k2] : memref<12x7xindex>
    memref.store %r3, %out[%i, %k3] : memref<12x7xindex>
    memref.store %r4, %out[%i, %k4] : memref<12x7xindex>
    memref.store %r5, %out[%i, %k5] : memref<12x7xindex>
    memref.store %r6, %out[%i, %k6] : memref<12x7xindex>
  }
  return
}
"""


def test_semantics_match_upstream() -> None:
    values = np.array([7, -7, 3, -3, 1, -1, 100, -100, 5, 9, -2, 13], dtype=np.int64)
    pipeline = ("builtin.module(convert-scf-to-cf,convert-index-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,"
                "finalize-memref-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)")
    ours, theirs = run_both(PROGRAM, pipeline, pipeline, "main",
                            lambda: [values.copy(), np.zeros((12, 7), np.int64)])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[1][:, 0], np.maximum(values, values[::-1]))
