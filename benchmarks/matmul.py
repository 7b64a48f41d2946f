"""f32 matmul (and a dense layer ``max(x @ w + b, 0)``) through ``mlkit.compile``
against numpy, both on the same number of threads, measured in this run.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/matmul.py \
        [--pipeline TEXT] [--microkernel[=OPTIONS]] [--sizes 512,1024,2048] [--repeat 5] [--dense] \
        [--threads N]

``--threads`` (default 1) sets both mlkit's thread pool and numpy's BLAS
(threadpoolctl) to N threads; 0 leaves both at their defaults (all cores).
With threads, each side's runs come in a row (see :func:`timings`).

``--pipeline`` is the pipeline text (default ``builtin.module(lower-to-cpu)``).
``--microkernel`` inserts ``linalg-matmul-to-microkernel`` (with OPTIONS, e.g.
``mr=8 kc=256``) right after ``buffer-deallocation-pipeline`` of
``lower-to-cpu``, for as long as ``lower-to-cpu`` does not run it itself.
``--plain`` also times the pipeline without the pass where it is
cheap (512 only). The programs are written on tensors, as a frontend emits
them (``tensor.empty``, ``linalg.fill``, ``linalg.matmul``), and return a new
array, as ``a @ b`` does; mlkit and numpy run in turns. Prints GFLOP/s of the
best and the median run and ``x numpy``: numpy's time over mlkit's, best runs
(above 1: mlkit is faster), also in CPU time, which a busy machine disturbs
less.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

DEFAULT_PIPELINE = "builtin.module(lower-to-cpu)"
PLAIN_PIPELINE = "builtin.module(lower-to-cpu{microkernels=false})"


def matmul_source(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @matmul(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %c = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %r = linalg.matmul ins(%a, %b : {t}, {t}) outs(%c : {t}) -> {t}
  return %r : {t}
}}
"""


def dense_source(n: int) -> str:
    t, v = f"tensor<{n}x{n}xf32>", f"tensor<{n}xf32>"
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    row = "affine_map<(d0, d1) -> (d1)>"
    return f"""
func.func @dense(%x: {t}, %w: {t}, %bias: {v}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %c = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %y = linalg.matmul ins(%x, %w : {t}, {t}) outs(%c : {t}) -> {t}
  %o = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{ident}, {row}, {ident}],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%y, %bias : {t}, {v}) outs(%o : {t}) {{
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }} -> {t}
  return %r : {t}
}}
"""


def with_microkernel(options: str) -> str:
    from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

    steps = LowerToCPU(microkernels=False).pipeline()
    anchor = "buffer-deallocation-pipeline,"
    step = "linalg-matmul-to-microkernel" + (f"{{{options}}}" if options else "")
    return f"builtin.module({steps.replace(anchor, anchor + step + ',', 1)})"


def timings(
    fns: list[Callable[[], object]], repeat: int, grouped: bool = False
) -> list[tuple[float, float, float]]:
    """Best and median wall-clock seconds, and best CPU seconds, of each of
    ``fns``, run in turns so that load from elsewhere on the machine falls on
    all of them alike (CPU time leaves out the time the process waits for a
    core on a busy machine). ``grouped`` runs each ``repeat`` times in a row
    (after one unmeasured call and a pause), twice over: with threads, a
    BLAS's workers keep spinning for a while after its call and would take
    the cores from the next one's threads."""
    runs: list[list[tuple[float, float]]] = [[] for _ in fns]
    for fn in fns:
        fn()
    rounds = [(fn, times) for fn, times in zip(fns, runs)]
    schedule = (
        [[item] * (repeat + 1) for _ in range(2) for item in rounds]
        if grouped
        else [rounds] * repeat
    )
    for batch in schedule:
        if grouped:
            time.sleep(0.3)  # OpenBLAS's workers spin up to 2^28 cycles before they sleep
        for k, (fn, times) in enumerate(batch):
            start, cpu = time.perf_counter(), time.process_time()
            fn()
            if not (grouped and k == 0):
                times.append((time.perf_counter() - start, time.process_time() - cpu))
    return [
        (min(w for w, _ in t), statistics.median(w for w, _ in t), min(c for _, c in t))
        for t in runs
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--microkernel", nargs="?", const="", default=None, metavar="OPTIONS")
    parser.add_argument("--sizes", default="512,1024,2048")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dense", action="store_true", help="also the dense layer at 1024")
    parser.add_argument("--plain", action="store_true", help="also plain lower-to-cpu at 512")
    parser.add_argument("--threads", type=int, default=1, help="threads of both (0: defaults)")
    args = parser.parse_args()

    import mlkit
    from threadpoolctl import threadpool_limits

    from mlkit.runtime import threads

    if args.threads > 0:
        threads.set_num_threads(args.threads)

    pipeline = with_microkernel(args.microkernel) if args.microkernel is not None else args.pipeline
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = np.random.default_rng(0)
    rows: list[tuple[str, float, float, float, float, float]] = []
    with threadpool_limits(args.threads if args.threads > 0 else None):
        cases: list[tuple[str, str, str, int, str]] = [
            (f"matmul {n}^3", matmul_source(n), "matmul", n, pipeline) for n in sizes
        ]
        if args.plain:
            cases.append(("matmul 512^3 plain", matmul_source(512), "matmul", 512, PLAIN_PIPELINE))
        if args.dense:
            cases.append(("dense 1024 relu", dense_source(1024), "dense", 1024, pipeline))
        for label, source, name, n, pipe in cases:
            fn = getattr(mlkit.compile(source, pipeline=pipe, cache=False), name)
            a = rng.standard_normal((n, n), dtype=np.float32)
            b = rng.standard_normal((n, n), dtype=np.float32)
            if name == "dense":
                bias = rng.standard_normal(n, dtype=np.float32)
                call: Callable[[], object] = lambda: fn(a, b, bias)  # noqa: E731
                ref: Callable[[], object] = lambda: np.maximum(a @ b + bias, 0)  # noqa: E731
            else:
                call = lambda: fn(a, b)  # noqa: E731
                ref = lambda: a @ b  # noqa: E731
            np.testing.assert_allclose(call(), ref(), rtol=1e-3, atol=1e-2 * np.sqrt(n))
            flops = 2.0 * n**3
            repeat = max(1, args.repeat // 3) if "plain" in label else args.repeat
            (best, median, cpu), (np_best, np_median, np_cpu) = timings(
                [call, ref], repeat, grouped=args.threads != 1
            )
            rows.append((label, flops / best, flops / median, flops / np_best, flops / np_median,
                         np_cpu / cpu))
    print(f"pipeline: {pipeline if len(pipeline) < 100 else pipeline[:97] + '...'}")
    print(f"threads: mlkit {threads.get_num_threads()}, numpy "
          f"{args.threads if args.threads > 0 else 'default'}")
    print(f"{'program':<22} {'mlkit GF/s best':>15} {'median':>8} {'numpy GF/s best':>15} "
          f"{'median':>8} {'x numpy':>8} {'(cpu time)':>10}")
    for label, best, median, np_best, np_median, cpu_ratio in rows:
        print(f"{label:<22} {best / 1e9:>15.1f} {median / 1e9:>8.1f} {np_best / 1e9:>15.1f} "
              f"{np_median / 1e9:>8.1f} {best / np_best:>8.2f} {cpu_ratio:>10.2f}")


if __name__ == "__main__":
    main()
