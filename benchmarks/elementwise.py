"""Elementwise chains, softmax and GELU through ``mlkit.compile`` (the default
``lower-to-cpu``) against numpy and against a plain copy of the same bytes,
all measured in this run on one thread.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/elementwise.py [REPEAT] \
        [--scaling N]

``--scaling N`` instead times each program with mlkit's pool on 1 thread and
on N threads, in turns, and prints the speedup (numpy's ufuncs have one
thread either way).

Each program is written as separate ``linalg.generic`` ops, the way a
frontend emits them; fusion is the compiler's job. Prints, per program, the
best and median time of mlkit and numpy, the ratio numpy/mlkit (above 1 is
faster than numpy), and mlkit's time over a copy of the same bytes.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable

import numpy as np

N = 4 * 1024 * 1024
ROWS = COLS = 4096

UNARY = "affine_map<(d0) -> (d0)>"
MAP2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d0)>"


def _generic1(name: str, x: str, body: list[str], t: str = f"tensor<{N}xf32>") -> list[str]:
    """One elementwise generic over a 1-D tensor; ``body`` computes %r from %a."""
    return [
        f"  %{name}_e = tensor.empty() : {t}",
        f"  %{name} = linalg.generic {{indexing_maps = [{UNARY}, {UNARY}], "
        f'iterator_types = ["parallel"]}} ins(%{x} : {t}) outs(%{name}_e : {t}) {{',
        "  ^bb0(%a: f32, %o: f32):",
        *[f"    {line}" for line in body],
        "    linalg.yield %r : f32",
        f"  }} -> {t}",
    ]


def chain(name: str, stages: list[list[str]]) -> str:
    t = f"tensor<{N}xf32>"
    lines = [f"func.func @{name}(%x: {t}) -> {t} {{"]
    prev = "x"
    for i, body in enumerate(stages):
        lines += _generic1(f"s{i}", prev, body)
        prev = f"s{i}"
    lines += [f"  return %{prev} : {t}", "}"]
    return "\n".join(lines)


RELU_CHAIN = chain("relu_chain", [
    ["%c = arith.constant 1.5 : f32", "%d = arith.constant 0.25 : f32",
     "%m = arith.mulf %a, %c : f32", "%r = arith.addf %m, %d : f32"],
    ["%z = arith.constant 0.0 : f32", "%r = arith.maximumf %a, %z : f32"],
    ["%c = arith.constant 3.0 : f32", "%r = arith.mulf %a, %c : f32"],
])

TANH_CHAIN = chain("tanh_chain", [
    ["%c = arith.constant 0.25 : f32", "%d = arith.constant 0.125 : f32",
     "%m = arith.mulf %a, %c : f32", "%r = arith.addf %m, %d : f32"],
    ["%r = math.tanh %a : f32"],
    ["%r = math.exp %a : f32"],
])

M2 = f"tensor<{ROWS}x{COLS}xf32>"
V1 = f"tensor<{ROWS}xf32>"
SOFTMAX = f"""
func.func @softmax(%x: {M2}) -> {M2} {{
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : {V1}
  %mx0 = linalg.fill ins(%ninf : f32) outs(%e1 : {V1}) -> {V1}
  %mx = linalg.generic {{indexing_maps = [{MAP2}, {ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%x : {M2}) outs(%mx0 : {V1}) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }} -> {V1}
  %e2 = tensor.empty() : {M2}
  %ex = linalg.generic {{indexing_maps = [{MAP2}, {ROW}, {MAP2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %mx : {M2}, {V1}) outs(%e2 : {M2}) {{
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  }} -> {M2}
  %sm0 = linalg.fill ins(%zero : f32) outs(%e1 : {V1}) -> {V1}
  %sm = linalg.generic {{indexing_maps = [{MAP2}, {ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%ex : {M2}) outs(%sm0 : {V1}) {{
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }} -> {V1}
  %out = linalg.generic {{indexing_maps = [{MAP2}, {ROW}, {MAP2}], iterator_types = ["parallel", "parallel"]}}
      ins(%ex, %sm : {M2}, {V1}) outs(%e2 : {M2}) {{
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  }} -> {M2}
  return %out : {M2}
}}
"""

GELU = f"""
func.func @gelu(%x: {M2}) -> {M2} {{
  %e = tensor.empty() : {M2}
  %cube = linalg.generic {{indexing_maps = [{MAP2}, {MAP2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x : {M2}) outs(%e : {M2}) {{
  ^bb0(%a: f32, %o: f32):
    %k = arith.constant 0.044715 : f32
    %s = arith.constant 0.7978845608 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %t = arith.mulf %a3, %k : f32
    %u = arith.addf %a, %t : f32
    %r = arith.mulf %u, %s : f32
    linalg.yield %r : f32
  }} -> {M2}
  %th = linalg.generic {{indexing_maps = [{MAP2}, {MAP2}], iterator_types = ["parallel", "parallel"]}}
      ins(%cube : {M2}) outs(%e : {M2}) {{
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  }} -> {M2}
  %out = linalg.generic {{indexing_maps = [{MAP2}, {MAP2}, {MAP2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %th : {M2}, {M2}) outs(%e : {M2}) {{
  ^bb0(%a: f32, %t: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }} -> {M2}
  return %out : {M2}
}}
"""


def np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(np.float32(0.7978845608) * (x + np.float32(0.044715) * (x * x * x))))


def times(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm up (page faults, caches)
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeat", type=int, nargs="?", default=10)
    parser.add_argument("--scaling", type=int, default=0, metavar="N")
    args = parser.parse_args()
    from mlkit.runtime import threads

    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # numpy's elementwise ufuncs run on one thread anyway
        one_thread = contextlib.nullcontext()
    else:
        one_thread = threadpool_limits(1)
    with one_thread:
        if args.scaling:
            scaling(args.repeat, args.scaling)
        else:
            threads.set_num_threads(1)
            run(args.repeat)


def scaling(repeat: int, count: int) -> None:
    """Each program on 1 thread and on ``count``, in turns of three calls
    (after one unmeasured: a worker that slept through the other setting
    wakes up in it), ``repeat`` turns each."""
    import mlkit
    from mlkit.runtime import threads

    print(f"{'program':<24} {'1 thread best/median ms':>24} {f'{count} threads':>22} "
          f"{'speedup':>8}")
    for label, source, fname, x, _, _ in cases():
        fn = getattr(mlkit.compile(source), fname)
        runs: dict[int, list[float]] = {1: [], count: []}
        for _ in range(repeat):
            for n in runs:
                threads.set_num_threads(n)
                runs[n] += times(lambda: fn(x), 3)
        one, many = runs[1], runs[count]
        print(f"{label:<24} {min(one)*1e3:>11.2f}/{statistics.median(one)*1e3:<12.2f} "
              f"{min(many)*1e3:>10.2f}/{statistics.median(many)*1e3:<11.2f} "
              f"{min(one)/min(many):>7.2f}x")


def cases() -> list[tuple[str, str, str, np.ndarray, Callable[[np.ndarray], object], float]]:
    """(label, source, function, input, numpy's version, tolerance) of each program."""
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal(N, dtype=np.float32)
    x2 = rng.standard_normal((ROWS, COLS), dtype=np.float32)
    return [
        ("relu chain (3 ops, 4M)", RELU_CHAIN, "relu_chain", x1,
         lambda x: np.maximum(x * np.float32(1.5) + np.float32(0.25), 0) * np.float32(3), 1e-6),
        ("tanh chain (3 ops, 4M)", TANH_CHAIN, "tanh_chain", x1,
         lambda x: np.exp(np.tanh(x * np.float32(0.25) + np.float32(0.125))), 1e-5),
        ("softmax 4096x4096", SOFTMAX, "softmax", x2, np_softmax, 1e-5),
        ("gelu 4096x4096", GELU, "gelu", x2, np_gelu, 1e-5),
    ]


def run(repeat: int) -> None:
    import mlkit

    print(f"{'program':<24} {'mlkit best/median ms':>22} {'numpy best/median ms':>22} "
          f"{'numpy/mlkit':>11} {'mlkit/copy':>10}")
    for label, source, fname, x, ref, tol in cases():
        fn = getattr(mlkit.compile(source), fname)
        got, want = fn(x), ref(x)
        err = float(np.max(np.abs(got - want) / (1 + np.abs(want))))
        mine = times(lambda: fn(x), repeat)
        theirs = times(lambda: ref(x), repeat)
        dst = np.empty_like(x)
        copy = times(lambda: np.copyto(dst, x), repeat)
        print(f"{label:<24} {min(mine)*1e3:>10.2f}/{statistics.median(mine)*1e3:<10.2f} "
              f"{min(theirs)*1e3:>10.2f}/{statistics.median(theirs)*1e3:<10.2f} "
              f"{min(theirs)/min(mine):>10.2f}x {min(mine)/min(copy):>9.2f}x"
              + ("" if err <= tol else f"  WRONG: max rel error {err:.2e}"))


if __name__ == "__main__":
    main()
