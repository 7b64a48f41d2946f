"""mlkit.compile(target="cuda"): a 1024x1024 f32 matmul through lower-to-cuda
against numpy on the host, both measured in this run. The GPU call includes
staging the arguments in managed memory and copying the result out.

    python benchmarks/gpu_matmul.py

Without a usable CUDA GPU it says so and exits 0.
"""

from __future__ import annotations

import time

import numpy as np
from elementwise import times
from matmul import matmul_source

N = 1024
SOURCE = matmul_source(N)


def main() -> None:
    import mlkit
    from mlkit.runtime import cuda

    if not cuda.available():
        try:
            cuda.current()
        except cuda.CudaUnavailable as exc:
            print(f"gpu_matmul: skipped: {exc}")
        return
    t = time.perf_counter()
    prog = mlkit.compile(SOURCE, target="cuda", cache=False)
    cold = time.perf_counter() - t
    rng = np.random.default_rng(0)
    a = rng.random((N, N), np.float32)
    b = rng.random((N, N), np.float32)
    np.testing.assert_allclose(prog.matmul(a, b), a @ b, rtol=1e-3)
    t_gpu = min(times(lambda: prog.matmul(a, b), 5))
    t_numpy = min(times(lambda: a @ b, 5))
    print(
        f"matmul {N}x{N} f32: mlkit cuda {t_gpu * 1e3:.2f} ms, numpy (host) "
        f"{t_numpy * 1e3:.2f} ms, ratio mlkit/numpy {t_gpu / t_numpy:.2f}x; compile {cold:.2f} s"
    )


if __name__ == "__main__":
    main()
