"""mlkit.compile on 4M- and 16M-element elementwise chains (16 and 64 MiB
of f32), called repeatedly: the result handed to numpy without a copy
(dropped at once, or kept until the next call returns, as ``r = f(x, w)``
in a loop does), written into ``out=``, and the same loop on a caller's
memref (no allocation at all), against numpy, all measured in this run;
then the same calls with the caching allocator keeping nothing
(``MLKIT_ALLOC_CACHE_BYTES=0``, in a second process). Best of several
calls, one thread, and the page faults per call.

    python benchmarks/results_memory.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

SIZES = (4 * 1024 * 1024, 16 * 1024 * 1024)
CHAIN = """
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %a : f32
    %t = arith.maximumf %s, %b : f32
    linalg.yield %t : f32
"""
SOURCE = f"""
#id = affine_map<(i) -> (i)>
func.func @dynamic(%x: tensor<?xf32>, %w: tensor<?xf32>) -> tensor<?xf32> {{
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%x, %w : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {{{CHAIN}  }} -> tensor<?xf32>
  return %r : tensor<?xf32>
}}
func.func @inplace(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>) {{
  linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}}
      ins(%x, %w : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) {{{CHAIN}  }}
  return
}}
"""


def best(fn, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def faults(fn, repeat: int = 5) -> float:
    """Minor page faults per call."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(repeat):
        fn()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / repeat


def measure() -> None:
    os.environ.setdefault("MLKIT_CACHE_DIR", tempfile.mkdtemp(prefix="mlkit-bench-"))
    import mlkit

    prog = mlkit.compile(SOURCE)
    f = prog.dynamic
    rng = np.random.default_rng(0)
    cache = os.environ.get("MLKIT_ALLOC_CACHE_BYTES", "default")
    print(f"MLKIT_ALLOC_CACHE_BYTES={cache}")
    for n in SIZES:
        x = rng.random(n, np.float32)
        w = rng.random(n, np.float32)
        y = np.empty_like(x)
        np.testing.assert_array_equal(f(x, w), np.maximum(x * w + x, w))
        held: list[np.ndarray] = [f(x, w)]

        def keep_previous() -> None:
            held[0] = f(x, w)  # the previous result dies only once this one exists

        rows = [
            ("result handed over, dropped", lambda: f(x, w)),
            ("result handed over, kept a call", keep_previous),
        ]
        try:
            f(x, w, out=y)
            rows.append(("out=", lambda: f(x, w, out=y)))
        except TypeError:  # an mlkit without out=
            pass
        rows.append(("memref argument, in place", lambda: prog.inplace(x, w, y)))

        def numpy_chain() -> np.ndarray:
            return np.maximum(np.add(np.multiply(x, w), x), w)

        def numpy_out() -> None:
            np.multiply(x, w, out=y)
            np.add(y, x, out=y)
            np.maximum(y, w, out=y)

        rows += [("numpy, fresh temporaries", numpy_chain), ("numpy, out=", numpy_out)]
        measured = [(label, best(fn), faults(fn)) for label, fn in rows]
        t_numpy = measured[-2][1]
        print(f"  {n} f32 elements ({n * 4 >> 20} MiB)")
        for label, t, per_call in measured:
            print(f"    {label:32s} {t * 1e3:7.2f} ms  ({t / t_numpy:4.2f}x numpy)  "
                  f"{per_call:6.0f} faults/call")  # fmt: skip
        del held


def main() -> None:
    if "--measure" in sys.argv:
        measure()
        return
    env = dict(os.environ, MLKIT_NUM_THREADS="1")
    for cache in (None, "0"):
        if cache is not None:
            env["MLKIT_ALLOC_CACHE_BYTES"] = cache
        subprocess.run([sys.executable, __file__, "--measure"], env=env, check=True)


if __name__ == "__main__":
    main()
