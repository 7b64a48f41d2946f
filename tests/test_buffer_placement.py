"""``promote-buffers-to-stack``, ``buffer-hoisting`` and ``buffer-loop-hoisting``
against upstream MLIR, and in ``lower-to-cpu``.

- Every case of their lit tests gives exactly the IR upstream's pass gives.
- Run before deallocation in ``lower-to-cpu``, the small and hoisted buffers of
  a program compute numpy's numbers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from upstream_oracle import mlkit_print, upstream_print

import mlkit

LIT = Path(__file__).parent.parent / "lit_tests" / "Transforms"
SUITES = {
    "promote-buffers-to-stack": LIT / "promote-buffers-to-stack.mlir",
    "buffer-hoisting": LIT / "buffer-hoisting.mlir",
    "buffer-loop-hoisting": LIT / "buffer-loop-hoisting.mlir",
}
OPTIONS = ["", "{max-alloc-size-in-bytes=4096 max-rank-of-allocated-memref=2}"]

CASES = [
    pytest.param(name, index, options, id=f"{name}{options}-{index}")
    for name, path in SUITES.items()
    for index in range(len(path.read_text().split("// -----")))
    for options in (OPTIONS if name == "promote-buffers-to-stack" else [""])
]


@pytest.mark.parametrize(("name", "index", "options"), CASES)
def test_matches_upstream(name: str, index: int, options: str) -> None:
    text = SUITES[name].read_text().split("// -----")[index]
    pipeline = f"builtin.module(func.func({name}{options}))"
    ours = mlkit_print(text, pipeline=pipeline, unregistered=True)
    theirs = upstream_print(text, generic=False, pipeline=pipeline, unregistered=True)
    assert upstream_print(ours, generic=False, unregistered=True) == theirs, ours


PROGRAM = """
func.func @scratch(%x: tensor<6x32xf32>) -> tensor<6x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x32xf32>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %e) -> tensor<6x32xf32> {
    %row = tensor.extract_slice %x[%i, 0] [1, 32] [1, 1] : tensor<6x32xf32> to tensor<32xf32>
    %t = tensor.empty() : tensor<32xf32>
    %sq = linalg.mul ins(%row, %row : tensor<32xf32>, tensor<32xf32>) outs(%t : tensor<32xf32>) -> tensor<32xf32>
    %s = linalg.add ins(%sq, %row : tensor<32xf32>, tensor<32xf32>) outs(%t : tensor<32xf32>) -> tensor<32xf32>
    %next = tensor.insert_slice %s into %acc[%i, 0] [1, 32] [1, 1] : tensor<32xf32> into tensor<6x32xf32>
    scf.yield %next : tensor<6x32xf32>
  }
  return %r : tensor<6x32xf32>
}
"""


def test_lower_to_cpu_puts_small_temporaries_on_the_stack() -> None:
    from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

    steps = LowerToCPU().pipeline()
    assert steps.index("promote-buffers-to-stack") < steps.index("buffer-deallocation-pipeline")
    stages = mlkit_print(
        PROGRAM,
        pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries},"
        "func.func(buffer-hoisting,buffer-loop-hoisting,promote-buffers-to-stack))",
    )
    assert "memref.alloca() {alignment = 64 : i64} : memref<32xf32>" in stages, stages


@pytest.mark.parametrize("pipeline", ["lower-to-cpu", "lower-to-cpu{fusion=false vectorize=false}"])
def test_program_with_stack_buffers_computes_numpy(pipeline: str) -> None:
    x = np.random.default_rng(1).standard_normal((6, 32), dtype=np.float32)
    out = mlkit.compile(PROGRAM, pipeline=f"builtin.module({pipeline})").scratch(x)
    np.testing.assert_allclose(out, x * x + x, rtol=1e-6)
