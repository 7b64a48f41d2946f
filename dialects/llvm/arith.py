"""LLVM integer and float arithmetic, comparisons, casts and select.

Replaces xDSL's hand-parsed versions: those miss ``uitofp``, ``fptosi``,
``fptoui`` and ``addrspacecast``, keep ``fastmathFlags`` out of the properties
upstream stores them in, and print the overflow flags of ``trunc`` in another
form. Inherent attributes are properties with upstream's defaults, so the
generic form matches upstream's (``overflowFlags = 0 : i32``,
``fastmathFlags = #llvm.fastmath<none>``).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import I32, IntegerAttr, UnitAttr, VectorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, VarConstraint, irdl_op_definition, operand_def
from xdsl.irdl import opt_prop_def, prop_def, result_def, traits_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.attrs import FCMP_PREDICATES, ICMP_PREDICATES, i64_enum
from mlkit.dialects.llvm.interfaces import FastMathOp, PureOp
from mlkit.dialects.llvm.types import FLOAT_LIKE, SIGNLESS_INT_LIKE, is_float_like
from mlkit.dialects.llvm.types import is_signless_integer_like
from mlkit.dialects.utils.attr_dict import add_attr_dict, print_attr_dict
from mlkit.dialects.utils.op_classes import define_op

OVERFLOW_FLAGS = ("nsw", "nuw")  # bit 0, bit 1


@irdl_custom_directive
class OverflowFlags(CustomDirective):
    """`` overflow<nsw, nuw>`` after the operands; nothing when no flag is set."""

    attr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        value = 0
        if parser.parse_optional_keyword("overflow") is not None:

            def one() -> None:
                nonlocal value
                at = parser.pos
                word = parser.parse_optional_identifier()
                if word not in OVERFLOW_FLAGS:
                    parser.raise_error("expected one of: nsw, nuw", at)
                value |= 1 << OVERFLOW_FLAGS.index(word)

            parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
        self.attr.set(state, IntegerAttr(value, 32))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        value = attr.value.data if isinstance(attr, IntegerAttr) else 0
        if value:
            state.print_whitespace(printer)
            flags = [f for i, f in enumerate(OVERFLOW_FLAGS) if value >> i & 1]
            printer.print_string(f"overflow<{', '.join(flags)}>")


class _SameTypeBinary(PureOp, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)

    # what the operands' elements must be, and upstream's description of it
    ELEMENTS: ClassVar[tuple[Callable[[Attribute], bool], str]] = (
        is_signless_integer_like,
        SIGNLESS_INT_LIKE,
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, **properties: Attribute) -> None:
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type], properties=properties)

    def verify_(self) -> None:
        ok, kind = self.ELEMENTS
        if not ok(self.lhs.type):
            raise VerifyException(f"operand #0 must be {kind}, but got '{self.lhs.type}'")


class IntBinaryOp(_SameTypeBinary, ABC):
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($res)"


class IntBinaryOverflowOp(_SameTypeBinary, ABC):
    overflowFlags = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, 32))
    custom_directives = (OverflowFlags,)
    assembly_format = "$lhs `,` $rhs custom<OverflowFlags>($overflowFlags) attr-dict `:` type($res)"


class IntBinaryExactOp(_SameTypeBinary, ABC):
    isExact = opt_prop_def(UnitAttr)
    assembly_format = "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)"


class FloatBinaryOp(_SameTypeBinary, FastMathOp, ABC):
    ELEMENTS: ClassVar[tuple[Callable[[Attribute], bool], str]] = (is_float_like, FLOAT_LIKE)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($res)"


AddOp = define_op(IntBinaryOverflowOp, "llvm.add", "AddOp")
SubOp = define_op(IntBinaryOverflowOp, "llvm.sub", "SubOp")
MulOp = define_op(IntBinaryOverflowOp, "llvm.mul", "MulOp")
ShlOp = define_op(IntBinaryOverflowOp, "llvm.shl", "ShlOp")
UDivOp = define_op(IntBinaryExactOp, "llvm.udiv", "UDivOp")
SDivOp = define_op(IntBinaryExactOp, "llvm.sdiv", "SDivOp")
LShrOp = define_op(IntBinaryExactOp, "llvm.lshr", "LShrOp")
AShrOp = define_op(IntBinaryExactOp, "llvm.ashr", "AShrOp")
URemOp = define_op(IntBinaryOp, "llvm.urem", "URemOp")
SRemOp = define_op(IntBinaryOp, "llvm.srem", "SRemOp")
AndOp = define_op(IntBinaryOp, "llvm.and", "AndOp")
XOrOp = define_op(IntBinaryOp, "llvm.xor", "XOrOp")


@irdl_op_definition
class OrOp(_SameTypeBinary):
    name = "llvm.or"
    isDisjoint = opt_prop_def(UnitAttr)
    assembly_format = "(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)"


FAddOp = define_op(FloatBinaryOp, "llvm.fadd", "FAddOp")
FSubOp = define_op(FloatBinaryOp, "llvm.fsub", "FSubOp")
FMulOp = define_op(FloatBinaryOp, "llvm.fmul", "FMulOp")
FDivOp = define_op(FloatBinaryOp, "llvm.fdiv", "FDivOp")
FRemOp = define_op(FloatBinaryOp, "llvm.frem", "FRemOp")


@irdl_op_definition
class FNegOp(PureOp, FastMathOp):
    name = "llvm.fneg"
    T: ClassVar = VarConstraint("T", AnyAttr())
    operand = operand_def(T)
    res = result_def(T)
    assembly_format = "$operand attr-dict `:` type($res)"

    def __init__(self, operand: SSAValue) -> None:
        super().__init__(operands=[operand], result_types=[operand.type])


class _CompareOp(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def()
    traits = traits_def(Pure())
    PREDICATES: ClassVar[dict[str, int]]

    def __init__(self, predicate: int, lhs: SSAValue, rhs: SSAValue) -> None:
        res: Attribute = i1
        if isinstance(lhs.type, VectorType):
            res = VectorType(i1, lhs.type.get_shape())
        super().__init__(
            operands=[lhs, rhs], result_types=[res], properties={"predicate": i64_enum(predicate)}
        )

    def verify_(self) -> None:
        expected: Attribute = i1
        if isinstance(self.lhs.type, VectorType):
            expected = VectorType(i1, self.lhs.type.get_shape())
        if self.res.type != expected:
            raise VerifyException(
                "result #0 must be 1-bit signless integer or LLVM dialect-compatible vector "
                f"of 1-bit signless integer, but got '{self.res.type}'"
            )

    # The result type (i1 or a vector of i1) follows from the operands, which
    # the declarative format cannot express.
    @classmethod
    def parse(cls, parser: Parser) -> _CompareOp:
        at = parser.pos
        predicates = cls.PREDICATES
        word = parser.parse_optional_str_literal()
        if word is None:
            parser.raise_error("invalid kind of attribute specified", at)
        if word not in predicates:
            parser.raise_error(f"'{word}' is an incorrect value of the 'predicate' attribute", at)
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        lhs_v, rhs_v = parser.resolve_operands([lhs, rhs], [type, type], at)
        op = cls(predicates[word], lhs_v, rhs_v)
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        names = {v: k for k, v in self.PREDICATES.items()}
        predicate = self.properties["predicate"]
        assert isinstance(predicate, IntegerAttr)
        printer.print_string(f' "{names[predicate.value.data]}" ')
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self, ("predicate",))
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class ICmpOp(_CompareOp):
    name = "llvm.icmp"
    predicate = prop_def(IntegerAttr)
    PREDICATES: ClassVar = ICMP_PREDICATES


@irdl_op_definition
class FCmpOp(_CompareOp, FastMathOp):
    name = "llvm.fcmp"
    predicate = prop_def(IntegerAttr)
    PREDICATES: ClassVar = FCMP_PREDICATES


@irdl_op_definition
class SelectOp(PureOp, FastMathOp):
    name = "llvm.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    condition = operand_def()
    trueValue = operand_def(T)
    falseValue = operand_def(T)
    res = result_def(T)
    assembly_format = "operands attr-dict `:` type($condition) `,` type($res)"

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue) -> None:
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])


_Kind = tuple[Callable[[Attribute], bool], str]
_INT: _Kind = (is_signless_integer_like, SIGNLESS_INT_LIKE)
_FLOAT: _Kind = (is_float_like, FLOAT_LIKE)
CAST_KINDS: dict[str, tuple[_Kind, _Kind]] = {
    "llvm.trunc": (_INT, _INT),
    "llvm.zext": (_INT, _INT),
    "llvm.uitofp": (_INT, _FLOAT),
    "llvm.sext": (_INT, _INT),
    "llvm.sitofp": (_INT, _FLOAT),
    "llvm.fptosi": (_FLOAT, _INT),
    "llvm.fptoui": (_FLOAT, _INT),
    "llvm.fpext": (_FLOAT, _FLOAT),
    "llvm.fptrunc": (_FLOAT, _FLOAT),
}


class CastOp(PureOp, ABC):
    """``$arg attr-dict : type($arg) to type($res)``.

    :data:`CAST_KINDS` holds upstream's ODS constraint on the operand and the
    result of each cast that has one: without it ``llvm.uitofp %f : f32 to i32``
    verified and became LLVM IR that LLVM's own verifier rejects."""

    arg = operand_def()
    res = result_def()
    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"

    def __init__(self, arg: SSAValue, res_type: Attribute, **properties: Attribute) -> None:
        super().__init__(operands=[arg], result_types=[res_type], properties=properties)

    def verify_(self) -> None:
        kinds = CAST_KINDS.get(self.name)
        if kinds is None:
            return
        for what, value, (ok, text) in zip(("operand", "result"), (self.arg, self.res), kinds):
            if not ok(value.type):
                raise VerifyException(f"{what} #0 must be {text}, but got '{value.type}'")


class NNegCastOp(CastOp, ABC):
    nonNeg = opt_prop_def(UnitAttr)
    assembly_format = "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($res)"


class FastMathCastOp(CastOp, FastMathOp, ABC):
    assembly_format = (
        "$arg (`fastmath` `` $fastmathFlags^)? attr-dict `:` type($arg) `to` type($res)"
    )


@irdl_op_definition
class TruncOp(CastOp):
    name = "llvm.trunc"
    overflowFlags = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, 32))
    custom_directives = (OverflowFlags,)
    assembly_format = (
        "$arg custom<OverflowFlags>($overflowFlags) attr-dict `:` type($arg) `to` type($res)"
    )


ZExtOp = define_op(NNegCastOp, "llvm.zext", "ZExtOp")
UIToFPOp = define_op(NNegCastOp, "llvm.uitofp", "UIToFPOp")
SExtOp = define_op(CastOp, "llvm.sext", "SExtOp")
SIToFPOp = define_op(CastOp, "llvm.sitofp", "SIToFPOp")
FPToSIOp = define_op(CastOp, "llvm.fptosi", "FPToSIOp")
FPToUIOp = define_op(CastOp, "llvm.fptoui", "FPToUIOp")
FPExtOp = define_op(FastMathCastOp, "llvm.fpext", "FPExtOp")
FPTruncOp = define_op(FastMathCastOp, "llvm.fptrunc", "FPTruncOp")
BitcastOp = define_op(CastOp, "llvm.bitcast", "BitcastOp")
PtrToIntOp = define_op(CastOp, "llvm.ptrtoint", "PtrToIntOp")
IntToPtrOp = define_op(CastOp, "llvm.inttoptr", "IntToPtrOp")
AddrSpaceCastOp = define_op(CastOp, "llvm.addrspacecast", "AddrSpaceCastOp")


ARITH_OPS = [
    AddOp, SubOp, MulOp, ShlOp, UDivOp, SDivOp, LShrOp, AShrOp, URemOp, SRemOp,
    AndOp, OrOp, XOrOp, FAddOp, FSubOp, FMulOp, FDivOp, FRemOp, FNegOp, ICmpOp,
    FCmpOp, SelectOp, TruncOp, ZExtOp, SExtOp, UIToFPOp, SIToFPOp, FPToSIOp,
    FPToUIOp, FPExtOp, FPTruncOp, BitcastOp, PtrToIntOp, IntToPtrOp, AddrSpaceCastOp,
]  # fmt: skip
