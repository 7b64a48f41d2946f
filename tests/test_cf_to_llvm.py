"""convert-cf-to-llvm against upstream: branches with converted block
arguments, switch, and assert (message global, puts, abort)."""

from __future__ import annotations

import re

from llvm_lowering_oracle import same_after_normalizing


def _same(pipeline: str) -> tuple[str, str]:
    # upstream numbers the second and later message globals with a counter
    # that lives as long as the process: compare them up to that number
    ours, theirs = same_after_normalizing(PROGRAM, pipeline)
    return re.sub(r"assert_msg_\d+", "assert_msg_N", ours), re.sub(r"assert_msg_\d+", "assert_msg_N", theirs)

PROGRAM = """
func.func @f(%a: index, %c: i1, %b: i32, %m: memref<4xf32>) -> index {
  %z = arith.constant 0 : index
  cf.cond_br %c, ^bb1(%a : index), ^bb2(%m : memref<4xf32>)
^bb1(%i: index):
  cf.assert %c, "first"
  cf.switch %b : i32, [default: ^bb2(%m : memref<4xf32>), 3: ^bb3(%i : index), -1: ^bb3(%z : index)]
^bb2(%mm: memref<4xf32>):
  cf.assert %c, "second"
  return %a : index
^bb3(%k: index):
  %s = arith.addi %k, %k : index
  return %s : index
}
"""


def test_same_ir_as_upstream() -> None:
    ours, theirs = _same("builtin.module(convert-cf-to-llvm)")
    assert ours == theirs


def test_index_bitwidth() -> None:
    ours, theirs = _same("builtin.module(convert-cf-to-llvm{index-bitwidth=32})")
    assert ours == theirs
