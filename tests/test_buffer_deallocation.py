"""buffer-deallocation-pipeline frees what it must: programs bufferized and
deallocated by mlkit, lowered by upstream with the generic allocation functions,
run in upstream's ExecutionEngine with counting allocators; every allocation is
freed once, loops that allocate on every iteration included."""

from __future__ import annotations

import ctypes

import numpy as np
from upstream_oracle import ir, mlkit_print, passmanager, upstream_print

LOWER = (
    "builtin.module(convert-linalg-to-loops, expand-strided-metadata, lower-affine, "
    "convert-scf-to-cf, finalize-memref-to-llvm{use-generic-functions}, convert-arith-to-llvm, "
    "convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)"
)
PIPELINE = (
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
    "function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline)"
)
SHIM = """
llvm.func @_mlir_ciface_count_alloc(i64, i64) -> !llvm.ptr
llvm.func @_mlir_ciface_count_free(!llvm.ptr)
llvm.func @_mlir_memref_to_llvm_alloc(%s: i64) -> !llvm.ptr {
  %a = llvm.mlir.constant(16 : i64) : i64
  %p = llvm.call @_mlir_ciface_count_alloc(%a, %s) : (i64, i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
llvm.func @_mlir_memref_to_llvm_aligned_alloc(%a: i64, %s: i64) -> !llvm.ptr {
  %p = llvm.call @_mlir_ciface_count_alloc(%a, %s) : (i64, i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
llvm.func @_mlir_memref_to_llvm_free(%p: !llvm.ptr) {
  llvm.call @_mlir_ciface_count_free(%p) : (!llvm.ptr) -> ()
  llvm.return
}
"""

LOOP = """
func.func @g(%n: index, %t: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %d = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %c = arith.cmpi eq, %i, %c1 : index
    %s = scf.if %c -> (tensor<8xf32>) {
      scf.yield %a : tensor<8xf32>
    } else {
      scf.yield %d : tensor<8xf32>
    }
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
func.func @main(%in: memref<8xf32>, %out: memref<8xf32>) attributes {llvm.emit_c_interface} {
  %c5 = arith.constant 5 : index
  %t = bufferization.to_tensor %in restrict : memref<8xf32> to tensor<8xf32>
  %r = call @g(%c5, %t) : (index, tensor<8xf32>) -> tensor<8xf32>
  %m = bufferization.to_buffer %r : tensor<8xf32> to memref<8xf32>
  "memref.copy"(%m, %out) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}
"""


def _run_counting(text: str, arrays: list[np.ndarray]) -> tuple[int, int, set[int]]:
    from torch_mlir.execution_engine import ExecutionEngine
    from torch_mlir.runtime import get_ranked_memref_descriptor

    libc = ctypes.CDLL(None)
    libc.aligned_alloc.restype = ctypes.c_void_p
    libc.aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    live: set[int] = set()
    counts = [0, 0]

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
    def count_alloc(align: int, size: int) -> int:
        size = (size + align - 1) // align * align
        pointer = libc.aligned_alloc(max(align, 16), max(size, align))
        counts[0] += 1
        live.add(pointer)
        return pointer

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def count_free(pointer: int) -> None:
        assert pointer in live, "freed twice or never allocated"
        live.remove(pointer)
        counts[1] += 1
        libc.free(pointer)

    with ir.Context():
        custom = str(ir.Module.parse(text)).rstrip()
        module = ir.Module.parse(custom[:-1] + SHIM + "}")
        passmanager.PassManager.parse(LOWER).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        engine.register_runtime("count_alloc", count_alloc)
        engine.register_runtime("count_free", count_free)
        descriptors = [get_ranked_memref_descriptor(a) for a in arrays]
        engine.invoke("main", *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])
    return counts[0], counts[1], live


def test_allocating_loop_frees_every_buffer() -> None:
    text = mlkit_print(LOOP, pipeline=PIPELINE)
    assert text.count("memref.dealloc") >= 2, text
    data = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    allocs, frees, live = _run_counting(text, [data.copy(), out])
    assert allocs >= 5 and allocs == frees and not live
    expected = data * 2 ** 4  # iteration 1 passes its buffer through
    np.testing.assert_array_equal(out, expected)


def test_upstream_reads_the_output() -> None:
    upstream_print(mlkit_print(LOOP, pipeline=PIPELINE))


def test_without_pipeline_the_loop_leaks() -> None:
    """The counter sees leaks: without the pass, allocations outnumber frees."""
    pipeline = PIPELINE.replace(", buffer-deallocation-pipeline", "")
    allocs, frees, live = _run_counting(
        mlkit_print(LOOP, pipeline=pipeline), [np.arange(8, dtype=np.float32), np.zeros(8, np.float32)]
    )
    assert allocs > frees and live
