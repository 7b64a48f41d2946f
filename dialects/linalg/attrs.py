"""linalg's enum attributes, spelled as upstream spells them.

``#linalg.iterator_type<parallel>`` is xDSL's ``IteratorTypeAttr`` (it agrees
with upstream). The function enums that parametrize named ops (``#linalg.type_fn``,
``#linalg.unary_fn``, ``#linalg.binary_fn``, ``#linalg.ternary_fn``) and the kind of
``linalg.elementwise`` (``#linalg.elementwise_kind``) are missing from xDSL.
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

__all__ = [
    "BinaryFn",
    "BinaryFnAttr",
    "ElementwiseKind",
    "ElementwiseKindAttr",
    "IteratorType",
    "IteratorTypeAttr",
    "TernaryFn",
    "TernaryFnAttr",
    "TypeFn",
    "TypeFnAttr",
    "UnaryFn",
    "UnaryFnAttr",
]


class TypeFn(StrEnum):
    """How an operand is converted to the type an op computes in."""

    CAST_SIGNED = auto()
    CAST_UNSIGNED = auto()


class UnaryFn(StrEnum):
    EXP = auto()
    LOG = auto()
    ABS = auto()
    CEIL = auto()
    FLOOR = auto()
    NEGF = auto()
    RECIPROCAL = auto()
    ROUND = auto()
    SQRT = auto()
    RSQRT = auto()
    SQUARE = auto()
    TANH = auto()
    ERF = auto()


class BinaryFn(StrEnum):
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    DIV_UNSIGNED = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()
    MAX_UNSIGNED = auto()
    MIN_UNSIGNED = auto()
    POWF = auto()


class TernaryFn(StrEnum):
    SELECT = auto()


class ElementwiseKind(StrEnum):
    """Every unary, binary and ternary function, as ``linalg.elementwise`` names them."""

    EXP = auto()
    LOG = auto()
    ABS = auto()
    CEIL = auto()
    FLOOR = auto()
    NEGF = auto()
    RECIPROCAL = auto()
    ROUND = auto()
    SQRT = auto()
    RSQRT = auto()
    SQUARE = auto()
    TANH = auto()
    ERF = auto()
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    DIV_UNSIGNED = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()
    MAX_UNSIGNED = auto()
    MIN_UNSIGNED = auto()
    POWF = auto()
    SELECT = auto()


def _parse_bracketed(parser: AttrParser, enum_type: type[StrEnum]) -> StrEnum:
    with parser.in_angle_brackets():
        return parser.parse_str_enum(enum_type)


def _print_bracketed(printer: Printer, value: StrEnum) -> None:
    with printer.in_angle_brackets():
        printer.print_string(value.value)


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    name = "linalg.type_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        return TypeFn(_parse_bracketed(parser, TypeFn))

    def print_parameter(self, printer: Printer) -> None:
        _print_bracketed(printer, self.data)


@irdl_attr_definition
class UnaryFnAttr(EnumAttribute[UnaryFn]):
    name = "linalg.unary_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> UnaryFn:
        return UnaryFn(_parse_bracketed(parser, UnaryFn))

    def print_parameter(self, printer: Printer) -> None:
        _print_bracketed(printer, self.data)


@irdl_attr_definition
class BinaryFnAttr(EnumAttribute[BinaryFn]):
    name = "linalg.binary_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> BinaryFn:
        return BinaryFn(_parse_bracketed(parser, BinaryFn))

    def print_parameter(self, printer: Printer) -> None:
        _print_bracketed(printer, self.data)


@irdl_attr_definition
class TernaryFnAttr(EnumAttribute[TernaryFn]):
    name = "linalg.ternary_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TernaryFn:
        return TernaryFn(_parse_bracketed(parser, TernaryFn))

    def print_parameter(self, printer: Printer) -> None:
        _print_bracketed(printer, self.data)


@irdl_attr_definition
class ElementwiseKindAttr(EnumAttribute[ElementwiseKind]):
    name = "linalg.elementwise_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ElementwiseKind:
        return ElementwiseKind(_parse_bracketed(parser, ElementwiseKind))

    def print_parameter(self, printer: Printer) -> None:
        _print_bracketed(printer, self.data)
