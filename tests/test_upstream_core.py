"""Differential tests of the core dialects and passes against upstream MLIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from upstream_oracle import assert_upstream_reads_same_ir, mlkit_print, upstream_print

ROOT = Path(__file__).resolve().parent.parent

CORE_INPUTS = [
    ROOT / "examples" / "hello.mlir",
    ROOT / "lit_tests" / "Driver" / "roundtrip.mlir",
    ROOT / "lit_tests" / "Pipeline" / "nesting.mlir",
    ROOT / "lit_tests" / "Pipeline" / "flags.mlir",
    ROOT / "lit_tests" / "Driver" / "Inputs" / "module.mlir",
]


@pytest.mark.parametrize("path", CORE_INPUTS, ids=lambda p: p.name)
def test_upstream_reads_mlkit_output(path: Path) -> None:
    assert_upstream_reads_same_ir(path)


CSE_PROGRAM = """
func.func @f(%a: i32, %b: i32) -> (i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.muli %0, %1 : i32
  %3 = arith.muli %0, %1 : i32
  return %2, %3 : i32, i32
}
"""

FOLD_PROGRAM = """
func.func @g(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %c2, %c3 : i32
  %1 = arith.addi %x, %0 : i32
  %dead = arith.subi %c3, %c2 : i32
  return %1 : i32
}
"""


@pytest.mark.parametrize(
    ("program", "pipeline"),
    [
        (CSE_PROGRAM, "builtin.module(func.func(cse))"),
        (FOLD_PROGRAM, "builtin.module(func.func(canonicalize))"),
        (FOLD_PROGRAM, "builtin.module(func.func(cse,canonicalize))"),
    ],
)
def test_pass_matches_upstream(program: str, pipeline: str) -> None:
    ours = mlkit_print(program, pipeline=pipeline)
    assert upstream_print(ours) == upstream_print(program, pipeline=pipeline)
