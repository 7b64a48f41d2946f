"""The ``arith`` dialect with upstream's ops, flags and result types.

Where xDSL 0.75 disagrees with upstream MLIR:
- ``divsi``/``divui``/``shrsi``/``shrui`` lack the ``exact`` flag (``isExact``);
- ``cmpi``/``cmpf`` always produce ``i1``, also for vectors and tensors (upstream:
  ``vector<4xi1>``), and drop their attribute dictionary when printed;
- ``select`` rejects a vector of conditions (``: vector<4xi1>, vector<4xi32>``);
- ``remf`` and ``flush_denormals`` are missing;
- the casts: see :mod:`mlkit.dialects.arith.casts`;
- ``cmpi``/``select`` lack upstream's folders and most of its canonicalization
  patterns: see :mod:`mlkit.dialects.arith.canonicalization`.
Those xDSL ops are subclassed (passes match them with isinstance); the missing
ones are new. Every other op is xDSL's.
"""

from __future__ import annotations

from typing import ClassVar

from mlkit.dialects.arith.canonicalization import CMPI_FOLDS, CMPI_PATTERNS, SELECT_FOLDS
from mlkit.dialects.arith.canonicalization import SELECT_PATTERNS
from mlkit.dialects.arith.casts import CAST_REPLACEMENTS, NEW_CASTS, IntegerOverflowAttr
from mlkit.dialects.arith.shapes import tensor_like_of, verify_elementwise
from mlkit.dialects.arith.verified import AddUIExtendedOp, ConstantOp
from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.ods import DeclarativeSyntax, describe_constraints, upstream_op
from mlkit.dialects.utils.ods import type_str, verify_that
from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, TensorType, UnitAttr
from xdsl.dialects.builtin import UnrankedTensorType, VectorType, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, VarConstraint, irdl_op_definition, operand_def, opt_prop_def
from xdsl.irdl import prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

_INT_LIKE = xarith.signlessIntegerLike
_FLOAT_LIKE = xarith.floatingPointLike
_BOOL_LIKE = xarith.boolLike
_NO_FASTMATH = xarith.FastMathFlagsAttr("none")


def element_like(type_: Attribute, element: Attribute) -> Attribute:
    """``element`` shaped like ``type_`` (a scalar, vector or tensor)."""
    if isinstance(type_, VectorType):
        return VectorType(element, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape(), type_.encoding)
    if isinstance(type_, UnrankedTensorType):
        return UnrankedTensorType(element)
    return element


def i1_like(type_: Attribute) -> Attribute:
    """``i1`` shaped like ``type_``: the result type of a comparison."""
    return element_like(type_, i1)


# xDSL's binary ops, and mlkit's subclasses of them, in upstream's words when
# a constraint fails (``operand #0 must be floating-point-like, but got 'i32'``)
_BINARY_FIELDS = ("lhs", "rhs", "result")
describe_constraints(
    xarith.FloatingPointLikeBinaryOperation, dict.fromkeys(_BINARY_FIELDS, "floating-point-like")
)
describe_constraints(
    xarith.SignlessIntegerBinaryOperation, dict.fromkeys(_BINARY_FIELDS, "signless-integer-like")
)
describe_constraints(xarith.NegfOp, dict.fromkeys(("operand", "result"), "floating-point-like"))


# -- integer binary ops with `exact` or overflow flags -------------------------


class _IntBinaryOp(DeclarativeSyntax, IRDLOperation):
    """Fields of xDSL's integer binary ops, restated so a subclass can add a flag.

    The subclasses list it before xDSL's op: IRDL takes the first definition
    of each field along the MRO, and runs this class's ``verify_`` instead of
    the generated one of xDSL's op (which would check xDSL's fields again)."""

    T: ClassVar = VarConstraint("T", _INT_LIKE)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    def verify_(self) -> None:
        pass


class _ExactOp(_IntBinaryOp):
    """xDSL's op with upstream's ``exact`` flag."""

    isExact = opt_prop_def(UnitAttr)
    assembly_format = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)"


class _OverflowOp(_IntBinaryOp):
    """xDSL's op; its overflow flags print as upstream's (``<nsw, nuw>``)."""

    # one base class: IRDL's format parses `<nsw>` with it; xDSL's own
    # (final) attribute class cannot be subclassed to fix its printing
    overflow_flags = prop_def(
        IntegerOverflowAttr, default_value=IntegerOverflowAttr("none"), prop_name="overflowFlags"
    )
    assembly_format = (
        "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"
    )


def _with_flag(flag: type[_IntBinaryOp], xdsl_op: type[IRDLOperation]) -> type[IRDLOperation]:
    """xDSL's ``xdsl_op``, same class name and op name, with ``flag``'s property
    and syntax; a subclass, so passes matching xDSL's class still match it."""
    body = {"name": xdsl_op.name, "__doc__": flag.__doc__, "__module__": __name__}
    return irdl_op_definition(type(xdsl_op.__name__, (flag, xdsl_op), body))


DivSIOp = _with_flag(_ExactOp, xarith.DivSIOp)
DivUIOp = _with_flag(_ExactOp, xarith.DivUIOp)
ShRSIOp = _with_flag(_ExactOp, xarith.ShRSIOp)
ShRUIOp = _with_flag(_ExactOp, xarith.ShRUIOp)
AddiOp = _with_flag(_OverflowOp, xarith.AddiOp)
SubiOp = _with_flag(_OverflowOp, xarith.SubiOp)
MuliOp = _with_flag(_OverflowOp, xarith.MuliOp)
ShLIOp = _with_flag(_OverflowOp, xarith.ShLIOp)


# -- float ops missing in xDSL -------------------------------------------------


@upstream_op
class RemFOp(xarith.FloatingPointLikeBinaryOperation):
    """``arith.remf``: floating-point remainder (missing in xDSL)."""

    name = "arith.remf"
    traits = traits_def(Pure())
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "lhs": "floating-point-like", "rhs": "floating-point-like", "result": "floating-point-like",
    }  # fmt: skip

    def verify_(self) -> None:
        pass


@irdl_op_definition
class FlushDenormalsOp(IRDLOperation):
    """``arith.flush_denormals``: denormals to signed zero (missing in xDSL)."""

    name = "arith.flush_denormals"
    T: ClassVar = VarConstraint("T", _FLOAT_LIKE)
    operand = operand_def(T)
    result = result_def(T)
    fastmath = prop_def(
        xarith.FastMathFlagsAttr, default_value=xarith.FastMathFlagsAttr("none")
    )
    traits = traits_def(Pure())
    assembly_format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


# -- comparisons and select ----------------------------------------------------


class _Comparison(IRDLOperation):
    """Shared syntax and checks of cmpi/cmpf: ``pred, %a, %b [fastmath<..>]
    {attrs} : T``, with the result an ``i1`` shaped like the operands."""

    result = result_def(_BOOL_LIKE)
    PREDICATES: ClassVar[list[str]] = []
    HAS_FASTMATH: ClassVar[bool] = False

    def _init_comparison(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: int | str,
        props: dict[str, Attribute],
    ) -> None:
        lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
        if isinstance(predicate, str):
            predicate = self.PREDICATES.index(predicate)
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(predicate, 64), **props},
        )

    def verify_relations_(self) -> None:
        """Upstream checks the predicate before the operand types."""
        predicate = self.properties.get("predicate")
        if predicate is None:
            raise VerifyException("requires attribute 'predicate'")
        cases = range(len(self.PREDICATES))
        if not (
            isinstance(predicate, IntegerAttr)
            and predicate.type == i64
            and predicate.value.data in cases
        ):
            raise VerifyException(
                "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless "
                f"integer cases: {', '.join(map(str, cases))}"
            )

    def verify_(self) -> None:
        lhs, rhs = self.operands[0].type, self.operands[1].type
        if lhs != rhs:
            raise VerifyException("requires all operands to have the same type")
        verify_that(
            self.results[0].type == i1_like(lhs),
            "result type has i1 element type and same shape as operands",
        )

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        pos = parser.pos
        mnemonic = parser.parse_optional_identifier() or parser.parse_optional_str_literal()
        if mnemonic not in cls.PREDICATES:
            parser.raise_error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'predicate' [{', '.join(cls.PREDICATES)}]",
                pos,
            )
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {
            "predicate": IntegerAttr(cls.PREDICATES.index(mnemonic), 64)
        }
        if cls.HAS_FASTMATH:
            fastmath = xarith.FastMathFlagsAttr("none")
            if parser.parse_optional_keyword("fastmath"):
                fastmath = xarith.FastMathFlagsAttr(
                    xarith.FastMathFlagsAttr.parse_parameter(parser)
                )
            props["fastmath"] = fastmath
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        operands = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        return cls.create(
            operands=operands, result_types=[i1_like(type_)], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        predicate = self.properties["predicate"]
        assert isinstance(predicate, IntegerAttr)
        printer.print_string(f" {self.PREDICATES[predicate.value.data]}, ")
        printer.print_list(self.operands, printer.print_operand)
        fastmath = self.properties.get("fastmath")
        if fastmath is not None and fastmath != xarith.FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            fastmath.print_parameter(printer)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)


@upstream_op
class CmpiOp(_Comparison, xarith.CmpiOp):
    """xDSL's op with upstream's shaped ``i1`` result and attribute dictionary."""

    name = "arith.cmpi"
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "lhs": "signless-integer-like", "rhs": "signless-integer-like", "result": "bool-like",
    }  # fmt: skip
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_INT_LIKE)
    rhs = operand_def(_INT_LIKE)
    traits = traits_def(CMPI_FOLDS, CMPI_PATTERNS)  # and xDSL's op's, inherited
    PREDICATES: ClassVar[list[str]] = xarith.CMPI_COMPARISON_OPERATIONS

    def __init__(
        self, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str
    ) -> None:
        self._init_comparison(operand1, operand2, arg, {})


@upstream_op
class CmpfOp(_Comparison, xarith.CmpfOp):
    """xDSL's op with upstream's shaped ``i1`` result and attribute dictionary."""

    name = "arith.cmpf"
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "lhs": "floating-point-like", "rhs": "floating-point-like", "result": "bool-like",
    }  # fmt: skip
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_FLOAT_LIKE)
    rhs = operand_def(_FLOAT_LIKE)
    fastmath = prop_def(
        xarith.FastMathFlagsAttr, default_value=xarith.FastMathFlagsAttr("none")
    )
    traits = xarith.CmpfOp.traits
    PREDICATES: ClassVar[list[str]] = xarith.CMPF_COMPARISON_OPERATIONS
    HAS_FASTMATH: ClassVar[bool] = True

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: xarith.FastMathFlagsAttr = _NO_FASTMATH,
    ) -> None:
        self._init_comparison(operand1, operand2, arg, {"fastmath": fastmath})


def _equal_shapes(a: Attribute, b: Attribute) -> bool:
    """Both shaped with the same sizes, or both unranked tensors."""
    shaped = (VectorType, TensorType, UnrankedTensorType, MemRefType)
    if not isinstance(a, shaped) or not isinstance(b, shaped):
        return False
    if isinstance(a, UnrankedTensorType) or isinstance(b, UnrankedTensorType):
        return isinstance(a, UnrankedTensorType) and isinstance(b, UnrankedTensorType)
    return tuple(a.get_shape()) == tuple(b.get_shape())


@upstream_op
class SelectOp(xarith.SelectOp):
    """xDSL's op; the condition may also be a vector/tensor of ``i1`` shaped
    like the result, written ``: vector<4xi1>, vector<4xi32>`` as upstream does."""

    name = "arith.select"
    T: ClassVar = VarConstraint("T", xarith.AnyAttr())
    cond = operand_def(tensor_like_of(IntegerType(1)))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(SELECT_FOLDS, SELECT_PATTERNS)  # and xDSL's op's, inherited
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"cond": "bool-like"}
    # replaced by the hand-written syntax below (the optional condition type)
    assembly_format: ClassVar[str | None] = None

    def verify_relations_(self) -> None:
        """Upstream's order: ``BooleanConditionOrMatchingShape`` (equal shapes,
        scalable flags ignored), ``Elementwise`` (same base type, compatible
        shapes), then ``SelectOp::verify``: the condition is exactly ``i1``
        shaped like the result, scalable flags and tensor encoding included."""
        cond, result = self.cond.type, self.result.type
        verify_that(
            cond == i1 or _equal_shapes(cond, result),
            "condition is signless i1 or has matching shape",
        )
        verify_elementwise([operand.type for operand in self.operands], [result])
        if cond == i1:
            return
        if not isinstance(result, VectorType | TensorType | UnrankedTensorType):
            raise VerifyException(
                f"expected condition to be a signless i1, but got {type_str(cond)}"
            )
        expected = i1_like(result)
        if cond != expected:
            raise VerifyException(
                "expected condition type to have the same shape as the result type, "
                f"expected {type_str(expected)}, but got {type_str(cond)}"
            )

    def verify_(self) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        if parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        cond_type: Attribute = types[0] if len(types) == 2 else IntegerType(1)
        result_type = types[-1]
        return cls.create(
            operands=[
                parser.resolve_operand(cond, cond_type),
                parser.resolve_operand(lhs, result_type),
                parser.resolve_operand(rhs, result_type),
            ],
            result_types=[result_type],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != i1:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


_REPLACED: dict[type, type] = {
    xarith.DivSIOp: DivSIOp,
    xarith.DivUIOp: DivUIOp,
    xarith.ShRSIOp: ShRSIOp,
    xarith.ShRUIOp: ShRUIOp,
    xarith.CmpiOp: CmpiOp,
    xarith.CmpfOp: CmpfOp,
    xarith.SelectOp: SelectOp,
    xarith.ConstantOp: ConstantOp,
    xarith.AddUIExtendedOp: AddUIExtendedOp,
    xarith.AddiOp: AddiOp,
    xarith.SubiOp: SubiOp,
    xarith.MuliOp: MuliOp,
    xarith.ShLIOp: ShLIOp,
    **CAST_REPLACEMENTS,
    xarith.IntegerOverflowAttr: IntegerOverflowAttr,
}

Arith = with_replacements(xarith.Arith, _REPLACED, [RemFOp, FlushDenormalsOp, *NEW_CASTS])

__getattr__ = op_lookup(__name__, lambda: Arith)
