"""Differential tests of mlkit's ``arith`` dialect against upstream MLIR.

The ops file must print (custom and generic) as IR upstream reads the same way,
every chunk of the invalid file must be rejected by upstream too, and the ops
mlkit subclasses must still be instances of xDSL's classes, which passes match.
"""

from __future__ import annotations

import pytest
from mlkit.dialects import arith
from mlkit.dialects.arith import casts as arith_casts
from upstream_oracle import dialect_differential_tests, ir, mlkit_print, upstream_print
from xdsl.dialects import arith as xarith
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import VectorType, i1, i32

from mlkit.dialects import DIALECTS
from mlkit.registry import import_object

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = (
    dialect_differential_tests("arith")
)


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["arith"]) is arith.Arith


SUBCLASSED = [
    arith.DivSIOp, arith.DivUIOp, arith.ShRSIOp, arith.ShRUIOp, arith.AddiOp, arith.SubiOp,
    arith.MuliOp, arith.ShLIOp, arith.CmpiOp, arith.CmpfOp, arith.SelectOp,
    arith_casts.ExtSIOp, arith_casts.ExtUIOp, arith_casts.TruncIOp, arith_casts.SIToFPOp,
    arith_casts.UIToFPOp, arith_casts.FPToSIOp, arith_casts.FPToUIOp, arith_casts.ExtFOp,
    arith_casts.TruncFOp, arith_casts.IndexCastOp,
]  # fmt: skip


@pytest.mark.parametrize("ours", SUBCLASSED, ids=lambda c: c.name)
def test_subclasses_keep_xdsl_matching(ours: type) -> None:
    """Passes match xDSL's op classes with isinstance."""
    assert issubclass(ours, getattr(xarith, ours.__name__))
    ops = list(arith.Arith.operations)
    assert ours in ops and getattr(xarith, ours.__name__) not in ops


def test_index_castui_is_not_an_index_cast() -> None:
    """index_castui zero-extends: a pass lowering index_cast must not match it."""
    assert not issubclass(arith_casts.IndexCastUIOp, xarith.IndexCastOp)


def test_every_upstream_op_is_registered() -> None:
    ours = {op.name for op in arith.Arith.operations}
    with ir.Context() as ctx:
        missing = sorted(n for n in ours if not ctx.is_registered_operation(n))
    assert not missing, f"mlkit has ops upstream lacks: {missing}"
    for name in ("remf", "index_castui", "convertf", "scaling_extf", "scaling_truncf",
                 "flush_denormals"):  # fmt: skip
        assert f"arith.{name}" in ours


def test_cmpi_on_vectors_builds_shaped_result() -> None:
    vec = VectorType(i32, [4])
    operand = xdsl_test.TestOp(result_types=[vec]).results[0]
    assert arith.CmpiOp(operand, operand, "slt").result.type == VectorType(i1, [4])


@pytest.mark.parametrize(
    "line",
    [
        "%0 = arith.addi %a, %a overflow<nsw, nuw> : i32",
        "%0 = arith.trunci %a overflow<nsw, nuw> : i32 to i8",
        "%0 = arith.divsi %a, %a exact : i32",
        "%0 = arith.cmpi eq, %a, %a {tag} : i32",
    ],
)
def test_custom_form_matches_upstream(line: str) -> None:
    text = f"func.func @f(%a: i32) {{\n  {line}\n  return\n}}\n"
    assert mlkit_print(text).strip() == upstream_print(text, generic=False).strip()
