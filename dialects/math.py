"""The ``math`` dialect: xDSL's ops plus the upstream ops xDSL 0.75 lacks.

xDSL's dialect has no ``math.sincos``, ``math.clampf``, ``math.erfc`` and none
of the float classification ops (``isfinite``, ``isinf``, ``isnan``,
``isnormal``), so mlkit could not read upstream programs holding them. They are
defined here with upstream's syntax, constraints (``FloatLike`` includes
unranked tensors), ``fastmath`` property and verifier wording and order:
operand and result counts, then the fastmath property, then operand and result
types, then the relation between them. Every other op is xDSL's own class, so
passes matching xDSL's classes keep matching.

Like every math op upstream, the new ops are ``Pure``; they are elementwise
mappable through the dialect's name (see ``convert-elementwise-to-linalg``).

Every op upstream folds (all but ``fma`` and ``clampf``) has upstream's folder
(:mod:`mlkit.dialects.math_folding`), and the dialect materializes the folded
constants as ``arith.constant``, as upstream's does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from xdsl.dialects import math as xmath
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType, TensorType
from xdsl.dialects.builtin import UnrankedTensorType, i32
from xdsl.dialects.builtin import VectorType
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import AnyOf, IRDLOperation, ParamAttrConstraint
from xdsl.irdl import VerificationContext, irdl_to_attr_constraint, operand_def, prop_def
from xdsl.irdl import opt_prop_def, result_def, traits_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure, SameOperandsAndResultType
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.arith import i1_like
from mlkit.dialects.arith.casts import ROUNDING_MODES
from mlkit.dialects.math_folding import FOLDED, FOLDS_CONSTANTS, MathConstantMaterialization
from mlkit.dialects.utils.attr_dict import add_attr_dict
from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.utils.ods import describe_constraints, type_str, upstream_op, verify_that

__all__ = [
    "ClampFOp",
    "ErfcOp",
    "IsFiniteOp",
    "IsInfOp",
    "IsNaNOp",
    "IsNormalOp",
    "Math",
    "SincosOp",
]


def _like(element: Attribute | type) -> AnyOf:
    """Upstream's ``*Like`` constraints: a scalar, or a vector or (ranked or
    unranked) tensor of them; xDSL's ``container_of`` leaves out unranked tensors."""
    scalar = irdl_to_attr_constraint(element)
    return AnyOf.get(
        scalar,
        VectorType.constr(scalar),
        TensorType.constr(scalar),
        ParamAttrConstraint(UnrankedTensorType, (scalar,)),
    )


FLOAT_LIKE = _like(AnyFloat)
BOOL_LIKE = _like(IntegerType(1))
FLOAT_LIKE_TEXT = "floating-point-like"
BOOL_LIKE_TEXT = "bool-like"
FASTMATH_TEXT = "Floating point fast math flags"
_NO_FASTMATH = FastMathFlagsAttr("none")
_SAME_TYPE = "requires the same type for all operands and results"
_CONSTRAINTS: dict[str, AnyOf] = {FLOAT_LIKE_TEXT: FLOAT_LIKE, BOOL_LIKE_TEXT: BOOL_LIKE}


def _satisfies(constraint: AnyOf, type_: Attribute) -> bool:
    try:
        constraint.verify(type_, VerificationContext())
    except VerifyException:
        return False
    return True


def _count_message(kind: str, expected: int, found: int) -> str:
    """Upstream's OneOperand/NOperands and OneResult/NResults wording."""
    if kind == "result":
        return "requires one result" if expected == 1 else f"expected {expected} results"
    if expected == 1:
        return "requires a single operand"
    return f"expected {expected} operands, but found {found}"


class _MathOp(IRDLOperation):
    """The checks every op here shares, in upstream's ``verifyInvariants`` order.

    Subclasses name the constraint text of each operand and result; IRDL's own
    checks run after these and then cannot fail, so its wording never shows."""

    fastmath = prop_def(FastMathFlagsAttr, default_value=_NO_FASTMATH)

    OPERAND_TEXT: ClassVar[Sequence[str]] = ()
    RESULT_TEXT: ClassVar[Sequence[str]] = ()

    def __init__(
        self, operand: Operation | SSAValue, fastmath: FastMathFlagsAttr | None = None
    ) -> None:
        """An op of one operand (ops of more define their own)."""
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=self.result_types_for(operand.type),
            properties=_fastmath(fastmath),
        )

    @classmethod
    def result_types_for(cls, operand: Attribute) -> list[Attribute]:
        """The result types for an operand of type ``operand``: that type, once per result."""
        return [operand] * len(cls.RESULT_TEXT)

    def verify_relations_(self) -> None:
        results, operands = len(self.RESULT_TEXT), len(self.OPERAND_TEXT)
        if len(self.results) != results:
            raise VerifyException(_count_message("result", results, len(self.results)))
        if len(self.operands) != operands:
            raise VerifyException(_count_message("operand", operands, len(self.operands)))
        fastmath = self.properties.get("fastmath")
        if fastmath is not None and not isinstance(fastmath, FastMathFlagsAttr):
            raise VerifyException(
                f"attribute 'fastmath' failed to satisfy constraint: {FASTMATH_TEXT}"
            )
        for kind, values, texts in (
            ("operand", self.operands, self.OPERAND_TEXT),
            ("result", self.results, self.RESULT_TEXT),
        ):
            for i, (value, text) in enumerate(zip(values, texts, strict=True)):
                if not _satisfies(_CONSTRAINTS[text], value.type):
                    raise VerifyException(
                        f"{kind} #{i} must be {text}, but got {type_str(value.type)}"
                    )
        self.verify_types_()

    def verify_types_(self) -> None:
        """The relation between operand and result types (after the constraints)."""
        types = {v.type for v in (*self.operands, *self.results)}
        if len(types) != 1:
            raise VerifyException(_SAME_TYPE)

    def verify_(self) -> None:
        pass


def _fastmath(fastmath: FastMathFlagsAttr | None) -> dict[str, Attribute]:
    return {"fastmath": fastmath} if fastmath is not None else {}


# upstream's spelling of the flags, in its order, for its error message
_FLAG_WORDS = ("none", *(flag.value for flag in FastMathFlag), "fast")


def _parse_fastmath_flags(parser: Parser) -> FastMathFlagsAttr:
    """``<nnan,ninf>`` after the ``fastmath`` keyword, with upstream's message
    for an unknown flag (xDSL's lists the flags differently)."""

    def flag() -> frozenset[FastMathFlag]:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        if word not in _FLAG_WORDS:
            parser.raise_error(
                "expected ::mlir::arith::FastMathFlags to be one of: " + ", ".join(_FLAG_WORDS),
                pos,
                parser.pos,
            )
        if word == "fast":
            return frozenset(FastMathFlag)
        return frozenset() if word == "none" else frozenset({FastMathFlag(word)})

    flags = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, flag)
    return FastMathFlagsAttr(frozenset().union(*flags))


def _expect(parser: Parser, punctuation: Literal[":", "[", ",", "]"]) -> None:
    """A required token, reported in upstream's words (``expected ':'``)."""
    if parser.parse_optional_punctuation(punctuation) is None:
        parser.raise_error(f"expected '{punctuation}'")


class _SameTypeOp(_MathOp):
    """An op whose operands and results all have the one type its syntax
    names: ``<operands> [fastmath<flags>] {attrs} : T``.

    Its syntax is written by hand: IRDL's declarative format would check the
    type while parsing (``Unexpected attribute i32``), before the verifier can
    say what upstream says (``operand #0 must be floating-point-like``)."""

    @classmethod
    def parse_operands_(cls, parser: Parser) -> list[UnresolvedOperand]:
        return [parser.parse_unresolved_operand()]

    def print_operands_(self, printer: Printer) -> None:
        printer.print_operand(self.operands[0])

    # the op takes an optional rounding mode after its operands (``math.fma``)
    ROUNDING: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> _SameTypeOp:
        operands = cls.parse_operands_(parser)
        props: dict[str, Attribute] = {}
        if cls.ROUNDING:
            for value, keyword in enumerate(ROUNDING_MODES):
                if parser.parse_optional_keyword(keyword) is not None:
                    props["roundingmode"] = IntegerAttr(value, i32)
                    break
        if parser.parse_optional_keyword("fastmath") is not None:
            props["fastmath"] = _parse_fastmath_flags(parser)
        attrs = parser.parse_optional_attr_dict()
        _expect(parser, ":")
        type_ = parser.parse_type()
        op = cls.create(
            operands=parser.resolve_operands(operands, [type_] * len(operands), parser.pos),
            result_types=[type_] * len(cls.RESULT_TEXT),
            properties=props,
        )
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.print_operands_(printer)
        mode = self.properties.get("roundingmode")
        if isinstance(mode, IntegerAttr) and 0 <= mode.value.data < len(ROUNDING_MODES):
            printer.print_string(f" {ROUNDING_MODES[mode.value.data]}")
        fastmath = self.properties.get("fastmath")
        if isinstance(fastmath, FastMathFlagsAttr) and fastmath != _NO_FASTMATH:
            printer.print_string(" fastmath")
            fastmath.print_parameter(printer)
        printer.print_op_attributes(dict(sorted(self.attributes.items())))
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)


@upstream_op
class ErfcOp(_SameTypeOp):
    """``math.erfc``: the complementary error function, ``1 - erf(x)``."""

    name = "math.erfc"

    operand = operand_def(FLOAT_LIKE)
    result = result_def(FLOAT_LIKE)
    traits = traits_def(Pure(), SameOperandsAndResultType(), FOLDS_CONSTANTS)
    OPERAND_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)
    RESULT_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)


@upstream_op
class FmaOp(_SameTypeOp, xmath.FmaOp):
    """``math.fma`` with upstream's optional rounding mode (``to_nearest_even``,
    ``downward``, ...), which xDSL's op lacks."""

    name = "math.fma"

    T: ClassVar = xmath.FmaOp.T
    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    result = result_def(T)
    roundingmode = opt_prop_def(IntegerAttr)
    traits = xmath.FmaOp.traits
    OPERAND_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,) * 3
    RESULT_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)
    ROUNDING: ClassVar[bool] = True
    assembly_format: ClassVar[str | None] = None  # xDSL's has no rounding mode

    @classmethod
    def parse_operands_(cls, parser: Parser) -> list[UnresolvedOperand]:
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            _expect(parser, ",")
            operands.append(parser.parse_unresolved_operand())
        return operands

    def print_operands_(self, printer: Printer) -> None:
        printer.print_list(self.operands, printer.print_operand)

    def verify_(self) -> None:
        mode = self.properties.get("roundingmode")
        if mode is not None and not (
            isinstance(mode, IntegerAttr) and 0 <= mode.value.data < len(ROUNDING_MODES)
        ):
            raise VerifyException(  # upstream's words, from its property conversion
                f"invalid properties for op math.fma: Invalid attribute `roundingmode` in "
                f"property conversion: {mode}"
            )


@upstream_op
class SincosOp(_SameTypeOp):
    """``math.sincos``: sine and cosine of one value at once, for targets that
    compute both for the price of one (``llvm.intr.sincos``)."""

    name = "math.sincos"

    operand = operand_def(FLOAT_LIKE)
    sin = result_def(FLOAT_LIKE)
    cos = result_def(FLOAT_LIKE)
    traits = traits_def(Pure(), SameOperandsAndResultType(), FOLDS_CONSTANTS)
    OPERAND_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)
    RESULT_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT, FLOAT_LIKE_TEXT)


@upstream_op
class ClampFOp(_SameTypeOp):
    """``math.clampf``: ``maxf(minf(value, max), min)``; poison if ``min > max``.
    Written ``math.clampf %v to [%lo, %hi] : f32``."""

    name = "math.clampf"

    value = operand_def(FLOAT_LIKE)
    min = operand_def(FLOAT_LIKE)
    max = operand_def(FLOAT_LIKE)
    result = result_def(FLOAT_LIKE)
    traits = traits_def(Pure(), SameOperandsAndResultType())
    OPERAND_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,) * 3
    RESULT_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)

    def __init__(
        self,
        value: Operation | SSAValue,
        min: Operation | SSAValue,
        max: Operation | SSAValue,
        fastmath: FastMathFlagsAttr | None = None,
    ) -> None:
        value = SSAValue.get(value)
        IRDLOperation.__init__(
            self,
            operands=[value, min, max],
            result_types=[value.type],
            properties=_fastmath(fastmath),
        )

    @classmethod
    def parse_operands_(cls, parser: Parser) -> list[UnresolvedOperand]:
        value = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("to") is None:
            parser.raise_error("expected 'to'")
        _expect(parser, "[")
        low = parser.parse_unresolved_operand()
        _expect(parser, ",")
        high = parser.parse_unresolved_operand()
        _expect(parser, "]")
        return [value, low, high]

    def print_operands_(self, printer: Printer) -> None:
        printer.print_operand(self.value)
        printer.print_string(" to [")
        printer.print_list([self.min, self.max], printer.print_operand)
        printer.print_string("]")


class _FloatClassificationOp(_MathOp):
    """Upstream's ``Math_FloatClassificationOp``: an ``i1`` (shaped like the
    operand) saying whether a float is of some class.

    Its syntax is ``%r = math.isnan %x {attrs} : f32``, with no ``fastmath``
    keyword: upstream's format writes non-default flags in the attribute
    dictionary, sorted among the other attributes."""

    operand = operand_def(FLOAT_LIKE)
    result = result_def(BOOL_LIKE)
    traits = traits_def(Pure(), FOLDS_CONSTANTS)
    OPERAND_TEXT: ClassVar[Sequence[str]] = (FLOAT_LIKE_TEXT,)
    RESULT_TEXT: ClassVar[Sequence[str]] = (BOOL_LIKE_TEXT,)

    @classmethod
    def result_types_for(cls, operand: Attribute) -> list[Attribute]:
        return [i1_like(operand)]

    def verify_types_(self) -> None:
        verify_that(
            self.result.type == i1_like(self.operand.type),
            "result type has i1 element type and same shape as operands",
        )

    @classmethod
    def parse(cls, parser: Parser) -> _FloatClassificationOp:
        operand = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        _expect(parser, ":")
        type_ = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(operand, type_)], result_types=[i1_like(type_)]
        )
        add_attr_dict(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        merged = dict(self.attributes)
        fastmath = self.properties.get("fastmath")
        if fastmath is not None and fastmath != _NO_FASTMATH:
            merged["fastmath"] = fastmath
        printer.print_op_attributes(dict(sorted(merged.items())))
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


@upstream_op
class IsFiniteOp(_FloatClassificationOp):
    """``math.isfinite``: normal, subnormal or zero; not infinite, not NaN."""

    name = "math.isfinite"


@upstream_op
class IsInfOp(_FloatClassificationOp):
    """``math.isinf``: positive or negative infinity."""

    name = "math.isinf"


@upstream_op
class IsNaNOp(_FloatClassificationOp):
    """``math.isnan``: any NaN, quiet or signaling."""

    name = "math.isnan"


@upstream_op
class IsNormalOp(_FloatClassificationOp):
    """``math.isnormal``: neither zero, subnormal, infinite nor NaN."""

    name = "math.isnormal"


NEW_OPS: tuple[type[IRDLOperation], ...] = (
    ClampFOp,
    ErfcOp,
    IsFiniteOp,
    IsInfOp,
    IsNaNOp,
    IsNormalOp,
    SincosOp,
)

# xDSL's ops in upstream's words when a constraint fails ("operand #0 must be
# floating-point-like, but got 'i32'")
for _base, _fields, _text in (
    (xmath.FloatingPointLikeUnaryMathOperation, ("operand", "result"), "floating-point-like"),
    (xmath.FloatingPointLikeBinaryMathOperation, ("lhs", "rhs", "result"), "floating-point-like"),
    (xmath.SignlessIntegerLikeUnaryMathOperation, ("operand", "result"), "signless-integer-like"),
    (xmath.SignlessIntegerLikeBinaryMathOperation, ("lhs", "rhs", "result"), "signless-integer-like"),
):
    describe_constraints(_base, dict.fromkeys(_fields, _text))

# xDSL's ops get upstream's folders on their own classes (xDSL's OpTraits
# ``add_trait``), not on subclasses: passes build and match xDSL's classes,
# and the dialect registers those very classes
for _op in xmath.Math.operations:
    if _op.name in FOLDED and not _op.has_trait(FOLDS_CONSTANTS):
        _op.traits.add_trait(FOLDS_CONSTANTS)

_ops = with_replacements(xmath.Math, {xmath.FmaOp: FmaOp}, NEW_OPS)
Math = Dialect(
    _ops.name, list(_ops.operations), list(_ops.attributes), [MathConstantMaterialization()]
)

__getattr__ = op_lookup(__name__, lambda: Math)
