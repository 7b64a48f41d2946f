"""Differential tests of one-shot-bufferize against upstream MLIR.

Each program is bufferized by mlkit and by upstream; both are then lowered by
upstream's own pipeline and run in upstream's ExecutionEngine, and the numbers
must agree with each other and with numpy. ``memrefCopy`` (strided copies) is
supplied from Python since the wheel ships no runner-utils library.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from upstream_oracle import ir, mlkit_print, passmanager, upstream_print

LOWER = (
    "builtin.module(convert-linalg-to-loops, expand-strided-metadata, lower-affine, "
    "convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)"
)
BOUNDARY = "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}"

# The jitted code calls memrefCopy(elem_size, &{rank, desc}, &{rank, desc});
# this shim forwards it to _mlir_ciface_memrefCopy, which register_runtime binds.
COPY_SHIM = """
llvm.func @_mlir_ciface_memrefCopy(i64, !llvm.ptr, !llvm.ptr)
llvm.func @memrefCopy(%s: i64, %a: !llvm.ptr, %b: !llvm.ptr) {
  llvm.call @_mlir_ciface_memrefCopy(%s, %a, %b) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
"""


class _Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def _view(desc: int, rank: int) -> tuple[int, list[int], list[int]]:
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(desc)
    return words[1] + 0, list(words[3 : 3 + rank]), list(words[3 + rank : 3 + 2 * rank]), words[2]  # type: ignore[return-value]


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_Unranked), ctypes.POINTER(_Unranked))
def _memref_copy(elem: int, src: ctypes.POINTER(_Unranked), dst: ctypes.POINTER(_Unranked)) -> None:  # type: ignore[valid-type]
    rank = src.contents.rank
    s_ptr, sizes, s_strides, s_off = _view(src.contents.descriptor, rank)  # type: ignore[misc]
    d_ptr, _, d_strides, d_off = _view(dst.contents.descriptor, rank)  # type: ignore[misc]
    for index in np.ndindex(*sizes):
        s = s_off + sum(i * st for i, st in zip(index, s_strides))
        d = d_off + sum(i * st for i, st in zip(index, d_strides))
        ctypes.memmove(d_ptr + d * elem, s_ptr + s * elem, elem)


def _lower_and_run(text: str, arrays: list[np.ndarray]) -> None:
    from torch_mlir.execution_engine import ExecutionEngine
    from torch_mlir.runtime import get_ranked_memref_descriptor

    with ir.Context():
        custom = str(ir.Module.parse(text)).rstrip()
        assert custom.endswith("}")
        module = ir.Module.parse(custom[:-1] + COPY_SHIM + "}")
        passmanager.PassManager.parse(LOWER).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        engine.register_runtime("memrefCopy", _memref_copy)
        descriptors = [get_ranked_memref_descriptor(a) for a in arrays]
        engine.invoke("main", *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])


def run_both(text: str, arrays: list[np.ndarray], options: str = BOUNDARY) -> tuple[list[np.ndarray], list[np.ndarray]]:
    ours = [a.copy() for a in arrays]
    theirs = [a.copy() for a in arrays]
    bufferized = mlkit_print(text, pipeline=f"builtin.module({options})")
    assert "tensor<" not in bufferized.replace("initial_value", ""), bufferized
    _lower_and_run(bufferized, ours)
    _lower_and_run(upstream_print(text, pipeline=f"builtin.module({options})"), theirs)
    return ours, theirs


MATMUL = """
func.func @compute(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}
func.func @main(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %out: memref<4x5xf32>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict : memref<4x3xf32> to tensor<4x3xf32>
  %tb = bufferization.to_tensor %b restrict : memref<3x5xf32> to tensor<3x5xf32>
  %r = call @compute(%ta, %tb) : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %m = bufferization.to_buffer %r : tensor<4x5xf32> to memref<4x5xf32>
  "memref.copy"(%m, %out) : (memref<4x5xf32>, memref<4x5xf32>) -> ()
  return
}
"""

# %t is read (extract_slice %t, then the final extract) after it is written by
# insert_slice: a read-after-write hazard that needs a copy.
SLICES = """
func.func @compute(%t: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 100.0 : f32
  %s = tensor.extract_slice %t[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %f = linalg.fill ins(%one : f32) outs(%s : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = tensor.insert_slice %f into %t[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %old = tensor.extract_slice %t[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %x = tensor.extract %t[%c1, %c1] : tensor<4x4xf32>
  %o2 = tensor.insert %x into %old[%c1, %c1] : tensor<2x2xf32>
  return %r, %o2 : tensor<4x4xf32>, tensor<2x2xf32>
}
func.func @main(%a: memref<4x4xf32>, %out: memref<4x4xf32>, %out2: memref<2x2xf32>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict writable : memref<4x4xf32> to tensor<4x4xf32>
  %r:2 = call @compute(%ta) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2x2xf32>)
  %m = bufferization.to_buffer %r#0 : tensor<4x4xf32> to memref<4x4xf32>
  %m2 = bufferization.to_buffer %r#1 : tensor<2x2xf32> to memref<2x2xf32>
  "memref.copy"(%m, %out) : (memref<4x4xf32>, memref<4x4xf32>) -> ()
  "memref.copy"(%m2, %out2) : (memref<2x2xf32>, memref<2x2xf32>) -> ()
  return
}
"""

LOOP = """
func.func @compute(%t: tensor<6xf32>, %n: index) -> tensor<6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<6xf32>) {
    %v = tensor.extract %acc[%i] : tensor<6xf32>
    %j = arith.addi %i, %c1 : index
    %w = tensor.extract %t[%j] : tensor<6xf32>
    %s = arith.addf %v, %w : f32
    %u = tensor.insert %s into %acc[%j] : tensor<6xf32>
    scf.yield %u : tensor<6xf32>
  }
  return %r : tensor<6xf32>
}
func.func @main(%a: memref<6xf32>, %out: memref<6xf32>) attributes {llvm.emit_c_interface} {
  %c5 = arith.constant 5 : index
  %ta = bufferization.to_tensor %a restrict : memref<6xf32> to tensor<6xf32>
  %r = call @compute(%ta, %c5) : (tensor<6xf32>, index) -> tensor<6xf32>
  %m = bufferization.to_buffer %r : tensor<6xf32> to memref<6xf32>
  "memref.copy"(%m, %out) : (memref<6xf32>, memref<6xf32>) -> ()
  return
}
"""

PAD = """
func.func @compute(%t: tensor<2x3xf32>) -> tensor<5x4xf32> {
  %c = arith.constant 7.0 : f32
  %p = tensor.pad %t low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  return %p : tensor<5x4xf32>
}
func.func @main(%a: memref<2x3xf32>, %out: memref<5x4xf32>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict : memref<2x3xf32> to tensor<2x3xf32>
  %r = call @compute(%ta) : (tensor<2x3xf32>) -> tensor<5x4xf32>
  %m = bufferization.to_buffer %r : tensor<5x4xf32> to memref<5x4xf32>
  "memref.copy"(%m, %out) : (memref<5x4xf32>, memref<5x4xf32>) -> ()
  return
}
"""


def _rand(*shape: int) -> np.ndarray:
    return np.random.default_rng(len(shape) * 7 + shape[0]).random(shape, dtype=np.float32)


def test_matmul_runs_like_upstream() -> None:
    a, b = _rand(4, 3), _rand(3, 5)
    ours, theirs = run_both(MATMUL, [a, b, np.zeros((4, 5), np.float32)])
    np.testing.assert_allclose(ours[2], theirs[2])
    np.testing.assert_allclose(ours[2], a @ b, rtol=1e-5)


def test_slice_hazard_runs_like_upstream() -> None:
    a = _rand(4, 4)
    ours, theirs = run_both(SLICES, [a, np.zeros((4, 4), np.float32), np.zeros((2, 2), np.float32)])
    expected = a.copy()
    expected[0:2, 0:2] = 100.0
    old = a[0:2, 0:2].copy()
    old[1, 1] = a[1, 1]
    for got in (ours, theirs):
        np.testing.assert_array_equal(got[1], expected)
        np.testing.assert_array_equal(got[2], old)
    np.testing.assert_array_equal(ours[0], a)  # the caller's input is untouched


def test_loop_carrying_a_tensor_runs_like_upstream() -> None:
    a = _rand(6)
    ours, theirs = run_both(LOOP, [a, np.zeros(6, np.float32)])
    expected = a.copy()
    for i in range(5):
        expected[i + 1] = expected[i] + a[i + 1]
    np.testing.assert_allclose(ours[1], theirs[1])
    np.testing.assert_allclose(ours[1], expected, rtol=1e-6)


def test_pad_runs_like_upstream() -> None:
    a = _rand(2, 3)
    ours, theirs = run_both(PAD, [a, np.zeros((5, 4), np.float32)])
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[1], np.pad(a, ((1, 2), (0, 1)), constant_values=7.0))


@pytest.mark.parametrize("program", [MATMUL, SLICES, LOOP, PAD])
@pytest.mark.parametrize(
    "options",
    [
        "one-shot-bufferize{bufferize-function-boundaries}",
        BOUNDARY,
        "one-shot-bufferize{bufferize-function-boundaries copy-before-write}",
        "one-shot-bufferize",
    ],
)
def test_output_parses_in_upstream(program: str, options: str) -> None:
    out = mlkit_print(program, pipeline=f"builtin.module({options})")
    upstream_print(out)


MISC = """
func.func @compute(%t: tensor<2x3xf32>, %c: i1) -> tensor<12xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.constant 1.5 : f32
  %fe = tensor.from_elements %a, %a, %a : tensor<1x3xf32>
  %cat = tensor.concat dim(0) %t, %fe : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %d = tensor.dim %cat, %c0 : tensor<3x3xf32>
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %x = arith.index_cast %s : index to i32
    %f = arith.sitofp %x : i32 to f32
    tensor.yield %f : f32
  } : tensor<1x3xf32>
  %cat2 = tensor.concat dim(0) %cat, %g : (tensor<3x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  %flat = tensor.collapse_shape %cat2 [[0, 1]] : tensor<4x3xf32> into tensor<12xf32>
  %r = scf.if %c -> (tensor<12xf32>) {
    %df = arith.index_cast %d : index to i32
    %dff = arith.sitofp %df : i32 to f32
    %w = tensor.insert %dff into %flat[%c0] : tensor<12xf32>
    scf.yield %w : tensor<12xf32>
  } else {
    scf.yield %flat : tensor<12xf32>
  }
  %e = tensor.expand_shape %r [[0, 1]] output_shape [6, 2] : tensor<12xf32> into tensor<6x2xf32>
  %v = tensor.extract %e[%c1, %c1] : tensor<6x2xf32>
  %r2 = tensor.insert %v into %r[%c1] : tensor<12xf32>
  return %r2 : tensor<12xf32>
}
func.func @main(%a: memref<2x3xf32>, %out: memref<12xf32>) attributes {llvm.emit_c_interface} {
  %true = arith.constant true
  %ta = bufferization.to_tensor %a restrict : memref<2x3xf32> to tensor<2x3xf32>
  %r = call @compute(%ta, %true) : (tensor<2x3xf32>, i1) -> tensor<12xf32>
  %m = bufferization.to_buffer %r : tensor<12xf32> to memref<12xf32>
  "memref.copy"(%m, %out) : (memref<12xf32>, memref<12xf32>) -> ()
  return
}
"""


def test_tensor_ops_run_like_upstream() -> None:
    a = _rand(2, 3)
    ours, theirs = run_both(MISC, [a, np.zeros(12, np.float32)])
    flat = np.concatenate([a, np.full((1, 3), 1.5, np.float32), np.array([[0, 1, 2]], np.float32)]).ravel()
    flat[0] = 3.0
    flat[1] = flat[3]
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[1], flat)
