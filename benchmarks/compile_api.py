"""mlkit.compile: a 256x256 f32 matmul against numpy, and a cache hit
(memory and disk) against a cold compile, all measured in this run.

    python benchmarks/compile_api.py
"""

from __future__ import annotations

import tempfile
import time

import numpy as np

N = 256
SOURCE = f"""
func.func @matmul(%a: memref<{N}x{N}xf32>, %b: memref<{N}x{N}xf32>, %c: memref<{N}x{N}xf32>) {{
  linalg.matmul ins(%a, %b : memref<{N}x{N}xf32>, memref<{N}x{N}xf32>) outs(%c : memref<{N}x{N}xf32>)
  return
}}
"""


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    import os

    os.environ["MLKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="mlkit-bench-")
    import mlkit
    from mlkit.api.compile import default_compiler

    t = time.perf_counter()
    prog = mlkit.compile(SOURCE)
    cold = time.perf_counter() - t
    hit = best(lambda: mlkit.compile(SOURCE), 20)

    def disk() -> None:
        default_compiler().cache.memory.clear()
        mlkit.compile(SOURCE)

    disk_hit = best(disk, 3)

    rng = np.random.default_rng(0)
    a = rng.random((N, N), np.float32)
    b = rng.random((N, N), np.float32)
    c = np.zeros((N, N), np.float32)
    prog.matmul(a, b, c)
    assert np.allclose(c, a @ b, rtol=1e-4)
    t_mlkit = best(lambda: prog.matmul(a, b, c), 10)
    t_numpy = best(lambda: a @ b, 10)

    print(
        f"matmul {N}x{N} f32: mlkit {t_mlkit * 1e3:.3f} ms, numpy {t_numpy * 1e3:.3f} ms, "
        f"ratio mlkit/numpy {t_mlkit / t_numpy:.1f}x"
    )
    print(
        f"compile: cold {cold * 1e3:.1f} ms, memory cache hit {hit * 1e6:.1f} us "
        f"(cold/hit {cold / hit:.0f}x), disk cache hit {disk_hit * 1e3:.1f} ms "
        f"(cold/disk {cold / disk_hit:.1f}x)"
    )


if __name__ == "__main__":
    main()
