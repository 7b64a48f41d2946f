"""More LLVM intrinsic ops: the ones ``convert-math-to-llvm`` and
``convert-vector-to-llvm`` emit that :mod:`mlkit.dialects.llvm.intr` lacks.

Bit counting (``ctlz``, ``cttz``, ``ctpop``), integer ``abs``, ``powi``, the
inverse and hyperbolic trigonometric functions, ``is.fpclass``, ``sincos`` and
the ``vector.reduce.*`` family. Each prints as upstream does: ops that upstream declares without an
assembly format (``ctlz``, ``cttz``, ``abs``, the integer and ordered float
reductions) print in the generic form only.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from mlkit.dialects.llvm.attrs import NO_FASTMATH, FastMathAttr
from mlkit.dialects.llvm.interfaces import FastMathOp, PureOp
from mlkit.dialects.llvm.intr import INTRINSIC_FORMAT, BinaryFloatIntrinsic, FloatIntrinsic
from mlkit.dialects.llvm.intr import UnaryFloatIntrinsic, UnaryIntrinsic
from mlkit.dialects.llvm.types import SIGNLESS_INT_LIKE, LLVMStructType, is_integer_like
from mlkit.dialects.utils.op_classes import define_op
from xdsl.dialects.builtin import IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, VarConstraint, irdl_op_definition, operand_def
from xdsl.irdl import prop_def, result_def
from xdsl.utils.exceptions import VerifyException

class _IntWithFlag(UnaryIntrinsic, ABC):
    """An integer intrinsic with one ``i1`` flag property (generic syntax only)."""

    FLAG: ClassVar[str]

    def __init__(self, operand: SSAValue, flag: bool = False) -> None:
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={self.FLAG: IntegerAttr(int(flag), IntegerType(1))},
        )

    def verify_(self) -> None:
        if not is_integer_like(self.in_.type):
            raise VerifyException(f"operand #0 must be {SIGNLESS_INT_LIKE}, but got '{self.in_.type}'")
        flag = self.properties.get(self.FLAG)
        if not isinstance(flag, IntegerAttr) or flag.type != IntegerType(1):
            raise VerifyException(f"requires attribute '{self.FLAG}'")


class _ZeroPoison(_IntWithFlag, ABC):
    """Bit counts, whose result is poison for a zero operand with the flag set."""

    is_zero_poison = prop_def(IntegerAttr)
    FLAG: ClassVar[str] = "is_zero_poison"


CountLeadingZerosOp = define_op(
    _ZeroPoison, "llvm.intr.ctlz", "CountLeadingZerosOp",
    """``"llvm.intr.ctlz"(%x) <{is_zero_poison = false}> : (i32) -> i32``.""",
)
CountTrailingZerosOp = define_op(
    _ZeroPoison, "llvm.intr.cttz", "CountTrailingZerosOp",
    """``"llvm.intr.cttz"(%x) <{is_zero_poison = false}> : (i32) -> i32``.""",
)


@irdl_op_definition
class AbsOp(_IntWithFlag):
    """``"llvm.intr.abs"(%x) <{is_int_min_poison = false}> : (i32) -> i32``."""

    name = "llvm.intr.abs"
    is_int_min_poison = prop_def(IntegerAttr)
    FLAG: ClassVar[str] = "is_int_min_poison"


@irdl_op_definition
class CtPopOp(UnaryIntrinsic):
    """``llvm.intr.ctpop(%x) : (i32) -> i32``."""

    name = "llvm.intr.ctpop"
    assembly_format = INTRINSIC_FORMAT

    def __init__(self, operand: SSAValue) -> None:
        super().__init__(operands=[operand], result_types=[operand.type])


@irdl_op_definition
class PowIOp(FloatIntrinsic):
    """``llvm.intr.powi(%x, %n) : (f32, i32) -> f32``."""

    name = "llvm.intr.powi"
    T: ClassVar = VarConstraint("T", AnyAttr())
    val = operand_def(T)
    power = operand_def(IntegerType)
    res = result_def(T)


@irdl_op_definition
class IsFPClassOp(PureOp):
    """``"llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1``: whether
    ``%x`` is in one of the classes ``bit`` selects (3: NaN, 504: finite)."""

    name = "llvm.intr.is.fpclass"
    in_ = operand_def(AnyAttr())
    bit = prop_def(IntegerAttr)
    res = result_def(AnyAttr())

    def __init__(self, operand: SSAValue, bit: int, result_type: Attribute) -> None:
        super().__init__(
            operands=[operand], result_types=[result_type],
            properties={"bit": IntegerAttr(bit, IntegerType(32))},
        )  # fmt: skip


@irdl_op_definition
class SincosOp(PureOp, FastMathOp):
    """``llvm.intr.sincos(%x) : (f32) -> !llvm.struct<(f32, f32)>``: sine and cosine."""

    name = "llvm.intr.sincos"
    val = operand_def(AnyAttr())
    res = result_def(LLVMStructType)
    assembly_format = INTRINSIC_FORMAT

    def __init__(self, operand: SSAValue) -> None:
        super().__init__(
            operands=[operand], result_types=[LLVMStructType([operand.type, operand.type])]
        )


_UNARY = {
    "tanh": "TanhOp", "asin": "ASinOp", "acos": "ACosOp", "atan": "ATanOp",
    "sinh": "SinhOp", "cosh": "CoshOp",
}  # fmt: skip
_BINARY = {"atan2": "ATan2Op"}

EXT_FLOAT_CLASSES: dict[str, type[IRDLOperation]] = {}
for _table, _base in ((_UNARY, UnaryFloatIntrinsic), (_BINARY, BinaryFloatIntrinsic)):
    for _short, _class_name in _table.items():
        EXT_FLOAT_CLASSES[_class_name] = define_op(_base, f"llvm.intr.{_short}", _class_name)


# -- vector reductions ---------------------------------------------------------


class _VectorReduction(PureOp, ABC):
    """``vector.reduce.*`` over one vector, to its element type."""

    in_ = operand_def(VectorType)
    res = result_def()

    def __init__(self, vector: SSAValue, **properties: Attribute) -> None:
        assert isinstance(vector.type, VectorType)
        super().__init__(
            operands=[vector], result_types=[vector.type.element_type], properties=properties
        )

    def verify_(self) -> None:
        assert isinstance(self.in_.type, VectorType)
        if self.res.type != self.in_.type.element_type:
            raise VerifyException("result type must match the element type of the vector")


class IntVectorReduction(_VectorReduction, ABC):
    """An integer reduction; upstream prints these in the generic form."""


class FloatMinMaxReduction(_VectorReduction, FastMathOp, ABC):
    """``fmax``/``fmin``/``fmaximum``/``fminimum``, printed with a custom form."""

    assembly_format = INTRINSIC_FORMAT


class OrderedFloatReduction(PureOp, FastMathOp, ABC):
    """``fadd``/``fmul`` with a start value; generic form only, as upstream."""

    start_value = operand_def()
    input = operand_def(VectorType)
    res = result_def()

    def __init__(self, start: SSAValue, vector: SSAValue, fastmath: FastMathAttr = NO_FASTMATH) -> None:
        super().__init__(
            operands=[start, vector], result_types=[start.type], properties={"fastmathFlags": fastmath}
        )

    def verify_(self) -> None:
        assert isinstance(self.input.type, VectorType)
        if not (self.res.type == self.start_value.type == self.input.type.element_type):
            raise VerifyException("start value and result must have the vector's element type")


_INT_REDUCTIONS = ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin")
_MINMAX_REDUCTIONS = ("fmax", "fmin", "fmaximum", "fminimum")
_ORDERED_REDUCTIONS = ("fadd", "fmul")

REDUCTION_CLASSES: dict[str, type[IRDLOperation]] = {}
for _kinds, _base in (
    (_INT_REDUCTIONS, IntVectorReduction),
    (_MINMAX_REDUCTIONS, FloatMinMaxReduction),
    (_ORDERED_REDUCTIONS, OrderedFloatReduction),
):
    for _kind in _kinds:
        _class_name = f"VectorReduce{_kind[0].upper()}{_kind[1:]}Op"
        REDUCTION_CLASSES[_kind] = define_op(
            _base, f"llvm.intr.vector.reduce.{_kind}", _class_name
        )
        globals()[_class_name] = REDUCTION_CLASSES[_kind]

globals().update(EXT_FLOAT_CLASSES)

INTRINSIC_EXT_OPS: list[type[IRDLOperation]] = [
    CountLeadingZerosOp,
    CountTrailingZerosOp,
    AbsOp,
    CtPopOp,
    PowIOp,
    IsFPClassOp,
    SincosOp,
    *EXT_FLOAT_CLASSES.values(),
    *REDUCTION_CLASSES.values(),
]
