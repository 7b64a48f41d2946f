"""reconcile-unrealized-casts against upstream."""

from __future__ import annotations

from llvm_lowering_oracle import same_after_normalizing
from upstream_oracle import mlkit_print, upstream_print

CASTS = """
func.func @f(%a: i64) -> (index, i32) {
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  %2 = builtin.unrealized_conversion_cast %1 : i64 to index
  %3 = builtin.unrealized_conversion_cast %a : i64 to i32
  %4 = builtin.unrealized_conversion_cast %a : i64 to f32
  %5 = builtin.unrealized_conversion_cast %4 : f32 to i32
  %6 = builtin.unrealized_conversion_cast %2 : index to i64
  %7 = llvm.add %6, %a : i64
  %8 = builtin.unrealized_conversion_cast %7 : i64 to index
  return %8, %5 : index, i32
}
"""


def test_same_ir_as_upstream() -> None:
    pipeline = "builtin.module(reconcile-unrealized-casts)"
    # no normalization: canonicalize would fold the casts itself
    ours = upstream_print(mlkit_print(CASTS, pipeline=pipeline))
    theirs = upstream_print(CASTS, pipeline=pipeline)
    assert ours == theirs
    assert same_after_normalizing(CASTS, pipeline)[0] == same_after_normalizing(CASTS, pipeline)[1]
