"""Differential tests of mlkit's ``cf`` dialect against upstream MLIR: the ops
file (branch weights) reads the same in upstream after mlkit prints it, every
chunk of the invalid file is rejected by upstream too, and ``cf.cond_br``
stays an instance of xDSL's class, which passes match."""

from __future__ import annotations

from xdsl.dialects import cf as xcf

from mlkit.dialects import DIALECTS, cf
from mlkit.registry import import_object
from upstream_oracle import dialect_differential_tests

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = dialect_differential_tests("cf")


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["cf"]) is cf.Cf
    assert issubclass(cf.ConditionalBranchOp, xcf.ConditionalBranchOp)
    assert xcf.ConditionalBranchOp not in list(cf.Cf.operations)
