"""arith's cast ops with upstream's types, flags and checks.

xDSL 0.75's casts accept only scalars (``extsi``/``trunci``/``sitofp``/``fptosi``/
``index_cast`` reject vectors and tensors), lack upstream's flags (``nneg`` on
``extui``/``uitofp``/``index_castui``, ``overflow<...>`` on ``trunci``,
rounding modes and ``fastmath`` on ``truncf``/``extf``), and word their
checks differently. ``index_castui``, ``convertf``, ``scaling_extf`` and
``scaling_truncf`` are missing. xDSL's casts are subclassed (passes match them
with isinstance); the missing ones are new ops, deliberately not subclasses of
a similar xDSL op (``index_castui`` zero-extends where ``index_cast`` sign-extends).
``extui``/``extsi`` fold as upstream's do (:mod:`mlkit.dialects.arith.cast_folding`).

All casts share upstream's syntax ``%in [, %scale] [flags] : T [, S] to U``; the
rounding-mode keyword cannot be written in IRDL's declarative format, so the
syntax is one hand-written ``parse``/``print`` in :class:`CastSyntax`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, Literal

from mlkit.dialects.arith.cast_folding import EXT_FOLDS, EXT_PATTERNS
from mlkit.dialects.arith.shapes import compatible_shape, compatible_shapes, tensor_like_of
from mlkit.dialects.arith.shapes import verify_elementwise
from mlkit.dialects.utils.ods import type_str, upstream_op, verify_cast_compatible
from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, IntegerType, MemRefType
from xdsl.dialects.builtin import SignlessIntegerConstraint, TensorType, UnitAttr
from xdsl.dialects.builtin import UnrankedTensorType, VectorType, container_of, i32
from xdsl.dialects.utils import BitEnumAttribute
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrConstraint, IRDLAttrConstraint, IRDLOperation, ParamAttrConstraint
from xdsl.irdl import base, irdl_to_attr_constraint
from xdsl.irdl import irdl_attr_definition, operand_def, opt_prop_def
from xdsl.irdl import result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException



INT_LIKE = tensor_like_of(SignlessIntegerConstraint)
FLOAT_LIKE = tensor_like_of(base(AnyFloat))
INDEX_CAST_LIKE = tensor_like_of(base(IntegerType) | base(IndexType)) | base(MemRefType)
INT_TEXT = "signless-fixed-width-integer-like"
FLOAT_TEXT = "floating-point-like"
INDEX_CAST_TEXT = "signless-non-zero-bitwidth-integer-like or memref of signless-integer"

# Upstream's RoundingMode enumerants, by their i32 value.
ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")


def element_type(type_: Attribute) -> Attribute:
    if isinstance(type_, VectorType | TensorType | UnrankedTensorType | MemRefType):
        return type_.element_type
    return type_


def same_encoding(a: Attribute, b: Attribute) -> bool:
    """Upstream's casts refuse ranked tensors whose encodings differ
    (``tensor<2xf32, "foo">`` to ``tensor<2xf64, "bar">`` or to ``tensor<2xf64>``)."""
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.encoding == b.encoding
    return True


def same_tensor_dims(a: Attribute, b: Attribute) -> bool:
    """Upstream's ``SameInputOutputTensorDims``: a tensor's dimensions (which
    an unranked one lacks) equal the other side's; scalars and other shaped
    types have none."""
    if isinstance(a, UnrankedTensorType) or isinstance(b, UnrankedTensorType):
        return False

    def dims(type_: Attribute) -> tuple[int, ...]:
        return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()

    return dims(a) == dims(b)


def width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, AnyFloat):
        return type_.bitwidth
    return -1


def wider(a: Attribute, b: Attribute) -> bool:
    return width(b) > width(a)


def narrower(a: Attribute, b: Attribute) -> bool:
    return width(b) < width(a)


def any_pair(a: Attribute, b: Attribute) -> bool:
    return True


def one_index(a: Attribute, b: Attribute) -> bool:
    return isinstance(a, IndexType) != isinstance(b, IndexType)


class CastSyntax(IRDLOperation):
    """Upstream's cast syntax and checks; subclasses declare their flags.

    ``UNIT_FLAGS`` are (keyword, property) pairs; ``ROUNDING``, ``OVERFLOW`` and
    ``FASTMATH`` name the property holding that flag, if the op has it.
    ``COMPATIBLE`` compares the element types (upstream's ``areCastCompatible``).
    """

    UNIT_FLAGS: ClassVar[tuple[tuple[str, str], ...]] = ()
    ROUNDING: ClassVar[str | None] = None
    OVERFLOW: ClassVar[str | None] = None
    FASTMATH: ClassVar[str | None] = None
    SCALED: ClassVar[bool] = False
    COMPATIBLE: ClassVar[Callable[[Attribute, Attribute], bool]] = staticmethod(any_pair)
    # xDSL's casts declare a format; this class's hand-written syntax replaces it
    assembly_format: ClassVar[str | None] = None
    traits = traits_def(Pure())

    def verify_(self) -> None:
        """The checks every cast shares; the subclasses list this class before
        xDSL's op, so IRDL runs this rather than xDSL's generated verifier."""
        source, result = self.operands[0].type, self.results[0].type
        if not same_tensor_dims(source, result):
            raise VerifyException(
                "failed to verify that input and output have the same tensor dimensions"
            )
        operands = [operand.type for operand in self.operands]
        # upstream's scaled casts are Elementwise, checked after the cast
        # interface; the others have SameOperandsAndResultShape, checked before
        if not self.SCALED and not compatible_shapes([*operands, result]):
            raise VerifyException("requires the same shape for all operands and results")
        compatible = same_encoding(source, result) and type(self).COMPATIBLE(
            element_type(source), element_type(result)
        )
        if not self.SCALED:
            verify_cast_compatible(compatible, source, result)
        elif not (compatible and compatible_shape(source, result)):
            raise VerifyException(
                f"operand types {', '.join(map(type_str, operands))} and result type "
                f"{type_str(result)} are cast incompatible"
            )
        else:
            verify_elementwise(operands, [result])
        if self.ROUNDING is not None and (mode := self.properties.get(self.ROUNDING)) is not None:
            assert isinstance(mode, IntegerAttr)
            if not 0 <= mode.value.data < len(ROUNDING_MODES):
                raise VerifyException(f"invalid rounding mode {mode.value.data}")

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        operands = [parser.parse_unresolved_operand()]
        if cls.SCALED:
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        props: dict[str, Attribute] = {}
        for keyword, prop in cls.UNIT_FLAGS:
            if parser.parse_optional_keyword(keyword) is not None:
                props[prop] = UnitAttr()
        if cls.ROUNDING is not None:
            for value, keyword in enumerate(ROUNDING_MODES):
                if parser.parse_optional_keyword(keyword) is not None:
                    props[cls.ROUNDING] = IntegerAttr(value, i32)
                    break
        if cls.OVERFLOW is not None and parser.parse_optional_keyword("overflow"):
            props[cls.OVERFLOW] = IntegerOverflowAttr(IntegerOverflowAttr.parse_parameter(parser))
        if cls.FASTMATH is not None and parser.parse_optional_keyword("fastmath"):
            props[cls.FASTMATH] = xarith.FastMathFlagsAttr(
                xarith.FastMathFlagsAttr.parse_parameter(parser)
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        if cls.SCALED:
            parser.parse_punctuation(",")
            types.append(parser.parse_type())
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        for keyword, prop in self.UNIT_FLAGS:
            if prop in self.properties:
                printer.print_string(f" {keyword}")
        if self.ROUNDING is not None and (mode := self.properties.get(self.ROUNDING)) is not None:
            assert isinstance(mode, IntegerAttr)
            printer.print_string(f" {ROUNDING_MODES[mode.value.data]}")
        flags = self.properties.get(self.OVERFLOW) if self.OVERFLOW else None
        if isinstance(flags, IntegerOverflowAttr | xarith.IntegerOverflowAttr) and flags.data:
            printer.print_string(" overflow")
            IntegerOverflowAttr(flags.data).print_parameter(printer)
        fastmath = self.properties.get(self.FASTMATH) if self.FASTMATH else None
        if fastmath is not None and fastmath != xarith.FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            fastmath.print_parameter(printer)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((o.type for o in self.operands), printer.print_attribute)
        printer.print_string(" to ")
        printer.print_attribute(self.results[0].type)


@irdl_attr_definition
class IntegerOverflowAttr(BitEnumAttribute[xarith.IntegerOverflowFlag]):
    """``#arith.overflow`` printed as upstream does: ``<nsw, nuw>`` (xDSL's
    attribute, a final class, writes ``<nsw,nuw>``). Ops accept either class."""

    name = "arith.overflow"
    none_value = "none"

    def __init__(
        self, flags: Iterable[xarith.IntegerOverflowFlag] | Literal["none"] | None
    ) -> None:
        super().__init__(flags)

    def print_parameter(self, printer: Printer) -> None:
        flags = [flag.value for flag in self.enum_type if flag in self.data]
        printer.print_string(f"<{', '.join(flags) if flags else 'none'}>")


_OVERFLOW = IntegerOverflowAttr
_FASTMATH = xarith.FastMathFlagsAttr


_KINDS = {"int": (INT_LIKE, INT_TEXT), "float": (FLOAT_LIKE, FLOAT_TEXT)}


def _operand_kinds(class_name: str, source: str, target: str) -> type[CastSyntax]:
    """The base of the casts from ``source`` to ``target`` values ("int" or
    "float"): the operand and result constraints with upstream's wording."""
    (src, src_text), (dst, dst_text) = _KINDS[source], _KINDS[target]
    namespace = {
        "input": operand_def(src), "result": result_def(dst),
        "CONSTRAINT_TEXT": {"input": src_text, "result": dst_text},
        "__annotations__": {"CONSTRAINT_TEXT": "ClassVar[dict[str, str]]"},
        "__module__": __name__, "__qualname__": class_name,
    }  # fmt: skip
    return type(class_name, (CastSyntax,), namespace)


_IntToInt = _operand_kinds("_IntToInt", "int", "int")
_IntToFloat = _operand_kinds("_IntToFloat", "int", "float")
_FloatToInt = _operand_kinds("_FloatToInt", "float", "int")
_FloatToFloat = _operand_kinds("_FloatToFloat", "float", "float")


class _ScaledFloatCast(CastSyntax):
    """``%in, %scale : T, S to U``."""

    input = operand_def(FLOAT_LIKE)
    scale = operand_def(FLOAT_LIKE)
    result = result_def(FLOAT_LIKE)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "input": FLOAT_TEXT, "scale": FLOAT_TEXT, "result": FLOAT_TEXT,
    }  # fmt: skip
    SCALED: ClassVar = True


class _IndexCast(CastSyntax):
    input = operand_def(INDEX_CAST_LIKE)
    result = result_def(INDEX_CAST_LIKE)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"input": INDEX_CAST_TEXT, "result": INDEX_CAST_TEXT}
    COMPATIBLE: ClassVar = staticmethod(one_index)


# Flags, as mixins listed before the operand kinds: ``nneg``, a rounding mode, ``fastmath``.


class _NonNeg(IRDLOperation):
    nonNeg = opt_prop_def(UnitAttr)
    UNIT_FLAGS: ClassVar = (("nneg", "nonNeg"),)


class _Rounding(IRDLOperation):
    roundingmode = opt_prop_def(IntegerAttr)
    ROUNDING: ClassVar = "roundingmode"


class _FastMath(IRDLOperation):
    fastmath = opt_prop_def(_FASTMATH)
    FASTMATH: ClassVar = "fastmath"


@upstream_op
class ExtSIOp(_IntToInt, xarith.ExtSIOp):
    name = "arith.extsi"
    traits = traits_def(EXT_FOLDS, EXT_PATTERNS)
    COMPATIBLE: ClassVar = staticmethod(wider)


@upstream_op
class ExtUIOp(_NonNeg, _IntToInt, xarith.ExtUIOp):
    name = "arith.extui"
    traits = traits_def(EXT_FOLDS, EXT_PATTERNS)
    COMPATIBLE: ClassVar = staticmethod(wider)


@upstream_op
class TruncIOp(_IntToInt, xarith.TruncIOp):
    name = "arith.trunci"
    overflowFlags = opt_prop_def(_OVERFLOW)
    OVERFLOW: ClassVar = "overflowFlags"
    COMPATIBLE: ClassVar = staticmethod(narrower)


@upstream_op
class SIToFPOp(_IntToFloat, xarith.SIToFPOp):
    name = "arith.sitofp"


@upstream_op
class UIToFPOp(_NonNeg, _IntToFloat, xarith.UIToFPOp):
    name = "arith.uitofp"


@upstream_op
class FPToSIOp(_FloatToInt, xarith.FPToSIOp):
    name = "arith.fptosi"


@upstream_op
class FPToUIOp(_FloatToInt, xarith.FPToUIOp):
    name = "arith.fptoui"


@upstream_op
class ExtFOp(_FastMath, _FloatToFloat, xarith.ExtFOp):
    name = "arith.extf"
    COMPATIBLE: ClassVar = staticmethod(wider)


@upstream_op
class TruncFOp(_Rounding, _FastMath, _FloatToFloat, xarith.TruncFOp):
    name = "arith.truncf"
    COMPATIBLE: ClassVar = staticmethod(narrower)


@upstream_op
class IndexCastOp(_IndexCast, xarith.IndexCastOp):
    name = "arith.index_cast"


@upstream_op
class IndexCastUIOp(_NonNeg, _IndexCast):
    """Zero-extending/truncating index cast (missing in xDSL)."""

    name = "arith.index_castui"


def _bitcastable(a: Attribute, b: Attribute) -> bool:
    return isinstance(a, IndexType) or isinstance(b, IndexType) or width(a) == width(b) > 0


BITCAST_LIKE = tensor_like_of(
    base(IntegerType) | base(IndexType) | base(AnyFloat)
) | MemRefType.constr(element_type=base(AnyFloat) | SignlessIntegerConstraint)
_BITCAST_TEXT = "signless-integer-or-float-like or memref of signless-integer or float"


@upstream_op
class BitcastOp(CastSyntax, xarith.BitcastOp):
    """xDSL's op with upstream's cast checks (``are cast incompatible``)."""

    name = "arith.bitcast"
    input = operand_def(BITCAST_LIKE)
    result = result_def(BITCAST_LIKE)
    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {"input": _BITCAST_TEXT, "result": _BITCAST_TEXT}
    COMPATIBLE: ClassVar = staticmethod(_bitcastable)


def _same_width_other_type(a: Attribute, b: Attribute) -> bool:
    return width(a) == width(b) and a != b


@upstream_op
class ConvertFOp(_FastMath, _FloatToFloat):
    """``arith.convertf``: between float types of one width (missing in xDSL)."""

    name = "arith.convertf"
    COMPATIBLE: ClassVar = staticmethod(_same_width_other_type)


@upstream_op
class ScalingExtFOp(_FastMath, _ScaledFloatCast):
    """``arith.scaling_extf %in, %scale`` (missing in xDSL)."""

    name = "arith.scaling_extf"
    COMPATIBLE: ClassVar = staticmethod(wider)


@upstream_op
class ScalingTruncFOp(_Rounding, _FastMath, _ScaledFloatCast):
    """``arith.scaling_truncf %in, %scale`` (missing in xDSL)."""

    name = "arith.scaling_truncf"
    COMPATIBLE: ClassVar = staticmethod(narrower)


CAST_REPLACEMENTS: dict[type, type] = {
    xarith.ExtSIOp: ExtSIOp,
    xarith.ExtUIOp: ExtUIOp,
    xarith.TruncIOp: TruncIOp,
    xarith.SIToFPOp: SIToFPOp,
    xarith.UIToFPOp: UIToFPOp,
    xarith.FPToSIOp: FPToSIOp,
    xarith.FPToUIOp: FPToUIOp,
    xarith.ExtFOp: ExtFOp,
    xarith.TruncFOp: TruncFOp,
    xarith.IndexCastOp: IndexCastOp,
    xarith.BitcastOp: BitcastOp,
}
NEW_CASTS: tuple[type, ...] = (IndexCastUIOp, ConvertFOp, ScalingExtFOp, ScalingTruncFOp)
