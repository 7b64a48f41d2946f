"""``lower-to-cpu`` on threads: parallel loops (row blocks of matmuls, chunks
of elementwise ops, rows of reductions) give the same bits with 1, 2 and 3
threads as without threads, and what numpy computes, on odd and dynamic
sizes; compiled functions may be called back to back and from several Python
threads at once; an object file carries the pool and runs in a C program.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import mlkit
from cpu_pipelines import own_compile_cache  # noqa: F401
from mlkit.runtime import threads

SERIAL = "builtin.module(lower-to-cpu{threads=false})"
rng = np.random.default_rng(5)


def threaded(n: int) -> str:
    return f"builtin.module(lower-to-cpu{{num-threads={n}}})"


def matmul_text(dynamic: bool, m: int, n: int, k: int) -> str:
    def t(*shape: int) -> str:
        return "memref<" + "x".join("?" if dynamic else str(s) for s in shape) + "xf32>"

    return f"""
func.func @mm(%a: {t(m, k)}, %b: {t(k, n)}, %c: {t(m, n)}) {{
  linalg.matmul ins(%a, %b : {t(m, k)}, {t(k, n)}) outs(%c : {t(m, n)})
  return
}}
"""


CHAIN = """
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %a = arith.constant 0.25 : f32
  %b = arith.constant 0.125 : f32
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    %s = arith.addf %m, %b : f32
    %t = math.tanh %s : f32
    %r = math.exp %t : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}
"""

ROWS = """
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rows(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.addf %v, %acc : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
"""


def run_matmul(pipeline: str, text: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    mlkit.compile(text, pipeline=pipeline).mm(a, b, c)
    return c


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("m,n,k", [(517, 389, 263), (129, 33, 70), (1, 40, 5)])
def test_matmul_same_bits_on_threads(dynamic: bool, m: int, n: int, k: int) -> None:
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    text = matmul_text(dynamic, m, n, k)
    serial = run_matmul(SERIAL, text, a, b)
    np.testing.assert_allclose(serial, a @ b, rtol=1e-4, atol=1e-4)
    for count in (1, 2, 3):
        assert np.array_equal(run_matmul(threaded(count), text, a, b), serial)


def test_matmul_default_pipeline_uses_threads() -> None:
    a = rng.standard_normal((300, 64)).astype(np.float32)
    b = rng.standard_normal((64, 48)).astype(np.float32)
    program = mlkit.compile(matmul_text(True, 300, 48, 64))
    assert "_mlkit_parallel_for" in program.llvm_ir
    c = np.zeros((300, 48), np.float32)
    program.mm(a, b, c)
    assert np.array_equal(c, run_matmul(SERIAL, matmul_text(True, 300, 48, 64), a, b))


@pytest.mark.parametrize("size", [40_003, 1 << 20, 8192 * 3 + 1])
def test_elementwise_chain_same_bits_on_threads(size: int) -> None:
    x = rng.standard_normal(size).astype(np.float32)
    serial = mlkit.compile(CHAIN, pipeline=SERIAL).chain(x)
    np.testing.assert_allclose(serial, np.exp(np.tanh(x * 0.25 + 0.125)), rtol=2e-6)
    for count in (1, 2, 3):
        assert np.array_equal(mlkit.compile(CHAIN, pipeline=threaded(count)).chain(x), serial)


def test_row_reduction_same_bits_on_threads() -> None:
    x = rng.standard_normal((1001, 333)).astype(np.float32)
    serial = mlkit.compile(ROWS, pipeline=SERIAL).rows(x)
    np.testing.assert_allclose(serial, x.sum(axis=1), rtol=1e-4, atol=1e-4)
    for count in (1, 2, 3):
        assert np.array_equal(mlkit.compile(ROWS, pipeline=threaded(count)).rows(x), serial)


def test_small_ops_stay_serial() -> None:
    program = mlkit.compile(matmul_text(False, 16, 16, 16))
    assert "_mlkit_parallel_for" not in program.llvm_ir


def test_back_to_back_and_concurrent_calls() -> None:
    program = mlkit.compile(CHAIN, num_threads=2)
    x = rng.standard_normal(50_000).astype(np.float32)
    expected = program.chain(x)
    for _ in range(1000):
        got = program.chain(x)
    assert np.array_equal(got, expected)
    failures: list[str] = []

    def worker(seed: int) -> None:
        local = np.random.default_rng(seed).standard_normal(70_001).astype(np.float32)
        want = mlkit.compile(CHAIN, pipeline=SERIAL).chain(local)
        for _ in range(50):
            if not np.array_equal(program.chain(local), want):
                failures.append(f"thread {seed}")
                return

    pool = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in pool), "a caller hung"
    assert not failures


def test_num_threads_argument_is_checked() -> None:
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="num_threads must be a positive integer"):
            mlkit.compile(CHAIN, num_threads=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lower-to-cpu\\{num-threads=N\\}"):
        mlkit.compile(CHAIN, pipeline=SERIAL, num_threads=2)


def test_runtime_thread_count_follows_setting() -> None:
    before = threads.get_num_threads()
    try:
        threads.set_num_threads(3)
        assert threads.get_num_threads() == 3
        x = rng.standard_normal(100_000).astype(np.float32)
        program = mlkit.compile(CHAIN)
        assert np.array_equal(program.chain(x), mlkit.compile(CHAIN, pipeline=SERIAL).chain(x))
    finally:
        threads.set_num_threads(before)


C_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
extern void fill(float *, float *, long, long, long);
int main(void) {
  long n = 100003;
  float *out = malloc(sizeof(float) * n);
  fill(out, out, 0, n, 1);
  double sum = 0;
  for (long i = 0; i < n; i++) sum += out[i];
  printf("%.1f\n", sum);
  return 0;
}
"""

FILL = """
func.func @fill(%o: memref<?xf32>) attributes {llvm.emit_c_interface} {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%o : memref<?xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %i, %c3 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  }
  return
}
"""


@pytest.mark.skipif(shutil.which("cc") is None or sys.platform != "linux", reason="needs cc")
def test_object_file_carries_the_pool(tmp_path: Path) -> None:
    source = tmp_path / "fill.mlir"
    source.write_text(FILL)
    obj = tmp_path / "fill.o"
    subprocess.run(
        [sys.executable, "-m", "mlkit.tools.opt", str(source), "-p",
         "builtin.module(lower-to-cpu)", "--emit=obj", "-o", str(obj)],
        check=True,
    )  # fmt: skip
    main = tmp_path / "main.c"
    main.write_text(C_MAIN)
    exe = tmp_path / "fill"
    subprocess.run(["cc", str(main), str(obj), "-o", str(exe), "-lpthread", "-lm"], check=True)
    for count in ("1", "2"):
        done = subprocess.run(
            [str(exe)], capture_output=True, text=True, check=True, timeout=60,
            env={"MLKIT_NUM_THREADS": count},
        )  # fmt: skip
        assert done.stdout.strip() == "100002.0"  # 33334 ones and 33334 twos
