"""linalg's enum attributes, spelled as upstream spells them.

``#linalg.iterator_type<parallel>`` is xDSL's ``IteratorTypeAttr`` (it agrees
with upstream). The function enums that parametrize named ops (``#linalg.type_fn``,
``#linalg.unary_fn``, ``#linalg.binary_fn``, ``#linalg.ternary_fn``) and the kind of
``linalg.elementwise`` (``#linalg.elementwise_kind``) are missing from xDSL.
"""

from __future__ import annotations

from enum import auto
from typing import ClassVar

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


ElementwiseKind = StrEnum(  # type: ignore[misc]
    "ElementwiseKind",
    [(f.name, f.value) for fn in (UnaryFn, BinaryFn, TernaryFn) for f in fn],
)
"""Every unary, binary and ternary function, as ``linalg.elementwise`` names them."""


class _Bracketed:
    """Mixin, listed before ``EnumAttribute[...]``: the value in angle brackets,
    ``#linalg.type_fn<cast_signed>``, as upstream's assembly format `` `<` $value `>` ``
    writes it (xDSL's enum attributes print it bare)."""

    enum_type: ClassVar[type[StrEnum]]
    data: StrEnum

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


@irdl_attr_definition
class TypeFnAttr(_Bracketed, EnumAttribute[TypeFn]):
    name = "linalg.type_fn"


@irdl_attr_definition
class UnaryFnAttr(_Bracketed, EnumAttribute[UnaryFn]):
    name = "linalg.unary_fn"


@irdl_attr_definition
class BinaryFnAttr(_Bracketed, EnumAttribute[BinaryFn]):
    name = "linalg.binary_fn"


@irdl_attr_definition
class TernaryFnAttr(_Bracketed, EnumAttribute[TernaryFn]):
    name = "linalg.ternary_fn"


@irdl_attr_definition
class ElementwiseKindAttr(_Bracketed, EnumAttribute[ElementwiseKind]):
    name = "linalg.elementwise_kind"
