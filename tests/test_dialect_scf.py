"""Differential tests of mlkit's ``scf`` dialect against upstream MLIR.

The ops file must print (custom and generic) as IR upstream reads the same way,
every chunk of the invalid file must be rejected by upstream too, and the ops
mlkit subclasses must still be instances of xDSL's classes, which passes match.
"""

from __future__ import annotations

import pytest
from mlkit.dialects import scf
from upstream_oracle import dialect_differential_tests, mlkit_print, upstream_print
from xdsl.dialects import scf as xscf

from mlkit.dialects import DIALECTS
from mlkit.registry import import_object

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = (
    dialect_differential_tests("scf")
)


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["scf"]) is scf.Scf


@pytest.mark.parametrize(
    "ours",
    [
        scf.IfOp,
        scf.ForOp,
        scf.ExecuteRegionOp,
        scf.ParallelOp,
        scf.IndexSwitchOp,
        scf.ReduceOp,
        scf.WhileOp,
    ],
)
def test_subclasses_keep_xdsl_matching(ours: type) -> None:
    """Passes match xDSL's op classes with isinstance."""
    assert issubclass(ours, getattr(xscf, ours.__name__))
    assert ours in list(scf.Scf.operations)
    assert getattr(xscf, ours.__name__) not in list(scf.Scf.operations)


PARALLEL = """
func.func @f(%lb: index, %ub: index, %m: memref<?xf32>, %x: f32) {
  scf.parallel (%i) = (%lb) to (%ub) step (%lb) {
    memref.store %x, %m[%i] : memref<?xf32>
  }
  return
}
"""


def test_parallel_prints_as_upstream() -> None:
    """Custom form line for line (upstream puts a trailing space after `scf.reduce`)."""
    ours = [line.rstrip() for line in mlkit_print(PARALLEL).splitlines()]
    theirs = [
        line.rstrip() for line in upstream_print(PARALLEL, generic=False).splitlines()
    ]
    assert ours == theirs


def test_execute_region_single_result_without_parens() -> None:
    text = (
        "func.func @f(%y: i32) -> i32 {\n  %0 = scf.execute_region -> (i32) {\n"
        "    scf.yield %y : i32\n  }\n  return %0 : i32\n}\n"
    )
    assert "scf.execute_region -> i32 {" in mlkit_print(text)


def test_forall_is_registered() -> None:
    """xDSL has no scf.forall; mlkit defines it and its terminator."""
    names = {op.name for op in scf.Scf.operations}
    assert {"scf.forall", "scf.forall.in_parallel"} <= names


def test_unsigned_for_is_a_property() -> None:
    text = "func.func @f(%a: index) {\n  scf.for unsigned %i = %a to %a step %a {\n  }\n  return\n}\n"
    assert "<{unsignedCmp}>" in mlkit_print(text, generic=True)
