"""``mlkit.compile(..., runtime_checks=True)``: an out-of-bounds access or a
cast to the wrong size raises :class:`mlkit.RuntimeCheckError` with upstream's
message and the op's location, and the function (and the process) stays
usable; calls in bounds give their results; a disk-cache hit keeps the checks.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest

import mlkit
from cpu_pipelines import own_compile_cache  # noqa: F401

SOURCE = """
func.func @get(%m: memref<?xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<?xf32>
  return %x : f32
}
func.func @put(%m: memref<?x3xf32>, %i: index, %j: index, %v: f32) {
  memref.store %v, %m[%i, %j] : memref<?x3xf32>
  return
}
func.func @as_four(%m: memref<?xf32>) -> f32 {
  %c = memref.cast %m : memref<?xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %c[%c0] : memref<4xf32>
  return %x : f32
}
"""


@pytest.fixture(scope="module")
def program() -> object:
    return mlkit.compile(SOURCE, runtime_checks=True)


def test_in_bounds_calls_run(program: object) -> None:
    a = np.arange(5, dtype=np.float32)
    assert program.get(a, 4) == 4.0
    m = np.zeros((2, 3), np.float32)
    program.put(m, 1, 2, 7.5)
    assert m[1, 2] == 7.5
    assert program.as_four(np.arange(4, dtype=np.float32)) == 0.0


def test_out_of_bounds_load_raises(program: object) -> None:
    a = np.arange(5, dtype=np.float32)
    for index in (5, -1, 1 << 40):
        with pytest.raises(mlkit.RuntimeCheckError) as info:
            program.get(a, index)
        message = str(info.value)
        assert "ERROR: Runtime op verification failed" in message
        assert "^ out-of-bounds access" in message
        assert 'Location: loc("<mlkit.compile>":3:3)' in message
    assert program.get(a, 2) == 2.0  # still usable


def test_store_and_cast_checks(program: object) -> None:
    with pytest.raises(mlkit.RuntimeCheckError, match="out-of-bounds access"):
        program.put(np.zeros((2, 3), np.float32), 0, 3, 1.0)
    with pytest.raises(mlkit.RuntimeCheckError, match="size mismatch of dim 0"):
        program.as_four(np.zeros(5, np.float32))


def test_checks_from_several_threads(program: object) -> None:
    a = np.arange(5, dtype=np.float32)
    failures: list[str] = []

    def worker(k: int) -> None:
        for n in range(200):
            bad = (n + k) % 2 == 0
            try:
                value = program.get(a, 9 if bad else 3)
                if bad or value != 3.0:
                    failures.append(f"thread {k}: {value}")
            except mlkit.RuntimeCheckError:
                if not bad:
                    failures.append(f"thread {k}: raised in bounds")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not failures


def test_disk_cache_hit_keeps_the_checks() -> None:
    compiler = mlkit.api.compile.default_compiler()
    mlkit.compile(SOURCE, runtime_checks=True)
    compiler.cache.memory.clear()
    again = mlkit.compile(SOURCE, runtime_checks=True)
    with pytest.raises(mlkit.RuntimeCheckError):
        again.get(np.zeros(2, np.float32), 2)


def test_without_checks_the_program_is_unchanged() -> None:
    plain = mlkit.compile(SOURCE)
    assert "cf.assert" not in plain.llvm_ir and "Runtime op verification" not in plain.llvm_ir
    assert "Runtime op verification" in mlkit.compile(SOURCE, runtime_checks=True).llvm_ir


def test_checks_only_for_the_cpu() -> None:
    with pytest.raises(ValueError, match="runtime_checks is for the cpu target"):
        mlkit.compile(SOURCE, runtime_checks=True, target="cuda")


def test_a_failed_check_without_a_guard_aborts() -> None:
    """The lowered code alone (no guard) aborts, as upstream's does."""
    script = (
        "import numpy as np, mlkit\n"
        f"p = mlkit.compile({SOURCE!r}, pipeline='builtin.module(lower-to-cpu{{runtime-checks}})')\n"
        "p.get(np.zeros(2, np.float32), 5)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "out-of-bounds access" in done.stdout
