"""finalize-memref-to-llvm against upstream: a program using every memref op
the pass converts, lowered by mlkit and by upstream and run by upstream's
ExecutionEngine (``memrefCopy`` supplied from Python), plus the IR of the
ops whose lowering is deterministic."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from llvm_lowering_oracle import run_both, same_after_normalizing
from upstream_oracle import mlkit_print, upstream_print

PROGRAM = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xf32>,
                    initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, constant}> : () -> ()
func.func @main(%out: memref<6x4xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %g = memref.get_global @table : memref<4xf32>
  %a = memref.alloc(%c3) {alignment = 64} : memref<?x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i64
      %lf = arith.sitofp %li : i64 to f32
      memref.store %lf, %a[%i, %j] : memref<?x4xf32>
    }
  }
  %t = memref.alloca() : memref<4xf32>
  "memref.copy"(%g, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  %d = memref.alloca(%c4) : memref<?xf32>
  scf.for %j = %c0 to %c4 step %c1 {
    %x = memref.load %g[%j] : memref<4xf32>
    %y = memref.load %t[%j] : memref<4xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %d[%j] : memref<?xf32>
    memref.store %x, %out[%c0, %j] : memref<6x4xf32>
    %z = memref.load %d[%j] : memref<?xf32>
    memref.store %z, %out[%c1, %j] : memref<6x4xf32>
  }
  %v = memref.reinterpret_cast %a to offset: [1], sizes: [3, 2], strides: [4, 2]
      : memref<?x4xf32> to memref<3x2xf32, strided<[4, 2], offset: 1>>
  %b = memref.alloc() : memref<3x2xf32>
  "memref.copy"(%v, %b) : (memref<3x2xf32, strided<[4, 2], offset: 1>>, memref<3x2xf32>) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %x = memref.load %b[%i, %j] : memref<3x2xf32>
      %row = arith.addi %i, %c2 : index
      memref.store %x, %out[%row, %j] : memref<6x4xf32>
    }
  }
  %u = "memref.cast"(%a) : (memref<?x4xf32>) -> memref<*xf32>
  %r = "memref.cast"(%u) : (memref<*xf32>) -> memref<?x4xf32>
  %e = memref.load %r[%c2, %c3] : memref<?x4xf32>
  memref.store %e, %out[%c2, %c3] : memref<6x4xf32>
  %rank = "memref.rank"(%a) : (memref<?x4xf32>) -> index
  %dyn = memref.dim %a, %c0 : memref<?x4xf32>
  %which = arith.subi %rank, %c1 : index
  %dim1 = memref.dim %a, %which : memref<?x4xf32>
  %udim = memref.dim %u, %c0 : memref<*xf32>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %v
      : memref<3x2xf32, strided<[4, 2], offset: 1>> -> memref<f32>, index, index, index, index, index
  %first = memref.load %base[] : memref<f32>
  %vals = memref.alloca() : memref<8xindex>
  memref.store %rank, %vals[%c0] : memref<8xindex>
  memref.store %dyn, %vals[%c1] : memref<8xindex>
  memref.store %dim1, %vals[%c2] : memref<8xindex>
  memref.store %udim, %vals[%c3] : memref<8xindex>
  memref.store %offset, %vals[%c4] : memref<8xindex>
  memref.store %sizes#0, %vals[%c5] : memref<8xindex>
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  memref.store %strides#0, %vals[%c6] : memref<8xindex>
  memref.store %strides#1, %vals[%c7] : memref<8xindex>
  scf.for %j = %c0 to %c4 step %c1 {
    %w = memref.load %vals[%j] : memref<8xindex>
    %j4 = arith.addi %j, %c4 : index
    %w2 = memref.load %vals[%j4] : memref<8xindex>
    %wi = arith.index_cast %w : index to i64
    %wf = arith.sitofp %wi : i64 to f32
    %w2i = arith.index_cast %w2 : index to i64
    %w2f = arith.sitofp %w2i : i64 to f32
    memref.store %wf, %out[%c4, %j] : memref<6x4xf32>
    memref.store %w2f, %out[%c5, %j] : memref<6x4xf32>
  }
  memref.store %first, %out[%c3, %c3] : memref<6x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  memref.dealloc %b : memref<3x2xf32>
  return
}
"""

EXPECTED = np.array(
    [[1, 2, 3, 4], [2, 4, 6, 8], [1, 3, 0, 11], [5, 7, 0, 0], [2, 3, 4, 3], [1, 3, 4, 2]],
    np.float32,
)

_COPY = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)


def _ranked(unranked: int) -> tuple[int, int, list[int], list[int]]:
    rank, desc = (ctypes.c_int64 * 2).from_address(unranked)
    fields = (ctypes.c_int64 * (3 + 2 * rank)).from_address(desc)
    return rank, fields[1], list(fields[3 : 3 + rank]), list(fields[3 + rank :]) + [fields[2]]


@_COPY
def _memref_copy(element_size: int, source: int, target: int) -> None:
    """The runner utils' ``memrefCopy``, element by element."""
    rank, src, sizes, src_strides = _ranked(source)
    _, dst, _, dst_strides = _ranked(target)
    for flat in range(int(np.prod(sizes))):
        index, rest = [], flat
        for size in reversed(sizes):
            index.insert(0, rest % size)
            rest //= size
        s = src_strides[-1] + sum(i * st for i, st in zip(index, src_strides))
        d = dst_strides[-1] + sum(i * st for i, st in zip(index, dst_strides))
        ctypes.memmove(dst + d * element_size, src + s * element_size, element_size)


PIPELINES = [
    "builtin.module(convert-scf-to-cf,finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)",
    "builtin.module(convert-scf-to-cf,finalize-memref-to-llvm{use-generic-functions},"
    "convert-to-llvm,reconcile-unrealized-casts)",
]


def _free(address: int) -> None:
    ctypes.CDLL(None).free(ctypes.c_void_p(address))


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_program_runs_as_upstream(pipeline: str) -> None:
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    runtime = [
        ("memrefCopy", _memref_copy),
        ("_mlir_memref_to_llvm_alloc", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)(libc.malloc)),
        ("_mlir_memref_to_llvm_free", ctypes.CFUNCTYPE(None, ctypes.c_void_p)(_free)),
    ]
    ours, theirs = run_both(PROGRAM, pipeline, pipeline, "main",
                            lambda: [np.zeros((6, 4), np.float32)], runtime)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[0], EXPECTED)


DETERMINISTIC = """
func.func @f(%m: memref<?x4xf32>, %i: index, %v: f32) -> (f32, index, index) {
  %x = memref.load %m[%i, %i] : memref<?x4xf32>
  memref.store %v, %m[%i, %i] : memref<?x4xf32>
  %c1 = arith.constant 1 : index
  %d = memref.dim %m, %c1 : memref<?x4xf32>
  %e = memref.dim %m, %i : memref<?x4xf32>
  memref.dealloc %m : memref<?x4xf32>
  return %x, %d, %e : f32, index, index
}
"""


@pytest.mark.parametrize("options", ["", "{use-generic-functions}", "{index-bitwidth=32}"])
def test_same_ir_as_upstream(options: str) -> None:
    ours, theirs = same_after_normalizing(DETERMINISTIC, f"builtin.module(finalize-memref-to-llvm{options})")
    assert ours == theirs


def test_leaves_subview_for_expand_strided_metadata() -> None:
    text = """
func.func @s(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %v = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %v : memref<4xf32, strided<[1], offset: 2>>
}
"""
    lowered = mlkit_print(text, pipeline="builtin.module(finalize-memref-to-llvm)")
    assert "memref.subview" in lowered
    upstream_print(lowered)
