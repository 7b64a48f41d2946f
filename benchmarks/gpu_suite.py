"""The GPU benchmarks of benchmarks/gpu_suite.sh, printed as ratios measured
in this run (never asserted):

* a 4096x4096 f32 matmul through ``mlkit.compile(target="cuda")`` against
  cuBLAS's ``cublasSgemm`` (the ``nvidia-cublas-cu12`` wheel, through ctypes);
* a 4M-element elementwise chain (``tanh(x * y) + x``) against a plain device
  copy of the same buffers compiled the same way;
* a 4096x4096 row sum against the same plain copy of its input.

Each mlkit call stages its arguments in managed memory and copies its result
out, so the baselines do the same: the cuBLAS call's buffers are managed and
filled from and copied to numpy in the timed region, and the copy baseline is
an mlkit program. Without a usable GPU it prints why and exits 1.

    python benchmarks/gpu_suite.py [--quick]
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import times  # noqa: E402 - the same timing loop as the CPU benchmarks
from matmul import matmul_source  # noqa: E402

CHAIN = """
func.func @chain(%x: tensor<{n}xf32>, %y: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %m = linalg.mul ins(%x, %y : tensor<{n}xf32>, tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) -> tensor<{n}xf32>
  %t = math.tanh %m : tensor<{n}xf32>
  %s = arith.addf %t, %x : tensor<{n}xf32>
  return %s : tensor<{n}xf32>
}}
"""
# the plain device copy: one read and one write of each element (a negation,
# as canonicalization removes a copy into a new buffer)
COPY = """
func.func @copy(%x: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %c = arith.negf %x : tensor<{shape}xf32>
  return %c : tensor<{shape}xf32>
}}
"""
ROW_SUM = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: tensor<{n}x{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{n}xf32>) -> tensor<{n}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%a : tensor<{n}x{n}xf32>) outs(%f : tensor<{n}xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""


def best(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` timed calls, after one warm-up call."""
    return min(times(fn, repeat))


def load_cublas() -> ctypes.CDLL:
    """libcublas from the nvidia-cublas-cu12 (or -cu13) wheel, or the system's."""
    candidates: list[str] = []
    try:
        import nvidia.cublas  # type: ignore[import-not-found]

        for root in nvidia.cublas.__path__:
            candidates += sorted(glob.glob(os.path.join(root, "lib", "libcublas.so*")))
    except ImportError:
        pass
    candidates += ["libcublas.so.13", "libcublas.so.12", "libcublas.so"]
    for name in candidates:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise RuntimeError("cuBLAS not found: pip install nvidia-cublas-cu12 (or the gpu extra)")


class Cublas:
    """``C = A @ B`` in row-major f32 by ``cublasSgemm_v2`` on managed buffers."""

    def __init__(self, runtime: Any, n: int) -> None:
        self.lib = load_cublas()
        self.runtime = runtime
        self.n = n
        self.handle = ctypes.c_void_p()
        if self.lib.cublasCreate_v2(ctypes.byref(self.handle)) != 0:
            raise RuntimeError("cublasCreate_v2 failed")
        size = n * n * 4
        self.a, self.b, self.c = (runtime.alloc(size, True) for _ in range(3))
        f = self.lib.cublasSgemm_v2
        f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                      ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                      ctypes.c_int]  # fmt: skip
        self.alpha, self.beta = ctypes.c_float(1.0), ctypes.c_float(0.0)

    def matmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        n, size = self.n, self.n * self.n * 4
        ctypes.memmove(self.a, a.ctypes.data, size)
        ctypes.memmove(self.b, b.ctypes.data, size)
        # row-major C = A B is column-major C^T = B^T A^T
        status = self.lib.cublasSgemm_v2(self.handle, 0, 0, n, n, n, ctypes.byref(self.alpha),
                                         self.b, n, self.a, n, ctypes.byref(self.beta), self.c, n)  # fmt: skip
        if status != 0:
            raise RuntimeError(f"cublasSgemm_v2 failed with status {status}")
        self.runtime.call("cuCtxSynchronize")
        c = np.empty((n, n), np.float32)
        ctypes.memmove(c.ctypes.data, self.c, size)
        return c


def main(argv: list[str]) -> int:
    import mlkit
    from mlkit.runtime import cuda

    if not cuda.available():
        try:
            cuda.current()
            reason = "no usable CUDA GPU"
        except cuda.CudaUnavailable as exc:
            reason = str(exc)
        print(f"gpu_suite: needs an NVIDIA GPU with its driver and cuda-bindings: {reason}")
        return 1
    quick = "--quick" in argv
    repeat = 3 if quick else 10
    rng = np.random.default_rng(0)
    compile_ = lambda text: mlkit.compile(text, target="cuda", cache=False)  # noqa: E731

    n = 1024 if quick else 4096
    a = rng.random((n, n), np.float32)
    b = rng.random((n, n), np.float32)
    prog = compile_(matmul_source(n))
    blas = Cublas(cuda.current(), n)
    reference = blas.matmul(a, b)
    np.testing.assert_allclose(prog.matmul(a, b), reference, rtol=1e-3, atol=1e-2)
    t_mlkit = best(lambda: prog.matmul(a, b), repeat)
    t_blas = best(lambda: blas.matmul(a, b), repeat)
    flops = 2 * n**3
    print(f"matmul {n}x{n} f32: mlkit {t_mlkit * 1e3:.2f} ms ({flops / t_mlkit / 1e12:.2f} TFLOP/s), "
          f"cuBLAS {t_blas * 1e3:.2f} ms ({flops / t_blas / 1e12:.2f} TFLOP/s), "
          f"cuBLAS/mlkit {t_blas / t_mlkit:.2f}x  (both with staging)")  # fmt: skip

    size = 1 << 22
    x = rng.standard_normal(size, dtype=np.float32)
    y = rng.standard_normal(size, dtype=np.float32)
    chain, copy = compile_(CHAIN.format(n=size)), compile_(COPY.format(shape=size))
    np.testing.assert_allclose(chain.chain(x, y), np.tanh(x * y) + x, rtol=1e-4, atol=1e-5)
    t_chain = best(lambda: chain.chain(x, y), repeat)
    t_copy = best(lambda: copy.copy(x), repeat)
    print(f"elementwise chain {size} f32: mlkit {t_chain * 1e3:.2f} ms, plain device copy "
          f"{t_copy * 1e3:.2f} ms, copy/chain {t_copy / t_chain:.2f}x")  # fmt: skip

    rows = 1024 if quick else 4096
    m = rng.standard_normal((rows, rows), dtype=np.float32)
    reduce, copy2 = compile_(ROW_SUM.format(n=rows)), compile_(COPY.format(shape=f"{rows}x{rows}"))
    np.testing.assert_allclose(reduce.row_sum(m), m.sum(axis=1), rtol=1e-3, atol=1e-2)
    t_sum = best(lambda: reduce.row_sum(m), repeat)
    t_copy2 = best(lambda: copy2.copy(m), repeat)
    t_numpy = best(lambda: m.sum(axis=1), repeat)
    print(f"row sum {rows}x{rows} f32: mlkit {t_sum * 1e3:.2f} ms, plain device copy "
          f"{t_copy2 * 1e3:.2f} ms, copy/sum {t_copy2 / t_sum:.2f}x, numpy (host) "
          f"{t_numpy * 1e3:.2f} ms, numpy/mlkit {t_numpy / t_sum:.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
