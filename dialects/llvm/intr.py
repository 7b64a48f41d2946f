"""LLVM intrinsic ops (``llvm.intr.*``) that lowerings of math and memref emit.

Replaces xDSL's versions, which cover only some of these (no ``exp``,
``round``, ``maximum``, ``minimum``, ``memcpy``, ``memset``) and differ in
whether ``fastmathFlags`` is a property. Upstream prints ``memcpy``,
``memset`` and ``prefetch`` in the generic form only, and so do these.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import I32, IntegerAttr, IntegerType
from xdsl.ir import SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, VarConstraint, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def

from mlkit.dialects.llvm.interfaces import AliasAnalysisOp, FastMathOp, LLVMOp, PureOp
from mlkit.dialects.llvm.types import LLVMPointerType
from mlkit.dialects.utils.op_classes import define_op

INTRINSIC_FORMAT = "`(` operands `)` attr-dict `:` functional-type(operands, results)"
"""Upstream's ``LLVM_OneResultIntrOp`` assembly format."""


class FloatIntrinsic(PureOp, FastMathOp, ABC):
    """``llvm.intr.f(%a, ...) : (T, ...) -> T`` with fastmath flags; the result
    has the first operand's type."""

    assembly_format = INTRINSIC_FORMAT

    def __init__(self, *operands: SSAValue) -> None:
        super().__init__(operands=list(operands), result_types=[operands[0].type])


class UnaryIntrinsic(PureOp, ABC):
    """An intrinsic of one operand ``in_`` whose result has its type."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    in_ = operand_def(T)
    res = result_def(T)


class UnaryFloatIntrinsic(FloatIntrinsic, UnaryIntrinsic, ABC):
    """``llvm.intr.f(%x) : (T) -> T`` with fastmath flags."""


class BinaryFloatIntrinsic(FloatIntrinsic, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    res = result_def(T)


class TernaryFloatIntrinsic(FloatIntrinsic, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    res = result_def(T)


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


class BinaryIntIntrinsic(PureOp, ABC):
    """``llvm.intr.f(%a, %b) : (T, T) -> T`` on integers, without fastmath flags."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    a = operand_def(T)
    b = operand_def(T)
    res = result_def(T)
    assembly_format = INTRINSIC_FORMAT

    def __init__(self, a: SSAValue, b: SSAValue) -> None:
        super().__init__(operands=[a, b], result_types=[a.type])


_INT_BINARY = {"smax": "SMaxOp", "smin": "SMinOp", "umax": "UMaxOp", "umin": "UMinOp"}

INTRINSIC_CLASSES: dict[str, type[IRDLOperation]] = {}
for _table, _base in ((_UNARY, UnaryFloatIntrinsic), (_BINARY, BinaryFloatIntrinsic),
                      (_TERNARY, TernaryFloatIntrinsic), (_INT_BINARY, BinaryIntIntrinsic)):  # fmt: skip
    for _short, _class_name in _table.items():
        INTRINSIC_CLASSES[_class_name] = define_op(_base, f"llvm.intr.{_short}", _class_name)
globals().update(INTRINSIC_CLASSES)


class _MemIntrinsic(AliasAnalysisOp):
    """``memcpy`` and ``memset``: a destination, a source or value, a length."""

    isVolatile = prop_def(IntegerAttr)
    arg_attrs = opt_prop_def(AnyAttr())
    res_attrs = opt_prop_def(AnyAttr())

    def __init__(self, dst: SSAValue, source: SSAValue, length: SSAValue, volatile: bool = False) -> None:
        super().__init__(
            operands=[dst, source, length],
            properties={"isVolatile": IntegerAttr(int(volatile), IntegerType(1))},
        )


@irdl_op_definition
class MemcpyOp(_MemIntrinsic):
    """``"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}>``."""

    name = "llvm.intr.memcpy"
    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(IntegerType)


@irdl_op_definition
class MemsetOp(_MemIntrinsic):
    """``"llvm.intr.memset"(%dst, %val, %len) <{isVolatile = false}>``."""

    name = "llvm.intr.memset"
    dst = operand_def(LLVMPointerType)
    val = operand_def(IntegerType(8))
    len = operand_def(IntegerType)


@irdl_op_definition
class PrefetchOp(LLVMOp):
    """``"llvm.intr.prefetch"(%p) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}>``:
    what ``memref.prefetch`` lowers to. The properties are the intrinsic's
    immediate arguments in its order (read/write, locality, data/instruction
    cache), which is why they are declared in that order."""

    name = "llvm.intr.prefetch"
    addr = operand_def(LLVMPointerType)
    rw = prop_def(IntegerAttr[I32])
    hint = prop_def(IntegerAttr[I32])
    cache = prop_def(IntegerAttr[I32])

    def __init__(self, addr: SSAValue, rw: int, hint: int, cache: int) -> None:
        i32 = IntegerType(32)
        super().__init__(
            operands=[addr],
            properties={"rw": IntegerAttr(rw, i32), "hint": IntegerAttr(hint, i32),
                        "cache": IntegerAttr(cache, i32)},  # fmt: skip
        )


INTRINSIC_OPS: list[type[IRDLOperation]] = [*INTRINSIC_CLASSES.values(), MemcpyOp, MemsetOp,
                                            PrefetchOp]  # fmt: skip
