"""The OpenMP synchronization ops (``omp.barrier``, ``omp.master``,
``omp.taskwait``, ``omp.taskyield``, ``omp.flush``) against upstream MLIR:
upstream reads mlkit's custom and generic output as the IR it reads from
the source."""

from __future__ import annotations

import pytest

from upstream_oracle import mlkit_print, upstream_print

SYNC = """
func.func @sync(%p: memref<i32>, %q: memref<f32>) {
  omp.barrier
  omp.master {
    omp.terminator
  }
  omp.taskwait
  omp.taskyield
  omp.flush
  omp.flush(%p : memref<i32>)
  omp.flush(%p, %q : memref<i32>, memref<f32>)
  return
}
"""


@pytest.mark.parametrize("generic", [False, True])
def test_upstream_reads_mlkit_output(generic: bool) -> None:
    assert upstream_print(mlkit_print(SYNC, generic=generic)) == upstream_print(SYNC)


def test_custom_form_is_upstreams() -> None:
    assert mlkit_print(SYNC).strip() == upstream_print(SYNC, generic=False).strip()
