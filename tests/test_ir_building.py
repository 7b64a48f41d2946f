"""The fast path for building IRDL ops builds what xDSL's builder builds,
and leaves everything it does not handle (and every error) to xDSL."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i32, i64
from xdsl.ir import Block
from xdsl.irdl import operations

from mlkit import ir_building
from mlkit.context import make_context  # noqa: F401 - installs the fast path


def test_fast_path_is_installed() -> None:
    assert operations.irdl_op_init is ir_building.irdl_op_init


def _built_by_xdsl(monkeypatch: pytest.MonkeyPatch, build):
    monkeypatch.setattr(operations, "irdl_op_init", ir_building._xdsl_op_init)
    try:
        return build()
    finally:
        monkeypatch.setattr(operations, "irdl_op_init", ir_building.irdl_op_init)


@pytest.mark.parametrize(
    "build",
    [
        lambda a, b: arith.AddiOp(a, b),
        lambda a, b: arith.AddiOp(a, b, result_type=i32),
        lambda a, b: arith.CmpiOp(a, b, "slt"),
        lambda a, b: arith.ConstantOp(IntegerAttr(3, i32)),
        lambda a, b: arith.SelectOp(arith.CmpiOp(a, b, "eq"), a, b),
        lambda a, b: arith.AddiOp(arith.ConstantOp(IntegerAttr(1, i32)), b),
    ],
)
def test_plain_ops_match_xdsl(monkeypatch: pytest.MonkeyPatch, build) -> None:
    a, b = Block(arg_types=[i32, i32]).args
    fast = build(a, b)
    slow = _built_by_xdsl(monkeypatch, lambda: build(a, b))
    assert type(fast) is type(slow)
    assert [o.type for o in fast.operands] == [o.type for o in slow.operands]
    assert [r.type for r in fast.results] == [r.type for r in slow.results]
    assert fast.properties == slow.properties and fast.attributes == slow.attributes
    fast.verify()


def test_bad_arguments_keep_xdsls_errors() -> None:
    a = Block(arg_types=[i32]).args[0]
    with pytest.raises(ValueError, match="Expected 2 operand, but got 1"):
        operations.IRDLOperation.__init__(arith.AddiOp.__new__(arith.AddiOp), operands=[a])
    with pytest.raises(ValueError):
        operations.IRDLOperation.__init__(
            arith.AddiOp.__new__(arith.AddiOp), operands=[a, None], result_types=[i32]
        )
    with pytest.raises(ValueError):
        operations.IRDLOperation.__init__(
            arith.AddiOp.__new__(arith.AddiOp), operands=[a, a], result_types=[[i32, i64]]
        )
