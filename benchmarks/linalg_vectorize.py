"""``linalg-vectorize-loops``: ``lower-to-cpu`` with and without the pass,
against numpy, measured in this run on one thread.

    python benchmarks/linalg_vectorize.py [REPEAT] [VECTOR_BITS]

Programs (each ONE ``linalg.generic`` on memrefs, the output written in place):
- ``max(x * 1.5 + 0.25, 0) * 3`` over 4M f32;
- row sums of a 4096x1024 f32 matrix (an innermost reduction).
Prints best and median times, and numpy/mlkit (above 1: faster than numpy).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

N = 4 * 1024 * 1024
ROWS, COLS = 4096, 1024

CHAIN = f"""
func.func @chain(%x: memref<{N}xf32>, %y: memref<{N}xf32>) {{
  linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}}
      ins(%x : memref<{N}xf32>) outs(%y : memref<{N}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %c15 = arith.constant 1.5 : f32
    %c025 = arith.constant 0.25 : f32
    %z = arith.constant 0.0 : f32
    %c3 = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c15 : f32
    %s = arith.addf %m, %c025 : f32
    %r = arith.maximumf %s, %z : f32
    %t = arith.mulf %r, %c3 : f32
    linalg.yield %t : f32
  }}
  return
}}
"""

ROWSUM = f"""
func.func @rowsum(%x: memref<{ROWS}x{COLS}xf32>, %y: memref<{ROWS}xf32>) {{
  linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}}
      ins(%x : memref<{ROWS}x{COLS}xf32>) outs(%y : memref<{ROWS}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }}
  return
}}
"""


def pipeline(options: str | None) -> str:
    from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

    steps = LowerToCPU(microkernels=False, vectorize=False).pipeline()  # the scalar lowering
    if options is None:
        return f"builtin.module({steps})"
    anchor = "buffer-deallocation-pipeline,"
    vectorize = f"linalg-vectorize-loops{{{options}}}" if options else "linalg-vectorize-loops"
    return f"builtin.module({steps.replace(anchor, anchor + vectorize + ',', 1)})"


def best_median(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return min(runs), statistics.median(runs)


def main() -> None:
    import mlkit

    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    options = f"vector-bits={sys.argv[2]}" if len(sys.argv) > 2 else ""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(N, dtype=np.float32)
    y = np.empty_like(x)
    m = rng.standard_normal((ROWS, COLS), dtype=np.float32)
    s = np.empty(ROWS, np.float32)
    k15, k025, k3 = np.float32(1.5), np.float32(0.25), np.float32(3)

    def np_chain() -> None:
        np.multiply(np.maximum(x * k15 + k025, 0), k3, out=y)

    def np_chain_inplace() -> None:
        np.multiply(x, k15, out=y)
        np.add(y, k025, out=y)
        np.maximum(y, 0, out=y)
        np.multiply(y, k3, out=y)

    cases = [
        ("chain 4M f32", CHAIN, "chain", (x, y), np_chain, np_chain_inplace,
         lambda: np.maximum(x * k15 + k025, 0) * k3, y),
        ("rowsum 4096x1024 f32", ROWSUM, "rowsum", (m, s), lambda: np.sum(m, axis=1, out=s), None,
         lambda: m.sum(axis=1), s),
    ]
    print(f"{'program':<22} {'variant':<26} {'best ms':>9} {'median ms':>10} {'numpy/this':>10}")
    for label, source, name, args, ref, ref_inplace, expected, out in cases:
        results: list[tuple[str, float, float]] = []
        for variant, opts in (("vectorized" + (f" {options}" if options else ""), options),
                              ("plain lower-to-cpu", None)):
            fn = getattr(mlkit.compile(source, pipeline=pipeline(opts), cache=False), name)
            out.fill(0)
            fn(*args)
            np.testing.assert_allclose(out, expected(), rtol=1e-4, atol=1e-3)
            results.append((variant, *best_median(lambda: fn(*args), repeat)))
        results.append(("numpy", *best_median(ref, repeat)))
        if ref_inplace is not None:
            results.append(("numpy, in place (out=)", *best_median(ref_inplace, repeat)))
        numpy_best = results[-1 if ref_inplace is None else -2][1]
        for variant, best, median in results:
            print(f"{label:<22} {variant:<26} {best * 1e3:>9.2f} {median * 1e3:>10.2f} "
                  f"{numpy_best / best:>10.2f}")


if __name__ == "__main__":
    main()
