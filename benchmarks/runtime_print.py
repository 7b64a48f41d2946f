"""Speed of the built-in runtime, against numpy measured in the same run.

* printMemrefF32 on a 1000x100 f32 memref, called from JIT-compiled code,
  against numpy formatting the same array (``np.array2string`` and a plain
  ``'%g'`` join), all written to /dev/null.
* 10^5 memrefCopy calls (a 4x4 f32 memref each) from a compiled loop,
  against 10^5 ``np.copyto`` calls on the same shapes.

Printed, not asserted. Run: python benchmarks/runtime_print.py
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

import numpy as np

from mlkit.context import make_context
from mlkit.execution.jit import jit_compile
from mlkit.syntax.parser import parse_module

PRINT = """
llvm.func @printMemrefF32(i64, !llvm.ptr)
llvm.func @show(%desc: !llvm.ptr) {
  %0 = llvm.mlir.constant(2 : i64) : i64
  llvm.call @printMemrefF32(%0, %desc) : (i64, !llvm.ptr) -> ()
  llvm.return
}
"""

COPY = """
llvm.func @memrefCopy(i64, !llvm.ptr, !llvm.ptr)
llvm.func @copies(%n: i64, %src: !llvm.ptr, %dst: !llvm.ptr) {
  %0 = llvm.mlir.constant(0 : i64) : i64
  %1 = llvm.mlir.constant(1 : i64) : i64
  %2 = llvm.mlir.constant(4 : i64) : i64
  llvm.br ^loop(%0 : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^done
^body:
  llvm.call @memrefCopy(%2, %src, %dst) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  %j = llvm.add %i, %1 : i64
  llvm.br ^loop(%j : i64)
^done:
  llvm.return
}
"""


def descriptors(array: np.ndarray) -> tuple[ctypes.Array, ctypes.Array]:
    strides = [s // array.itemsize for s in array.strides]
    ranked = (ctypes.c_int64 * (3 + 2 * array.ndim))(
        array.ctypes.data, array.ctypes.data, 0, *array.shape, *strides
    )
    return ranked, (ctypes.c_int64 * 2)(array.ndim, ctypes.addressof(ranked))


def best(work, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ctx = make_context()
    data = np.random.default_rng(0).standard_normal((1000, 100)).astype(np.float32)
    ranked, _ = descriptors(data)
    show = jit_compile(parse_module(ctx, PRINT, "print")).ctypes_function(
        "show", None, ctypes.c_void_p
    )
    devnull = open(os.devnull, "w")
    saved = sys.stdout
    sys.stdout = devnull
    try:
        ours = best(lambda: show(ctypes.addressof(ranked)))
        numpy_repr = best(lambda: devnull.write(np.array2string(data, threshold=sys.maxsize)))
        numpy_g = best(lambda: devnull.write(", ".join("%g" % v for v in data.ravel().tolist())))
    finally:
        sys.stdout = saved
    print(f"printMemrefF32 1000x100 f32:  {ours * 1e3:8.2f} ms")
    print(f"  numpy array2string:         {numpy_repr * 1e3:8.2f} ms  (ratio {ours / numpy_repr:.2f}x)")
    print(f"  numpy '%g' join:            {numpy_g * 1e3:8.2f} ms  (ratio {ours / numpy_g:.2f}x)")

    n = 100_000
    source = np.arange(32, dtype=np.float32).reshape(4, 8)[:, ::2]  # strided 4x4
    target = np.zeros((4, 4), np.float32)
    keep = (descriptors(source), descriptors(target))
    copies = jit_compile(parse_module(ctx, COPY, "copy")).ctypes_function(
        "copies", None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p
    )
    src_u, dst_u = keep[0][1], keep[1][1]
    ours = best(lambda: copies(n, ctypes.addressof(src_u), ctypes.addressof(dst_u)))
    assert np.array_equal(source, target)

    def numpy_copies() -> None:
        for _ in range(n):
            np.copyto(target, source)

    theirs = best(numpy_copies, repeat=3)
    print(f"10^5 memrefCopy (strided 4x4 f32): {ours * 1e3:8.2f} ms")
    print(f"  10^5 np.copyto:                  {theirs * 1e3:8.2f} ms  (ratio {ours / theirs:.3f}x)")


if __name__ == "__main__":
    main()
