"""Differential tests of mlkit's ``bufferization`` dialect against upstream MLIR:
the ops file reads the same in upstream after mlkit prints it, every invalid
chunk is rejected by upstream too, and ``dealloc_tensor`` bufferizes to the
``memref.dealloc`` upstream's one-shot-bufferize writes."""

from __future__ import annotations

import re

from upstream_oracle import dialect_differential_tests, mlkit_print, upstream_print

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = (
    dialect_differential_tests("bufferization")
)

DEALLOC = """
func.func @f(%n: index, %t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %x = tensor.extract %a[%c0] : tensor<?xf32>
  bufferization.dealloc_tensor %a : tensor<?xf32>
  bufferization.dealloc_tensor %t : tensor<4xf32>
  return %x : f32
}
"""


def _memref_ops(printed: str) -> list[str]:
    """The memref ops of a printed module, SSA names aside."""
    return [
        re.sub(r"%[\w#]+", "%v", line.strip())
        for line in printed.splitlines()
        if "memref." in line and "func.func" not in line
    ]


def test_dealloc_tensor_bufferizes_as_upstream() -> None:
    pipeline = "builtin.module(one-shot-bufferize{bufferize-function-boundaries})"
    ours = mlkit_print(DEALLOC, pipeline=pipeline)
    theirs = upstream_print(DEALLOC, generic=False, pipeline=pipeline)
    assert "bufferization.dealloc_tensor" not in ours
    assert _memref_ops(ours) == _memref_ops(theirs)
