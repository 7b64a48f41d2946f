"""LLVM intrinsic ops (``llvm.intr.*``) that lowerings of math and memref emit.

Replaces xDSL's versions, which cover only some of these (no ``exp``,
``round``, ``maximum``, ``minimum``, ``memcpy``, ``memset``) and differ in
whether ``fastmathFlags`` is a property. Upstream prints ``memcpy`` and
``memset`` in the generic form only, and so do these.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from mlkit.dialects.llvm.attrs import NO_FASTMATH, FastMathAttr
from mlkit.dialects.llvm.types import LLVMPointerType

_FORMAT = "`(` operands `)` attr-dict `:` functional-type(operands, results)"


class UnaryFloatIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    in_ = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=NO_FASTMATH)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = _FORMAT

    def __init__(self, operand: SSAValue) -> None:
        super().__init__(operands=[operand], result_types=[operand.type])


class BinaryFloatIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=NO_FASTMATH)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = _FORMAT

    def __init__(self, lhs: SSAValue, rhs: SSAValue) -> None:
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


class TernaryFloatIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=NO_FASTMATH)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = _FORMAT

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue) -> None:
        super().__init__(operands=[a, b, c], result_types=[a.type])


def _define(base: type[IRDLOperation], op_name: str, class_name: str) -> type[IRDLOperation]:
    cls = type(class_name, (base,), {"name": op_name, "__doc__": f"``{op_name}``."})
    return irdl_op_definition(cls)


_UNARY = {
    "sqrt": "SqrtOp", "exp": "ExpOp", "exp2": "Exp2Op", "log": "LogOp", "log2": "Log2Op",
    "log10": "Log10Op", "fabs": "FAbsOp", "floor": "FloorOp", "ceil": "CeilOp",
    "round": "RoundOp", "roundeven": "RoundEvenOp", "trunc": "FTruncOp", "rint": "RintOp",
    "nearbyint": "NearbyintOp", "sin": "SinOp", "cos": "CosOp", "tan": "TanOp",
}  # fmt: skip
_BINARY = {
    "pow": "PowOp", "maxnum": "MaxNumOp", "minnum": "MinNumOp", "maximum": "MaximumOp",
    "minimum": "MinimumOp", "copysign": "CopySignOp",
}  # fmt: skip
_TERNARY = {"fma": "FMAOp", "fmuladd": "FMulAddOp"}

INTRINSIC_CLASSES: dict[str, type[IRDLOperation]] = {}
for _table, _base in ((_UNARY, UnaryFloatIntrinsic), (_BINARY, BinaryFloatIntrinsic),
                      (_TERNARY, TernaryFloatIntrinsic)):  # fmt: skip
    for _short, _class_name in _table.items():
        INTRINSIC_CLASSES[_class_name] = _define(_base, f"llvm.intr.{_short}", _class_name)
globals().update(INTRINSIC_CLASSES)


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """``"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}>``."""

    name = "llvm.intr.memcpy"
    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(IntegerType)
    isVolatile = prop_def(IntegerAttr)
    access_groups = opt_prop_def(AnyAttr())
    alias_scopes = opt_prop_def(AnyAttr())
    noalias_scopes = opt_prop_def(AnyAttr())
    tbaa = opt_prop_def(AnyAttr())
    arg_attrs = opt_prop_def(AnyAttr())
    res_attrs = opt_prop_def(AnyAttr())

    def __init__(self, dst: SSAValue, src: SSAValue, length: SSAValue, volatile: bool = False) -> None:
        super().__init__(
            operands=[dst, src, length],
            properties={"isVolatile": IntegerAttr(int(volatile), IntegerType(1))},
        )


@irdl_op_definition
class MemsetOp(IRDLOperation):
    """``"llvm.intr.memset"(%dst, %val, %len) <{isVolatile = false}>``."""

    name = "llvm.intr.memset"
    dst = operand_def(LLVMPointerType)
    val = operand_def(IntegerType(8))
    len = operand_def(IntegerType)
    isVolatile = prop_def(IntegerAttr)
    access_groups = opt_prop_def(AnyAttr())
    alias_scopes = opt_prop_def(AnyAttr())
    noalias_scopes = opt_prop_def(AnyAttr())
    tbaa = opt_prop_def(AnyAttr())
    arg_attrs = opt_prop_def(AnyAttr())
    res_attrs = opt_prop_def(AnyAttr())

    def __init__(self, dst: SSAValue, val: SSAValue, length: SSAValue, volatile: bool = False) -> None:
        super().__init__(
            operands=[dst, val, length],
            properties={"isVolatile": IntegerAttr(int(volatile), IntegerType(1))},
        )


INTRINSIC_OPS: list[type[IRDLOperation]] = [*INTRINSIC_CLASSES.values(), MemcpyOp, MemsetOp]
