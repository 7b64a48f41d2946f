"""Compile speed against xdsl-opt, measured in the same run (issue 16).

On a generated program of 100 functions of ~100 tensor/linalg/arith ops
(~11k lines) it prints, as CPU time per run (user + system of the child,
steadier than wall time on a shared machine; best and median of the runs):

* ``xdsl-opt`` parse+print and ``mlkit-opt`` parse+print (target <= 1.0x);
* ``mlkit-opt -p 'builtin.module(lower-to-cpu)' --emit=llvm`` against
  ``xdsl-opt``'s parse+print (target <= 3x);
* the per-pass split of that lowering (``--mlir-timing``);
* ``mlkit.compile`` of a 20-line tensor kernel: cold (modules imported, no
  cache), a disk-cache hit in the same process (its memory cache cleared),
  and the first call of a fresh process that finds the entry on disk.

    python benchmarks/compile_speed.py [--runs N] [--functions N]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from startup import cpu_per_run  # noqa: E402 - the same CPU-time measure as startup.py

KERNEL = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @kernel(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>,
                  %bias: tensor<32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<64x32xf32>, tensor<32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
"""

T = "tensor<8x8xf32>"


def function(i: int, chains: int = 2, elementwise: int = 4, scalars: int = 80) -> list[str]:
    """One function of ~100 ops: ``chains`` independent chains, each a
    linalg.generic and ``elementwise`` arith ops on tensors, and ``scalars``
    arith ops on scalars, each chain and the last scalar returned. Short
    chains: fusing a chain clones its body once per op fused, so a long one
    would measure fusion's (upstream's too) quadratic cost; and each chain
    becomes a vectorized loop nest, so that a few of them weigh as much as
    all the scalar ops."""
    lines = [
        f"func.func @f{i}(%a: {T}, %b: {T}, %p: f32, %q: i64) -> "
        f"({', '.join([T] * chains)}, f32, i64) {{",
        f"  %c = arith.constant {i}.5 : f32",
        f"  %e = tensor.empty() : {T}",
    ]
    results = []
    for j in range(chains):
        lines += [
            f"  %g{j} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = "
            f'["parallel", "parallel"]}} ins(%a, %b : {T}, {T}) outs(%e : {T}) {{',
            "  ^bb0(%x: f32, %y: f32, %o: f32):",
            "    %s = arith.addf %x, %y : f32",
            "    %m = arith.mulf %s, %c : f32",
            "    linalg.yield %m : f32",
            f"  }} -> {T}",
        ]
        last = f"%g{j}"
        for k in range(elementwise):
            op = ("arith.addf", "arith.mulf", "arith.subf", "arith.maximumf")[(j + k) % 4]
            lines.append(f"  %w{j}_{k} = {op} {last}, %b : {T}")
            last = f"%w{j}_{k}"
        results.append(last)
    f, n = "%p", "%q"
    for k in range(scalars):
        if k % 2:
            op = ("arith.addf", "arith.mulf", "arith.subf", "arith.divf")[k % 4 // 2 + 2 * (k % 8 // 4)]
            lines.append(f"  %f{k} = {op} {f}, %p : f32")
            f = f"%f{k}"
        else:
            op = ("arith.addi", "arith.muli", "arith.xori", "arith.subi")[k % 8 // 2]
            lines.append(f"  %n{k} = {op} {n}, %q : i64")
            n = f"%n{k}"
    lines += [
        f"  return {', '.join(results)}, {f}, {n} : {', '.join([T] * chains)}, f32, i64",
        "}",
    ]
    return lines


def program(functions: int) -> str:
    lines = ["#id = affine_map<(d0, d1) -> (d0, d1)>"]
    for i in range(functions):
        lines += function(i)
    return "\n".join(lines) + "\n"


def measure(cmd: list[str], runs: int) -> list[float]:
    """CPU seconds of each of ``runs`` runs of ``cmd`` (which must succeed)."""
    return [cpu_per_run(cmd, 1) for _ in range(runs)]


def summary(name: str, times: list[float]) -> str:
    return f"{name:44s} best {min(times):7.3f} s  median {statistics.median(times):7.3f} s"


def ratio(name: str, num: list[float], den: list[float], target: float) -> str:
    best = min(num) / min(den)
    median = statistics.median(num) / statistics.median(den)
    verdict = "ok" if best <= target else "over"
    return f"{name:44s} best {best:5.2f}x  median {median:5.2f}x  (target <= {target}x: {verdict})"


def pass_times(mlkit_opt: str, path: str) -> list[tuple[str, float]]:
    """The entries of ``--mlir-timing`` for the lowering, in pipeline order."""
    out = subprocess.run(
        [mlkit_opt, "-p", "builtin.module(lower-to-cpu)", "--emit=llvm", "--mlir-timing", path],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows: list[tuple[str, float]] = []
    for line in out.stderr.splitlines():
        m = re.match(r"\s*([0-9.]+)\s+\(\s*[0-9.]+%\)  (.*\S)\s*$", line)
        if m and m.group(2) not in ("Total", "Rest"):
            rows.append((m.group(2), float(m.group(1))))  # nested passes stay indented
    return rows


FRESH_HIT = """
import sys, time
import mlkit, mlkit.api.compile
from mlkit.api.compile import default_compiler
source = sys.stdin.read()
t = time.perf_counter()
mlkit.compile(source)
print(time.perf_counter() - t, default_compiler().stats.disk_hits)
"""


def compile_api(runs: int) -> list[str]:
    """Cold compile and disk-cache hits of KERNEL through ``mlkit.compile``."""
    cache = tempfile.mkdtemp(prefix="mlkit-bench-")
    os.environ["MLKIT_CACHE_DIR"] = cache
    import mlkit
    from mlkit.api.compile import default_compiler

    compiler = default_compiler()
    mlkit.compile(KERNEL.replace("@kernel", "@warm"), cache=False)  # imports the passes
    cold = []
    for _ in range(runs):
        t = time.perf_counter()
        mlkit.compile(KERNEL, cache=False)
        cold.append(time.perf_counter() - t)
    mlkit.compile(KERNEL)  # the disk entry
    hits = []
    for _ in range(max(runs, 5)):
        compiler.cache.memory.clear()
        t = time.perf_counter()
        mlkit.compile(KERNEL)
        hits.append(time.perf_counter() - t)
    fresh = []
    env = dict(os.environ, MLKIT_CACHE_DIR=cache)
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", FRESH_HIT], input=KERNEL, env=env,
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        seconds, disk_hits = out.stdout.split()
        if disk_hits == "1":  # else mlkit's sources changed meanwhile: another key
            fresh.append(float(seconds))
    shutil.rmtree(cache, ignore_errors=True)

    def ms(times: list[float]) -> str:
        if not times:
            return "n/a"
        return f"best {min(times) * 1e3:6.1f} ms  median {statistics.median(times) * 1e3:6.1f} ms"

    return [
        f"{'mlkit.compile, 20-line kernel, cold':44s} {ms(cold)}  (target <= 300 ms)",
        f"{'  disk-cache hit, same process':44s} {ms(hits)}  (target <= 30 ms)",
        f"{'  disk-cache hit, first call of a process':44s} {ms(fresh)}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--functions", type=int, default=100)
    args = parser.parse_args()
    tools = {name: shutil.which(name) for name in ("mlkit-opt", "xdsl-opt")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        sys.exit(f"not found: {', '.join(missing)}")
    xdsl_opt, mlkit_opt = tools["xdsl-opt"], tools["mlkit-opt"]
    assert xdsl_opt is not None and mlkit_opt is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.mlir")
        text = program(args.functions)
        with open(path, "w") as f:
            f.write(text)
        print(f"program: {args.functions} functions, {text.count(chr(10))} lines; "
              f"{args.runs} runs each, CPU time")  # fmt: skip
        xdsl, mlkit, lower = [], [], []
        for _ in range(args.runs):  # interleaved, so that load shifts hit all alike
            xdsl += measure([xdsl_opt, path], 1)
            mlkit += measure([mlkit_opt, path], 1)
            lower += measure([mlkit_opt, "-p", "builtin.module(lower-to-cpu)", "--emit=llvm", path], 1)
        print(summary("xdsl-opt parse+print", xdsl))
        print(summary("mlkit-opt parse+print", mlkit))
        print(summary("mlkit-opt lower-to-cpu --emit=llvm", lower))
        print(ratio("mlkit-opt / xdsl-opt parse+print", mlkit, xdsl, 1.0))
        print(ratio("lower-to-cpu --emit=llvm / xdsl parse+print", lower, xdsl, 3.0))
        print("per pass (--mlir-timing, wall seconds):")
        for name, seconds in pass_times(mlkit_opt, path):
            print(f"  {seconds:8.3f}  {name}")
    for line in compile_api(args.runs):
        print(line)


if __name__ == "__main__":
    main()
